//! Finds the starter scripts for `referee new-bot`. A game's starter in a scripting language is
//! its sample bot `sample-bots/<language>/<game>_random.<extension>`, included in the binary as
//! it is; this writes the table of those that exist (`$OUT_DIR/starter_scripts.rs`), so that a
//! new game's starters need no line of code.

use std::path::Path;

/// Each scripting language: its directory and extension under `sample-bots/`, its
/// `starters::Language` variant, and the interpreter that runs it.
const LANGUAGES: [(&str, &str, &str, &str); 2] = [
    ("python", "py", "Python", "python3"),
    ("javascript", "js", "JavaScript", "node"),
];

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo");
    let samples = Path::new(&manifest).join("../sample-bots");
    let mut table = String::from("&[\n");
    for (dir, extension, language, interpreter) in LANGUAGES {
        let folder = samples.join(dir);
        println!("cargo::rerun-if-changed={}", folder.display());
        let suffix = format!("_random.{extension}");
        let mut files: Vec<String> = std::fs::read_dir(&folder)
            .expect("sample-bots/ is beside referee/")
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(&suffix))
            .collect();
        files.sort();
        for file in files {
            let game = &file[..file.len() - suffix.len()];
            let path = folder.join(&file);
            println!("cargo::rerun-if-changed={}", path.display());
            table.push_str(&format!(
                "    ScriptStarter {{ game: {game:?}, language: Language::{language}, \
                 file: {file:?}, sample: \"sample-bots/{dir}/{file}\", \
                 text: include_str!({path:?}), interpreter: {interpreter:?} }},\n",
                path = path.display().to_string(),
            ));
        }
    }
    table.push_str("]\n");
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("set by cargo")).join("starter_scripts.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
