//! Why a file of a directory the referee does not trust, or a file a user named, is refused.

use super::limits::shown;
use std::path::{Path, PathBuf};

/// A file that cannot be opened, read or written as the referee needs it: its path and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {kind}", path.display())]
pub struct FileError {
    /// The file (its directory's path as given, joined with its name).
    pub path: PathBuf,
    /// What is wrong.
    pub kind: FileErrorKind,
}

impl FileError {
    /// The error `kind` of `path`.
    pub fn new(path: &Path, kind: FileErrorKind) -> Self {
        FileError {
            path: path.to_path_buf(),
            kind,
        }
    }

    /// Whether nothing is at the path.
    pub fn is_missing(&self) -> bool {
        matches!(self.kind, FileErrorKind::Missing)
    }

    /// Whether the file itself is refused (a link, another type, several names, too big, a
    /// bad name): the caller's input, not a failure of the system.
    pub fn is_refusal(&self) -> bool {
        !matches!(self.kind, FileErrorKind::Io(_))
    }
}

/// What is wrong with a file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileErrorKind {
    /// Nothing is there.
    #[error("no such file")]
    Missing,
    /// A symbolic link, at the name or on the way to it.
    #[error(
        "is a symbolic link: the referee follows no link inside a directory it reads back or writes"
    )]
    Link,
    /// Something else than a regular file where one is needed (or than a directory where a
    /// directory is).
    #[error("is {found}, not {wanted}")]
    WrongType {
        /// What is there: `a FIFO`, `a directory`, ….
        found: &'static str,
        /// What was needed: `a regular file` or `a directory`.
        wanted: &'static str,
    },
    /// A file to write to that has other names too (a hard link to a file elsewhere).
    #[error("has {0} names (hard links): the referee writes only to a file of one name")]
    HardLinked(u64),
    /// A file larger than what the referee reads of its kind.
    #[error("is larger than {}, the most the referee reads of such a file", shown(*limit))]
    TooBig {
        /// The bound, in bytes.
        limit: u64,
    },
    /// A line longer than what the referee reads of one line of its kind.
    #[error(
        "line {line} is longer than {}, the most the referee reads of one line",
        shown(*limit as u64)
    )]
    LineTooLong {
        /// The line, from 1.
        line: usize,
        /// The bound, in bytes, the newline included.
        limit: usize,
    },
    /// A name that is not one plain part of a path.
    #[error("{0:?} is not a file name of the directory (one part: no '/', not '.' or '..')")]
    BadName(String),
    /// Any other failure of the system.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<rustix::io::Errno> for FileErrorKind {
    fn from(errno: rustix::io::Errno) -> Self {
        FileErrorKind::Io(errno.into())
    }
}
