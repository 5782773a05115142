//! Writing an unpacked tree: every file and directory made beneath the destination's
//! descriptor, one checked name at a time ([`SafeDir`]: no link followed, nothing made outside),
//! with the caps counted as bytes are actually written.

use super::refusal::{UploadRefusal, shown};
use referee::safe_fs::{Privacy, SafeDir};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The caps an unpacking is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// The most bytes the packed form may have.
    pub packed_bytes: u64,
    /// The most bytes all files together may unpack to.
    pub unpacked_bytes: u64,
    /// The most files and directories.
    pub files: u64,
}

/// What each path written is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Made {
    File,
    Dir,
}

/// A tree being written under its root, with what it has taken so far.
pub struct Tree {
    root: SafeDir,
    caps: Caps,
    made: BTreeMap<Vec<String>, Made>,
    bytes: u64,
}

/// A write failure: the platform's, not the upload's.
fn io(e: impl std::fmt::Display) -> UploadRefusal {
    UploadRefusal::Io(e.to_string())
}

/// The size of the chunks files are copied in.
const CHUNK: usize = 64 << 10;

impl Tree {
    /// A tree to write at `dest`, made if missing.
    ///
    /// # Errors
    /// [`UploadRefusal::Io`] when `dest` cannot be made or opened, or is not empty.
    pub fn create(dest: &Path, caps: Caps) -> Result<Tree, UploadRefusal> {
        let root = SafeDir::create(dest, Privacy::Published).map_err(io)?;
        let empty = std::fs::read_dir(dest).map_err(io)?.next().is_none();
        if !empty {
            return Err(io(format!("{} is not empty", dest.display())));
        }
        Ok(Tree {
            root,
            caps,
            made: BTreeMap::new(),
            bytes: 0,
        })
    }

    /// Files and directories made so far.
    pub fn count(&self) -> u64 {
        self.made.len() as u64
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Records `path` as made `kind`, counted against the cap.
    fn record(&mut self, path: &[String], kind: Made) -> Result<bool, UploadRefusal> {
        match self.made.get(path) {
            Some(Made::Dir) if kind == Made::Dir => return Ok(false),
            Some(_) => {
                return Err(UploadRefusal::Duplicate {
                    name: shown(path.join("/").as_bytes()),
                });
            }
            None => {}
        }
        if self.count() >= self.caps.files {
            return Err(UploadRefusal::TooManyFiles {
                cap: self.caps.files,
            });
        }
        self.made.insert(path.to_vec(), kind);
        Ok(true)
    }

    /// The directory `path` (made with those above it where missing), opened; `None` for the
    /// root.
    fn open_dir(&mut self, path: &[String]) -> Result<Option<SafeDir>, UploadRefusal> {
        let mut dir: Option<SafeDir> = None;
        for end in 1..=path.len() {
            self.record(&path[..end], Made::Dir)?;
            let parent = dir.as_ref().unwrap_or(&self.root);
            dir = Some(parent.make_subdir(&path[end - 1]).map_err(io)?);
        }
        Ok(dir)
    }

    /// Makes the directory `path` (and those above it).
    ///
    /// # Errors
    /// The caps and names' refusals; [`UploadRefusal::Io`] when it cannot be made.
    pub fn dir(&mut self, path: &[String]) -> Result<(), UploadRefusal> {
        self.open_dir(path).map(drop)
    }

    /// Writes the file `path` from `data`, executable or not, counting its bytes against the
    /// cap as they are written.
    ///
    /// # Errors
    /// [`UploadRefusal::UnpacksTooBig`] as soon as the cap is passed (the file is left cut
    /// short: the caller removes the tree); a failure to read `data` is
    /// [`UploadRefusal::Corrupt`] in `format`.
    pub fn file(
        &mut self,
        path: &[String],
        data: &mut dyn Read,
        executable: bool,
        format: &str,
    ) -> Result<(), UploadRefusal> {
        let Some((name, parents)) = path.split_last() else {
            return Err(UploadRefusal::BadName {
                name: shown(b""),
                why: "a file with no name".into(),
            });
        };
        let dir = self.open_dir(parents)?;
        self.record(path, Made::File)?;
        let mut file = dir
            .as_ref()
            .unwrap_or(&self.root)
            .create_file(name)
            .map_err(io)?;
        let mut buffer = vec![0; CHUNK];
        loop {
            let n = data.read(&mut buffer).map_err(|e| UploadRefusal::Corrupt {
                format: format.into(),
                error: e.to_string(),
            })?;
            if n == 0 {
                break;
            }
            if self.bytes + n as u64 > self.caps.unpacked_bytes {
                return Err(UploadRefusal::UnpacksTooBig {
                    cap: self.caps.unpacked_bytes,
                    name: shown(path.join("/").as_bytes()),
                });
            }
            file.write_all(&buffer[..n]).map_err(io)?;
            self.bytes += n as u64;
        }
        let mode = if executable { 0o755 } else { 0o644 };
        file.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(io)
    }
}
