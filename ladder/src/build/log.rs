//! A build's log, capped: its first [`HEAD_BYTES`] and its last [`TAIL_BYTES`], with the count
//! of what was left out between them (a compiler's first error is at the top, the reason it
//! stopped at the bottom).

use std::collections::VecDeque;

/// Bytes kept from the start of a log.
pub const HEAD_BYTES: usize = 64 << 10;
/// Bytes kept from the end of a log.
pub const TAIL_BYTES: usize = 192 << 10;

/// A log being read, capped.
#[derive(Debug, Default)]
pub struct CappedLog {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    dropped: u64,
}

impl CappedLog {
    /// Adds `bytes` read from the build.
    pub fn push(&mut self, mut bytes: &[u8]) {
        let room = HEAD_BYTES - self.head.len();
        let into_head = room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..into_head]);
        bytes = &bytes[into_head..];
        self.tail.extend(bytes);
        let over = self.tail.len().saturating_sub(TAIL_BYTES);
        if over > 0 {
            self.tail.drain(..over);
            self.dropped += over as u64;
        }
    }

    /// The log as text (invalid UTF-8 replaced), with a line where bytes were left out.
    pub fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if self.dropped > 0 {
            text.push_str(&format!(
                "\n[… {} bytes of the build's output not kept …]\n",
                self.dropped
            ));
        }
        let (a, b) = self.tail.as_slices();
        text.push_str(&String::from_utf8_lossy(&[a, b].concat()));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_log_keeps_its_head_and_tail_and_says_what_it_left_out() {
        let mut log = CappedLog::default();
        log.push(b"first error\n");
        for _ in 0..100_000 {
            log.push(b"noise noise noise\n");
        }
        log.push(b"last line\n");
        let text = log.text();
        assert!(text.starts_with("first error\n"));
        assert!(text.ends_with("last line\n"));
        assert!(text.contains("bytes of the build's output not kept"));
        assert!(text.len() < HEAD_BYTES + TAIL_BYTES + 200);
    }
}
