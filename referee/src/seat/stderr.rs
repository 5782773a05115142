//! Draining a bot's standard error: always read (so the bot never blocks on a full pipe), never
//! kept whole in memory. The last [`TAIL_BYTES`] are kept for fault reports; optionally the
//! first `cap` bytes go to a file.

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

/// Reads `stream` to its end, keeping the tail and writing up to `cap` bytes to `file`.
pub async fn drain(
    mut stream: impl AsyncRead + Unpin,
    tail: StderrTail,
    mut file: Option<tokio::fs::File>,
    cap: u64,
) {
    let mut buf = vec![0u8; 8192];
    let mut written = 0u64;
    loop {
        let n = match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        tail.push(&buf[..n]);
        if let Some(f) = file.as_mut() {
            let room = cap.saturating_sub(written) as usize;
            let take = room.min(n);
            if take > 0 && f.write_all(&buf[..take]).await.is_ok() {
                written += take as u64;
            }
            if written >= cap {
                let _ = f.write_all(b"\n[referee: stderr capped here]\n").await;
                let _ = f.flush().await;
                file = None;
            }
        }
    }
    if let Some(mut f) = file {
        let _ = f.flush().await;
    }
}
