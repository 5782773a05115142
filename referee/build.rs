//! Finds the sample bots that are `referee new-bot` starters. A game's starter in a language with
//! a directory of samples is its sample bot `sample-bots/<directory>/<game>_random.<extension>`,
//! included in the binary as it is; this writes the table of every such file there is
//! (`$OUT_DIR/starter_samples.rs`), whatever the directory, so that a new game's starters need
//! no line of code. `starters::Language` says which directory and extension are whose, and a
//! test fails on a sample that is no language's.

use std::path::Path;

/// What marks a starter: `<game>_random.<extension>`.
const MARK: &str = "_random.";

/// Whether `name` is `<game>_random.<extension>`, not hidden and not an editor's backup
/// (`.x_random.py.swp`, `x_random.py~`).
fn is_sample(name: &str) -> bool {
    !name.starts_with('.')
        && name.split_once(MARK).is_some_and(|(game, extension)| {
            !game.is_empty() && extension.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo");
    let samples = Path::new(&manifest).join("../sample-bots");
    println!("cargo::rerun-if-changed={}", samples.display());
    let mut dirs: Vec<String> = std::fs::read_dir(&samples)
        .expect("sample-bots/ is beside referee/")
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    dirs.sort();
    let mut table = String::from("&[\n");
    for dir in dirs {
        let folder = samples.join(&dir);
        println!("cargo::rerun-if-changed={}", folder.display());
        let mut files: Vec<String> = std::fs::read_dir(&folder)
            .expect("a directory of sample-bots/ is readable")
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| is_sample(name))
            .collect();
        files.sort();
        for file in files {
            let (game, extension) = file.split_once(MARK).expect("filtered on MARK");
            let path = folder.join(&file);
            println!("cargo::rerun-if-changed={}", path.display());
            table.push_str(&format!(
                "    SampleBot {{ dir: {dir:?}, game: {game:?}, extension: {extension:?}, \
                 sample: \"sample-bots/{dir}/{file}\", file: {file:?}, \
                 text: include_str!({path:?}) }},\n",
                path = path.display().to_string(),
            ));
        }
    }
    table.push_str("]\n");
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("set by cargo")).join("starter_samples.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
