//! Why a results directory cannot be used.

use super::files::META_FILE;
use crate::safe_fs::FileError;
use std::io;
use std::path::{Path, PathBuf};

/// A results directory that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// An I/O failure.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// A file of the directory that cannot be opened or read as the referee needs it (a
    /// link, a FIFO, too big, …).
    #[error(transparent)]
    File(#[from] FileError),
    /// A line that is not a match result (other than a half-written last line), or holds a
    /// number out of its bounds.
    #[error("{path}, line {line}: not a match result ({message})")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The parse error.
        message: String,
    },
    /// Results exist and `--resume` was not given.
    #[error("{0} already holds results: add --resume to continue them, or choose another --out")]
    Exists(PathBuf),
    /// Another referee is writing to the directory.
    #[error("{0} is in use by another referee (a tournament or merge writing there now)")]
    Locked(PathBuf),
    /// The directory holds another tournament.
    #[error("{dir} holds a different tournament ({what} differs); use another --out")]
    Different {
        /// The directory.
        dir: PathBuf,
        /// Which setting differs.
        what: String,
    },
    /// No tournament in the directory.
    #[error("{0} holds no tournament ({META_FILE} is missing)")]
    Missing(PathBuf),
    /// The identity file cannot be read.
    #[error(
        "{path}: not a tournament description this referee can read ({message}); it may come from an older version: use another --out"
    )]
    BadMeta {
        /// The file.
        path: PathBuf,
        /// The parse error.
        message: String,
    },
    /// The identity file names a setting by the key an older referee used.
    #[error(
        "{path}: the key `{old}` is now `{new}` (the schedule, not the leaderboard's output format); this directory was written by an older referee: rename the key in the file to resume or merge it"
    )]
    RenamedKey {
        /// The file.
        path: PathBuf,
        /// The old key.
        old: &'static str,
        /// The key that replaced it.
        new: &'static str,
    },
    /// A field of the identity file out of its bounds
    /// ([`check_meta`](super::bounds::check_meta)).
    #[error("{path}: {field}: {message}")]
    Field {
        /// The file.
        path: PathBuf,
        /// The field (`nava`, `bots[3].name`).
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// A file of the directory that holds something else than it should.
    #[error("{path}: cannot be read ({message})")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The parse error.
        message: String,
    },
    /// A result that does not belong to the tournament (a bot it does not have, wrong lengths).
    #[error("{path}, line {line}: match {id} does not belong to this tournament ({message})")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The match id.
        id: u64,
        /// What is wrong.
        message: String,
    },
}

/// A mapper of an I/O failure on `path` to [`ResultsError::Io`].
pub(crate) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> ResultsError + '_ {
    move |source| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    }
}
