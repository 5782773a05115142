//! A tree as a deterministic `.tar.gz`: entries sorted by path, every header the same but for
//! the name, size and type (uid and gid 0, no user or group name, mtime 0, mode 0755 for
//! directories and executables and 0644 for other files), and a gzip header with no name and
//! mtime 0. The same files give the same bytes, and so the same sha256, whatever archive they
//! came in; what compresses them is the gzip encoder of this build (`flate2`, level 6).

use super::names::{NameSet, checked_path};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

/// Why a tree cannot be packed.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// Something in it is not a regular file or a directory (a link, a FIFO, a device).
    #[error("{0} is not a regular file or a directory; an artifact holds only those")]
    NotPlain(String),
    /// A name in it is not one an artifact may hold ([`NameSet::Artifact`]).
    #[error("{0}")]
    BadName(String),
    /// Reading or writing failed.
    #[error("cannot pack {path}: {source}")]
    Io {
        /// What was being read.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> PackError + '_ {
    move |source| PackError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Every entry under `dir`, as (path relative to it, is a directory), sorted by path;
/// nothing is followed.
fn entries(dir: &Path) -> Result<Vec<(String, bool)>, PackError> {
    let mut found = Vec::new();
    let mut pending = vec![String::new()];
    while let Some(relative) = pending.pop() {
        let here = dir.join(&relative);
        for entry in std::fs::read_dir(&here).map_err(io(&here))? {
            let entry = entry.map_err(io(&here))?;
            let name = entry.file_name();
            let name = name.as_encoded_bytes();
            let path = if relative.is_empty() {
                name.to_vec()
            } else {
                [relative.as_bytes(), b"/", name].concat()
            };
            let path = checked_path(&path, NameSet::Artifact)
                .map_err(|refusal| PackError::BadName(refusal.to_string()))?
                .join("/");
            let kind = entry.file_type().map_err(io(&entry.path()))?;
            if kind.is_dir() {
                pending.push(path.clone());
                found.push((path, true));
            } else if kind.is_file() {
                found.push((path, false));
            } else {
                return Err(PackError::NotPlain(path));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The tree at `dir` as a deterministic `.tar.gz` (module documentation).
///
/// # Errors
/// [`PackError`] for a link or a special file in it, or a failure to read it.
pub fn pack_dir(dir: &Path) -> Result<Vec<u8>, PackError> {
    let gz = GzEncoder::new(Vec::new(), Compression::new(6));
    let mut builder = tar::Builder::new(gz);
    for (path, is_dir) in entries(dir)? {
        let full = dir.join(&path);
        let mut header = tar::Header::new_gnu();
        header.set_uid(0);
        header.set_gid(0);
        header.set_mtime(0);
        if is_dir {
            header.set_entry_type(tar::EntryType::Directory);
            header.set_mode(0o755);
            header.set_size(0);
            builder
                .append_data(&mut header, format!("{path}/"), std::io::empty())
                .map_err(io(&full))?;
            continue;
        }
        // Opened without following a link or waiting on a FIFO put there since the walk.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&full)
            .map_err(io(&full))?;
        let meta = file.metadata().map_err(io(&full))?;
        if !meta.is_file() {
            return Err(PackError::NotPlain(path));
        }
        header.set_entry_type(tar::EntryType::Regular);
        header.set_mode(if meta.mode() & 0o111 != 0 {
            0o755
        } else {
            0o644
        });
        header.set_size(meta.len());
        let mut data = file.take(meta.len());
        builder
            .append_data(&mut header, &path, &mut data)
            .map_err(io(&full))?;
    }
    let gz = builder.into_inner().map_err(io(dir))?;
    gz.finish().map_err(io(dir))
}
