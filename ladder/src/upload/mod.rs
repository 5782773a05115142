//! Unpacking an upload: a bot's source as one file (its language's main file, [`Recipe::main`]),
//! a `.tar`, a `.tar.gz` or a `.zip`, written under a destination directory and nowhere else,
//! then normalised into the version's source artifact ([`pack_dir`]: the same files give the
//! same sha256 whatever the archive). What is refused, and why, is in `docs/ladder.md`
//! (#submissions-and-builds).
//!
//! Every entry is checked before a byte of it is written: its type (files and directories only:
//! no symbolic or hard link, device, FIFO), its name ([`names`]: a safe set of bytes, no
//! absolute path, no `..`), the count of entries; the bytes are counted as they are written,
//! so a bomb (a small archive that expands to gigabytes) stops at the cap having written no
//! more than it. Files are made beneath the destination's descriptor, one checked name at a
//! time ([`referee::safe_fs::SafeDir`]), so nothing is written outside it. A refused upload's
//! partial tree is removed.
//!
//! [`Recipe::main`]: referee::starters::Recipe::main

mod archive;
pub mod names;
mod pack;
mod program;
mod refusal;
mod tree;

pub use archive::UploadFormat;
pub use pack::{PackError, pack_dir};
pub use program::{named_by_build, needs, program};
pub use refusal::UploadRefusal;
pub use tree::Caps;

use crate::config::BuildSettings;
use referee::starters::Language;
use schemars::JsonSchema;
use serde::Serialize;
use std::path::Path;
use tree::Tree;

/// An upload, unpacked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Unpacked {
    /// What it was sent as.
    pub format: UploadFormat,
    /// Its files and directories.
    pub files: u64,
    /// Its files' bytes, all together.
    pub bytes: u64,
    /// What `{file}` stands for in its recipe's run command: the script, or the crate's binary.
    pub program: String,
    /// The command that runs it from its (built) directory.
    pub run_command: String,
    /// Its source artifact: the tree as a deterministic `.tar.gz` ([`pack_dir`]).
    #[serde(skip)]
    pub source: Vec<u8>,
    /// The source artifact's sha256, in lowercase hex: the version's name.
    pub sha256: String,
}

impl Caps {
    /// The caps of an upload.
    pub fn upload(settings: &BuildSettings) -> Caps {
        Caps {
            packed_bytes: settings.upload_bytes,
            unpacked_bytes: settings.unpacked_bytes,
            files: settings.files,
        }
    }
}

/// Unpacks the upload `bytes` of a bot in the language named `lang` into `dest` (made if
/// missing; it must be empty), held to `settings`' caps, and packs its source artifact.
///
/// # Errors
/// [`UploadRefusal`]: each reason typed; the partial tree is removed.
pub fn unpack(
    bytes: &[u8],
    lang: &str,
    settings: &BuildSettings,
    dest: &Path,
) -> Result<Unpacked, UploadRefusal> {
    let language =
        Language::from_name(lang).ok_or_else(|| UploadRefusal::UnknownLanguage(lang.into()))?;
    let format = UploadFormat::detect(bytes);
    unpack_tree(
        bytes,
        Some(language),
        Caps::upload(settings),
        dest,
        |files, bytes| {
            let program = program(language, dest)?;
            let source = pack_dir(dest).map_err(|e| UploadRefusal::Io(e.to_string()))?;
            Ok(Unpacked {
                format,
                files,
                bytes,
                run_command: language.recipe().run_command(&program),
                program,
                sha256: crate::artifacts::sha256_hex(&source),
                source,
            })
        },
    )
}

