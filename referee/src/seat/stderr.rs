//! Draining a bot's standard error: always read (so the bot never blocks on a full pipe), never
//! kept whole in memory. The last [`TAIL_BYTES`] are kept for fault reports; optionally the
//! first `cap` bytes go to a file, whose position is kept for the spans of each match
//! ([`StderrCount`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

/// How much of the end of a bot's stderr is kept in memory.
pub const TAIL_BYTES: usize = 4096;

/// The end of a bot's stderr, shared with the task draining it.
#[derive(Clone, Default)]
pub struct StderrTail(Arc<Mutex<Vec<u8>>>);

impl StderrTail {
    /// The kept end, lossily decoded.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("stderr tail lock")).into_owned()
    }

    fn push(&self, bytes: &[u8]) {
        let mut tail = self.0.lock().expect("stderr tail lock");
        tail.extend_from_slice(bytes);
        if tail.len() > TAIL_BYTES {
            let cut = tail.len() - TAIL_BYTES;
            tail.drain(..cut);
        }
    }
}

/// How much of a bot's stderr the drain has taken, shared with the task draining it: the bytes
/// read from the pipe, and the position in the file they go to (the file's length when it was
/// opened — files are appended to — plus what was written or is being written).
///
/// Both are counted as soon as a read returns, in the same poll of the drain: on a
/// one-thread runtime, whoever sees the pipe empty sees every byte that was in it counted.
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
}

/// The line written to a stderr file where its cap cuts it.
const CAPPED: &[u8] = b"\n[referee: stderr capped here]\n";

/// Reads `stream` to its end, keeping the tail and writing up to `cap` bytes to `file`, counted
/// in `count`.
pub async fn drain(
    mut stream: impl AsyncRead + Unpin,
    tail: StderrTail,
    mut file: Option<tokio::fs::File>,
    cap: u64,
    count: StderrCount,
) {
    let mut buf = vec![0u8; 8192];
    let mut written = 0u64;
    loop {
        let n = match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        count.read.fetch_add(n as u64, Ordering::Relaxed);
        tail.push(&buf[..n]);
        if let Some(f) = file.as_mut() {
            let room = cap.saturating_sub(written) as usize;
            let take = room.min(n);
            let capped = written + take as u64 >= cap;
            let added = take as u64 + if capped { CAPPED.len() as u64 } else { 0 };
            count.position.fetch_add(added, Ordering::Relaxed);
            if take > 0 {
                // Counted written whatever becomes of it, as the position was.
                let _ = f.write_all(&buf[..take]).await;
                written += take as u64;
            }
            if capped {
                let _ = f.write_all(CAPPED).await;
                let _ = f.flush().await;
                file = None;
            }
        }
    }
    if let Some(mut f) = file {
        let _ = f.flush().await;
    }
}
