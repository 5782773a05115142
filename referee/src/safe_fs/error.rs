//! Why a file of a directory the referee does not trust, or a file a user named, is refused.

use super::limits::shown;
use crate::seat::users::reach::mode_string;
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
    /// A directory the referee would write privately that another user owns.
    #[error(
        "is owned by uid {owner}, not by the referee's user (uid {user}): {} ({:o}); that user could read and change what the referee writes there: give a new directory, which the referee makes private (700)",
        mode_string(*mode),
        mode & 0o7777
    )]
    NotYours {
        /// The directory's owner.
        owner: u32,
        /// The referee's (effective) user.
        user: u32,
        /// The directory's mode.
        mode: u32,
    },
    /// A directory the referee would write privately that group or other users can write.
    #[error(
        "is {} ({:o}, owner uid {owner}): other users can write it, and could rename or replace what the referee writes there; give a new directory, which the referee makes private (700), or make this one yours alone: chmod go-w {}",
        mode_string(*mode),
        mode & 0o7777,
        dir.display()
    )]
    OthersCanWrite {
        /// The directory, for the command that fixes it.
        dir: PathBuf,
        /// Its mode.
        mode: u32,
        /// Its owner.
        owner: u32,
    },
    /// Any other failure of the system.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<rustix::io::Errno> for FileErrorKind {
    fn from(errno: rustix::io::Errno) -> Self {
        FileErrorKind::Io(errno.into())
    }
}
