//! [`StderrFile`]: where a bot process's stderr is saved, a file of a directory the referee
//! does not trust (a results directory's `stderr/`, a `--stderr-dir`).

use crate::safe_fs::SafeDir;
use std::sync::Arc;

/// Where a bot process's stderr is saved: the file `name` of a directory the referee opened,
/// appended to and never reached through a link ([`SafeDir::open_append`]); a file that cannot
/// be opened so is not written (the stderr is drained all the same).
#[derive(Clone, Debug)]
pub struct StderrFile {
    /// The directory.
    pub dir: Arc<SafeDir>,
    /// The file's name in it.
    pub name: String,
}

impl StderrFile {
    /// `NAME.stderr` in `dir`, for bot `NAME` (one process per bot: `referee match`, `rerun`).
    pub fn of_bot(dir: &Arc<SafeDir>, bot: &str) -> Self {
        StderrFile {
            dir: dir.clone(),
            name: format!("{bot}.stderr"),
        }
    }
}
