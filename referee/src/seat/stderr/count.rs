//! How much of a bot's stderr the drain has taken: read from the pipe, and written to the file.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// How much of a bot's stderr the drain has taken, shared with the task draining it: the bytes
/// read from the pipe, and the position in the file they go to (the file's length when it was
/// opened — files are appended to — plus what was written or is being written).
///
/// Both are counted as soon as a read returns, in the same poll of the drain: on a
/// one-thread runtime, whoever sees the pipe empty sees every byte that was in it counted. (The
/// one byte read past a spent budget is counted read at once, and in the file's position once
/// a window lets it be taken.)
#[derive(Clone, Debug, Default)]
pub struct StderrCount {
    read: Arc<AtomicU64>,
    position: Arc<AtomicU64>,
}

impl StderrCount {
    /// A count for a file `length` bytes long.
    pub fn at(length: u64) -> Self {
        let count = StderrCount::default();
        count.position.store(length, Ordering::Relaxed);
        count
    }

    /// Bytes read from the pipe so far.
    pub fn read(&self) -> u64 {
        self.read.load(Ordering::Relaxed)
    }

    /// The file's position after what was read so far.
    pub fn position(&self) -> u64 {
        self.position.load(Ordering::Relaxed)
    }

    /// Counts `n` bytes read from the pipe.
    pub(super) fn add_read(&self, n: u64) {
        self.read.fetch_add(n, Ordering::Relaxed);
    }

    /// Moves the file's position on by `n` bytes, written or about to be.
    pub(super) fn advance(&self, n: u64) {
        self.position.fetch_add(n, Ordering::Relaxed);
    }
}