/// Unpacks `bytes` into `dest` (made if missing; it must be empty) under `caps`: one file
/// (named for `language`'s recipe) or an archive; a tree whose top holds one directory only is
/// that directory's contents. Then `then` is given its count of entries and bytes.
///
/// # Errors
/// [`UploadRefusal`], from the unpacking or from `then`: the tree made is removed (a `dest`
/// that was not empty is refused and left as it was).
pub(crate) fn unpack_tree<T>(
    bytes: &[u8],
    language: Option<Language>,
    caps: Caps,
    dest: &Path,
    then: impl FnOnce(u64, u64) -> Result<T, UploadRefusal>,
) -> Result<T, UploadRefusal> {
    if bytes.len() as u64 > caps.packed_bytes {
        return Err(UploadRefusal::TooBig {
            bytes: bytes.len() as u64,
            cap: caps.packed_bytes,
        });
    }
    let tree = Tree::create(dest, caps)?;
    let result = fill(bytes, language, tree, dest).and_then(|(files, bytes)| then(files, bytes));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(dest);
    }
    result
}

/// Writes the entries of `bytes` into `tree` (at `dest`); its count of entries and bytes.
fn fill(
    bytes: &[u8],
    language: Option<Language>,
    mut tree: Tree,
    dest: &Path,
) -> Result<(u64, u64), UploadRefusal> {
    let format = UploadFormat::detect(bytes);
    // An upload's names, or a built artifact's.
    let names = match language {
        Some(_) => names::NameSet::Upload,
        None => names::NameSet::Artifact,
    };
    match (format, language) {
        (UploadFormat::File, Some(language)) if one_file_suffices(language) => {
            let main = language.recipe().main;
            tree.file(&[main.to_string()], &mut &bytes[..], false, format.name())?;
        }
        (UploadFormat::File, Some(language)) => {
            let recipe = language.recipe();
            return Err(UploadRefusal::WrongLanguage {
                lang: language.name().into(),
                needs: format!(
                    "a {} bot is an archive: {}",
                    language.name(),
                    needs(language, &recipe)
                ),
            });
        }
        (UploadFormat::File | UploadFormat::Zip, None) => {
            return Err(UploadRefusal::Corrupt {
                format: "tar.gz".into(),
                error: "an artifact is a .tar.gz".into(),
            });
        }
        (UploadFormat::Tar, _) => archive::read_tar(bytes, format, names, &mut tree)?,
        (UploadFormat::TarGz, _) => archive::read_tar(
            flate2::read::GzDecoder::new(bytes),
            format,
            names,
            &mut tree,
        )?,
        (UploadFormat::Zip, Some(_)) => archive::read_zip(bytes, &mut tree)?,
    }
    if language.is_some() {
        lift_single_dir(dest)?;
    }
    Ok((tree.count(), tree.bytes()))
}

/// Whether a bot in `language` can be one file (its recipe's main file): not a Rust crate, nor
/// a bot whose build names several sources (Java's `Bot.java Json.java`).
fn one_file_suffices(language: Language) -> bool {
    let recipe = language.recipe();
    language != Language::Rust && program::named_by_build(&recipe).len() <= 1
}

/// Moves the contents of the one directory at the top of `dest`, when there is nothing else
/// there (`tar czf bot.tgz mybot/`), up to the top.
fn lift_single_dir(dest: &Path) -> Result<(), UploadRefusal> {
    let io = |e: std::io::Error| UploadRefusal::Io(e.to_string());
    let top: Vec<_> = std::fs::read_dir(dest)
        .map_err(io)?
        .collect::<Result<_, _>>()
        .map_err(io)?;
    let [only] = top.as_slice() else {
        return Ok(());
    };
    if !only.file_type().map_err(io)?.is_dir() {
        return Ok(());
    }
    // A name outside the safe set, so that no entry of the upload can have it.
    let aside = dest.join("#lifted");
    std::fs::rename(only.path(), &aside).map_err(io)?;
    for entry in std::fs::read_dir(&aside).map_err(io)? {
        let entry = entry.map_err(io)?;
        std::fs::rename(entry.path(), dest.join(entry.file_name())).map_err(io)?;
    }
    std::fs::remove_dir(&aside).map_err(io)
}

#[cfg(test)]
pub(crate) mod test_archives;
#[cfg(test)]
mod tests;
