//! How much disk a directory holds: what the workdir quota ([`super::workdir_quota`]) measures.
//!
//! The measure is the space the file system has allocated, `st_blocks × 512`, as `du` counts
//! it: a sparse file counts what it holds, not its length, data still in the page cache counts
//! as soon as it is written (ext4, XFS and btrfs count delayed allocations), and each directory
//! counts its own blocks. The walk never follows a symbolic link (the link counts its own
//! blocks, not its target's), counts a file with several hard links once, and stops at a bound
//! of entries, so that a bot cannot make one look cost the referee more than that bound of
//! `stat` calls. A file or directory that disappears during the walk counts nothing: a bot may
//! delete while it is measured.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The most files and directories a measure looks at; a directory holding more cannot be
/// measured ([`UsageError::TooManyEntries`]).
pub const MAX_ENTRIES: usize = 100_000;

/// What a directory holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiskUsage {
    /// Allocated bytes, the directory's own blocks included.
    pub bytes: u64,
    /// Files, directories and links below it.
    pub entries: usize,
}

/// Why a directory could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// A directory in it (or it) cannot be listed, or an entry cannot be looked at.
    #[error("{} cannot be read: {source}", path.display())]
    Unreadable {
        /// What could not be read.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// It holds more entries than a measure looks at.
    #[error("it holds more than {0} files and directories, more than the referee measures")]
    TooManyEntries(usize),
}

/// The allocated bytes of a file as `stat` reports them.
fn allocated(meta: &fs::Metadata) -> u64 {
    meta.blocks().saturating_mul(512)
}

/// Measures `dir` (followed if it is itself a symbolic link), looking at no more than
/// `max_entries` entries below it. A `dir` that does not exist holds nothing.
///
/// # Errors
/// [`UsageError::Unreadable`] when a directory of it cannot be listed or an entry looked at
/// (other than for having disappeared), [`UsageError::TooManyEntries`] past `max_entries`.
pub fn measure(dir: &Path, max_entries: usize) -> Result<DiskUsage, UsageError> {
    let unreadable = |path: &Path, source: io::Error| UsageError::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    let gone = |e: &io::Error| e.kind() == io::ErrorKind::NotFound;
    let root = match fs::metadata(dir) {
        Ok(meta) => meta,
        Err(e) if gone(&e) => return Ok(DiskUsage::default()),
        Err(e) => return Err(unreadable(dir, e)),
    };
    let mut usage = DiskUsage {
        bytes: allocated(&root),
        entries: 0,
    };
    if !root.is_dir() {
        return Ok(usage);
    }
    let mut linked = HashSet::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let listing = match fs::read_dir(&current) {
            Ok(listing) => listing,
            Err(e) if gone(&e) => continue,
            Err(e) => return Err(unreadable(&current, e)),
        };
        for entry in listing {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) if gone(&e) => continue,
                Err(e) => return Err(unreadable(&current, e)),
            };
            usage.entries += 1;
            if usage.entries > max_entries {
                return Err(UsageError::TooManyEntries(max_entries));
            }
            // `DirEntry::metadata` does not follow a symbolic link.
            let meta = match entry.metadata() {
                Ok(meta) => meta,
                Err(e) if gone(&e) => continue,
                Err(e) => return Err(unreadable(&entry.path(), e)),
            };
            if meta.is_dir() {
                pending.push(entry.path());
            } else if meta.nlink() > 1 && !linked.insert((meta.dev(), meta.ino())) {
                // Another name of a file already counted.
                continue;
            }
            usage.bytes += allocated(&meta);
        }
    }
    Ok(usage)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek, SeekFrom, Write};

    fn write(path: &Path, bytes: usize) {
        fs::write(path, vec![7u8; bytes]).unwrap();
    }

    fn used(dir: &Path) -> u64 {
        measure(dir, MAX_ENTRIES).unwrap().bytes
    }

    #[test]
    fn files_in_nested_directories_count_their_allocated_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let empty = used(dir.path());
        fs::create_dir_all(dir.path().join("a/b")).unwrap();
        write(&dir.path().join("a/one"), 1 << 20);
        write(&dir.path().join("a/b/two"), 2 << 20);
        let usage = measure(dir.path(), MAX_ENTRIES).unwrap();
        assert_eq!(usage.entries, 4);
        // The data, and no more than a few blocks for the directories.
        assert!(usage.bytes >= empty + (3 << 20), "{usage:?}");
        assert!(usage.bytes <= empty + (3 << 20) + (64 << 10), "{usage:?}");
    }

    #[test]
    fn a_sparse_file_counts_what_it_holds_not_its_length() {
        let dir = tempfile::tempdir().unwrap();
        let empty = used(dir.path());
        let mut file = fs::File::create(dir.path().join("sparse")).unwrap();
        file.seek(SeekFrom::Start(1 << 30)).unwrap();
        file.write_all(b"end").unwrap();
        drop(file);
        assert!(used(dir.path()) < empty + (1 << 20), "{}", used(dir.path()));
    }

    #[test]
    fn hard_links_count_once_and_symbolic_links_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        write(&outside.path().join("big"), 4 << 20);
        let inside = dir.path().join("in");
        fs::create_dir(&inside).unwrap();
        write(&inside.join("data"), 1 << 20);
        let alone = used(dir.path());
        for n in 0..5 {
            fs::hard_link(inside.join("data"), dir.path().join(format!("link{n}"))).unwrap();
        }
        std::os::unix::fs::symlink(outside.path(), dir.path().join("to-dir")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("big"), dir.path().join("to-file")).unwrap();
        // A loop: not followed either.
        std::os::unix::fs::symlink(dir.path(), inside.join("loop")).unwrap();
        let usage = measure(dir.path(), MAX_ENTRIES).unwrap();
        assert_eq!(usage.entries, 2 + 5 + 3);
        // The links' own blocks at most (a long target may take one).
        assert!(usage.bytes < alone + (64 << 10), "{usage:?} vs {alone}");
    }

    #[test]
    fn the_walk_stops_at_its_bound_of_entries() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..20 {
            fs::create_dir(dir.path().join(format!("d{n}"))).unwrap();
        }
        assert_eq!(measure(dir.path(), 20).unwrap().entries, 20);
        assert!(matches!(
            measure(dir.path(), 19),
            Err(UsageError::TooManyEntries(19))
        ));
    }

    #[test]
    fn a_missing_directory_holds_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let usage = measure(&dir.path().join("none"), MAX_ENTRIES).unwrap();
        assert_eq!(usage, DiskUsage::default());
    }
}
