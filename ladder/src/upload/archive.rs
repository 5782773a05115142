//! Reading an upload's entries, whatever its format, into a [`Tree`]: each entry's type and
//! name checked before a byte of it is written.

use super::names::{NameSet, checked_path};
use super::refusal::{UploadRefusal, shown};
use super::tree::Tree;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::io::{Cursor, Read};
use tar::EntryType;

/// What an upload was sent as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UploadFormat {
    /// One file: the language's main file.
    File,
    /// A tar archive.
    Tar,
    /// A gzip-compressed tar archive.
    TarGz,
    /// A zip archive (stored or deflated entries).
    Zip,
}

impl UploadFormat {
    /// The format `bytes` are in, from their first bytes: gzip's magic number, a zip's local
    /// header (or an empty zip's end record), `ustar` at offset 257; anything else is one file.
    pub fn detect(bytes: &[u8]) -> UploadFormat {
        if bytes.starts_with(&[0x1f, 0x8b]) {
            UploadFormat::TarGz
        } else if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
            UploadFormat::Zip
        } else if bytes.get(257..262) == Some(b"ustar") {
            UploadFormat::Tar
        } else {
            UploadFormat::File
        }
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            UploadFormat::File => "file",
            UploadFormat::Tar => "tar",
            UploadFormat::TarGz => "tar.gz",
            UploadFormat::Zip => "zip",
        }
    }
}

/// A reader's error, as the archive's fault.
fn corrupt(format: UploadFormat) -> impl Fn(std::io::Error) -> UploadRefusal {
    move |e| UploadRefusal::Corrupt {
        format: format.name().into(),
        error: e.to_string(),
    }
}

/// Writes the entries of the tar archive read from `data` (gzip-compressed for
/// [`UploadFormat::TarGz`]) into `tree`, their names checked against `names`.
///
/// # Errors
/// The first entry refused, or the archive's corruption.
pub fn read_tar(
    data: impl Read,
    format: UploadFormat,
    names: NameSet,
    tree: &mut Tree,
) -> Result<(), UploadRefusal> {
    let mut archive = tar::Archive::new(data);
    let entries = archive.entries().map_err(corrupt(format))?;
    for entry in entries {
        let mut entry = entry.map_err(corrupt(format))?;
        let raw = entry.path_bytes().into_owned();
        let kind = entry.header().entry_type();
        let name = || shown(&raw);
        match kind {
            // `git archive`'s comment: no file.
            EntryType::XGlobalHeader => continue,
            EntryType::Symlink | EntryType::Link => {
                return Err(UploadRefusal::Link { name: name() });
            }
            EntryType::Regular | EntryType::Continuous | EntryType::Directory => {}
            other => {
                return Err(UploadRefusal::Special {
                    name: name(),
                    kind: special(other).into(),
                });
            }
        }
        let path = checked_path(&raw, names)?;
        if kind == EntryType::Directory || path.is_empty() {
            tree.dir(&path)?;
        } else {
            let executable = entry.header().mode().is_ok_and(|m| m & 0o111 != 0);
            tree.file(&path, &mut entry, executable, format.name())?;
        }
    }
    Ok(())
}

/// What a special tar entry is, in words.
fn special(kind: EntryType) -> &'static str {
    match kind {
        EntryType::Char => "a character device",
        EntryType::Block => "a block device",
        EntryType::Fifo => "a FIFO",
        _ => "a special entry",
    }
}

/// The file type bits of a Unix mode.
const TYPE_BITS: u32 = 0o170000;

/// Writes the entries of the zip archive `bytes` into `tree`.
///
/// # Errors
/// The first entry refused, or the archive's corruption (an encrypted entry among them).
pub fn read_zip(bytes: &[u8], tree: &mut Tree) -> Result<(), UploadRefusal> {
    let format = UploadFormat::Zip;
    let broken = |e: zip::result::ZipError| UploadRefusal::Corrupt {
        format: format.name().into(),
        error: e.to_string(),
    };
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(broken)?;
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).map_err(broken)?;
        let raw = entry.name_raw().to_vec();
        let mode = entry.unix_mode().unwrap_or(0);
        let kind = mode & TYPE_BITS;
        if entry.is_symlink() || kind == 0o120000 {
            return Err(UploadRefusal::Link { name: shown(&raw) });
        }
        if kind != 0 && kind != 0o100000 && kind != 0o040000 {
            return Err(UploadRefusal::Special {
                name: shown(&raw),
                kind: format!("a special file (mode {mode:o})"),
            });
        }
        let path = checked_path(&raw, NameSet::Upload)?;
        if entry.is_dir() || kind == 0o040000 || path.is_empty() {
            tree.dir(&path)?;
        } else {
            tree.file(&path, &mut entry, mode & 0o111 != 0, format.name())?;
        }
    }
    Ok(())
}
