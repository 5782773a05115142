//! The end of a bot's stderr, kept in memory: the last [`TAIL_BYTES`] for fault reports, and a
//! count of the bytes that came since the last [take](StderrTail::take_recent), so that the match
//! log can give each decision what the bot wrote during it (its end, at most [`RECENT_BYTES`]) at
//! no cost beyond a counter.

use std::sync::{Arc, Mutex};

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

    /// Appends what the bot wrote: only the end of a long read is copied.
    pub(in crate::seat) fn push(&self, bytes: &[u8]) {
        let mut kept = self.0.lock().expect("stderr tail lock");
        kept.since += bytes.len() as u64;
        let tail = &mut kept.tail;
        if bytes.len() >= TAIL_BYTES {
            tail.clear();
            tail.extend_from_slice(&bytes[bytes.len() - TAIL_BYTES..]);
            return;
        }
        tail.extend_from_slice(bytes);
        if tail.len() > TAIL_BYTES {
            let cut = tail.len() - TAIL_BYTES;
            tail.drain(..cut);
        }
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

    #[test]
    fn a_long_read_keeps_only_the_tails_end() {
        let tail = StderrTail::default();
        tail.push(b"before\n");
        let mut long = vec![b'.'; 100_000];
        long.extend_from_slice(b"\nthe end\n");
        tail.push(&long);
        let text = tail.text();
        assert_eq!(text.len(), TAIL_BYTES);
        assert!(text.ends_with(".\nthe end\n"));
        let recent = tail.take_recent().unwrap();
        assert_eq!(recent.text, "the end\n");
        assert_eq!(recent.cut, 7 + 100_001);
    }
}
