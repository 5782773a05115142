//! Draining a bot's standard error: always read (so the bot never blocks on a full pipe), never
//! kept whole in memory. The last [`TAIL_BYTES`] are kept for fault reports, and a count of the
//! bytes that came since the last [take](StderrTail::take_recent), so that the match log can
//! give each decision what the bot wrote during it (its end, at most [`RECENT_BYTES`]) at no
//! cost beyond a counter; optionally the first `cap` bytes go to a file, whose position is kept
//! for the ranges of each match ([`StderrCount`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

/// How much of the end of a bot's stderr is kept in memory.
pub const TAIL_BYTES: usize = 4096;

/// The most bytes of what a bot wrote since the last take that a take gives (the end kept).
pub const RECENT_BYTES: usize = 2048;

const _: () = assert!(
    RECENT_BYTES <= TAIL_BYTES,
    "the recent bytes come from the tail"
);

/// What a bot wrote to its stderr since the last take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecentStderr {
    /// Its end, lossily decoded: whole lines when it had to be cut and the kept bytes hold a
    /// line's end, at most [`RECENT_BYTES`] bytes.
    pub text: String,
    /// The bytes left out before `text`.
    pub cut: u64,
}

/// The end of a bot's stderr, shared with the task draining it.
#[derive(Clone, Default)]
pub struct StderrTail(Arc<Mutex<Kept>>);

#[derive(Default)]
struct Kept {
    /// The last [`TAIL_BYTES`] bytes.
    tail: Vec<u8>,
    /// Bytes that came since the last take.
    since: u64,
}

impl StderrTail {
    /// The kept end, lossily decoded.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("stderr tail lock").tail).into_owned()
    }

    /// What came since the last take (`None` if nothing did), and starts counting again.
    pub fn take_recent(&self) -> Option<RecentStderr> {
        let mut kept = self.0.lock().expect("stderr tail lock");
        let since = std::mem::take(&mut kept.since);
        if since == 0 {
            return None;
        }
        let tail = &kept.tail;
        let window = (since.min(RECENT_BYTES as u64) as usize).min(tail.len());
        let mut start = tail.len() - window;
        if (since as usize) > window && start > 0 && tail[start - 1] != b'\n' {
            // Cut inside a line: start at the next line, if a whole line follows.
            if let Some(nl) = tail[start..tail.len() - 1].iter().position(|&b| b == b'\n') {
                start += nl + 1;
            }
        }
        // Never start inside a character.
        while start < tail.len() && (tail[start] & 0xC0) == 0x80 {
            start += 1;
        }
        let text = String::from_utf8_lossy(&tail[start..]).into_owned();
        Some(RecentStderr {
            cut: since - (tail.len() - start) as u64,
            text,
        })
    }

    /// Appends what the bot wrote.
    pub(super) fn push(&self, bytes: &[u8]) {
        let mut kept = self.0.lock().expect("stderr tail lock");
        kept.since += bytes.len() as u64;
        let tail = &mut kept.tail;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn taken(pushes: &[&[u8]]) -> Option<RecentStderr> {
        let tail = StderrTail::default();
        for bytes in pushes {
            tail.push(bytes);
        }
        tail.take_recent()
    }

    #[test]
    fn nothing_written_is_nothing_taken_and_a_take_starts_afresh() {
        assert_eq!(taken(&[]), None);
        let tail = StderrTail::default();
        tail.push(b"one\n");
        tail.push(b"two\n");
        let first = tail.take_recent().unwrap();
        assert_eq!((first.text.as_str(), first.cut), ("one\ntwo\n", 0));
        assert_eq!(tail.take_recent(), None);
        tail.push(b"three\n");
        assert_eq!(tail.take_recent().unwrap().text, "three\n");
        assert_eq!(tail.text(), "one\ntwo\nthree\n", "the tail keeps it all");
    }

    #[test]
    fn a_flood_keeps_its_last_whole_lines_and_counts_the_rest() {
        // 100 lines of 100 bytes: the last 2048 bytes begin inside a line, which is left out.
        let lines: Vec<Vec<u8>> = (0..100)
            .map(|i| format!("{:<99}\n", format!("line {i}")).into_bytes())
            .collect();
        let pushes: Vec<&[u8]> = lines.iter().map(Vec::as_slice).collect();
        let recent = taken(&pushes).unwrap();
        assert_eq!(recent.text.len(), 2000, "20 whole lines");
        assert!(recent.text.starts_with("line 80 "), "{}", recent.text);
        assert!(recent.text.ends_with('\n'));
        assert_eq!(recent.cut, 10_000 - 2000);
    }

    #[test]
    fn one_long_line_keeps_its_end_and_never_starts_inside_a_character() {
        let long = "é".repeat(3000); // 6000 bytes, no newline
        let recent = taken(&[long.as_bytes()]).unwrap();
        assert_eq!(recent.text, "é".repeat(1024));
        assert_eq!(recent.cut, 6000 - 2048);
        // One byte more: the window's first byte is the second of a character, which is skipped.
        let odd = format!("{long}x");
        let recent = taken(&[odd.as_bytes()]).unwrap();
        assert_eq!(recent.text, format!("{}x", "é".repeat(1023)));
        assert_eq!(recent.cut, 6001 - 2047);
    }
}
