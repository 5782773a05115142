//! What an unpacked bot runs: the program its language's [`Recipe`] names, found at the top of
//! its tree, or the refusal of an upload that is not a bot in that language.
//!
//! - Python and JavaScript: `bot.py` (`bot.js`), else the one `*.py` (`*.js`) file at the top.
//! - Go: `main.go`, else any `*.go` file at the top (`go build` builds them all).
//! - Java: `Bot.java` and `Json.java`; C++: `bot.cpp` (the sources their build commands name).
//! - Rust: `Cargo.toml`, whose first `[[bin]]`'s name, else its package's, is the program.

use super::refusal::UploadRefusal;
use referee::starters::{Language, Recipe};
use std::path::Path;

/// The most bytes of a `Cargo.toml` read.
const MANIFEST_BYTES: u64 = 256 << 10;

/// The program of the bot in `lang` unpacked at `dir`: what `{file}` stands for in its run
/// command.
///
/// # Errors
/// [`UploadRefusal::WrongLanguage`] saying what the recipe needs; [`UploadRefusal::Io`] when
/// the directory cannot be read.
pub fn program(lang: Language, dir: &Path) -> Result<String, UploadRefusal> {
    let recipe = lang.recipe();
    let files = top_files(dir)?;
    let with_extension: Vec<&String> = files
        .iter()
        .filter(|f| f.ends_with(&format!(".{}", recipe.extension)))
        .collect();
    let wrong = |needs: String| UploadRefusal::WrongLanguage {
        lang: lang.name().into(),
        needs,
    };
    let named = named_by_build(&recipe);
    if named.iter().any(|n| !files.iter().any(|f| f == n)) {
        return Err(wrong(needs(lang, &recipe)));
    }
    if files.iter().any(|f| f == recipe.main) {
        return match lang {
            Language::Rust => crate_binary(dir).ok_or_else(|| {
                wrong("its Cargo.toml names no package (or no [[bin]]) to run".into())
            }),
            _ => Ok(recipe.main.to_string()),
        };
    }
    match (lang, with_extension.as_slice()) {
        (Language::Python | Language::JavaScript, [only]) => Ok(only.to_string()),
        (Language::Go, [first, ..]) => Ok(first.to_string()),
        _ => Err(wrong(needs(lang, &recipe))),
    }
}

/// What the recipe of `lang` needs at the top of an upload, in words.
pub fn needs(lang: Language, recipe: &Recipe) -> String {
    let (main, extension) = (recipe.main, recipe.extension);
    match lang {
        Language::Python | Language::JavaScript => {
            format!("it needs {main} at its top, or a single *.{extension} file there")
        }
        Language::Go => format!("it needs {main}, or another *.{extension} file, at its top"),
        _ => match named_by_build(recipe).as_slice() {
            [first, second] => format!("it needs {first} and {second} at its top"),
            _ => format!("it needs {main} at its top"),
        },
    }
}

/// The sources the recipe's build command names (`Bot.java Json.java`, `bot.cpp`): an upload
/// must have each at its top. One that must have several is an archive.
pub fn named_by_build(recipe: &Recipe) -> Vec<&'static str> {
    let suffix = format!(".{}", recipe.extension);
    recipe
        .build
        .map(|build| {
            build
                .split_whitespace()
                .filter(|word| word.ends_with(&suffix))
                .collect()
        })
        .unwrap_or_default()
}

/// The names of the regular files at the top of `dir`.
fn top_files(dir: &Path) -> Result<Vec<String>, UploadRefusal> {
    let entries = std::fs::read_dir(dir).map_err(|e| UploadRefusal::Io(e.to_string()))?;
    let mut files: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    files.sort();
    Ok(files)
}

/// The binary a Rust crate at `dir` builds: its first `[[bin]]`'s name, else its package's,
/// if it is a safe name.
fn crate_binary(dir: &Path) -> Option<String> {
    let root = referee::safe_fs::SafeDir::open(dir).ok()?;
    let text = root.read("Cargo.toml", MANIFEST_BYTES).ok()??;
    let manifest: toml::Table = toml::from_str(std::str::from_utf8(&text).ok()?).ok()?;
    let bin = manifest
        .get("bin")
        .and_then(|b| b.as_array())
        .and_then(|b| b.first())
        .and_then(|b| b.get("name"))
        .and_then(|n| n.as_str());
    let package = manifest
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str());
    let name = bin.or(package)?;
    let safe = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    safe.then(|| name.to_string())
}
