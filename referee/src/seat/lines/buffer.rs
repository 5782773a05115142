//! The bytes read from a bot's output, split into pieces: lines that are not blank, blank lines
//! skipped in bulk and counted (with their alarm), and lines over the cap cut. No I/O: the
//! reader ([`LineReader`](super::LineReader)) reads into it.

use bytes::{Buf, Bytes, BytesMut};

/// How many bytes of an over-long line are kept to show what it was.
const OVERLONG_HEAD: usize = 200;

/// What the reader found next.
#[derive(Debug)]
pub(crate) enum Piece {
    /// A line that is not blank, without its newline.
    Line(Bytes),
    /// More blank lines than the armed allowance ([`LineReader::watch_blank`]); said once.
    ///
    /// [`LineReader::watch_blank`]: super::LineReader::watch_blank
    Blanks,
    /// A line over the cap; the rest of it is skipped. Its beginning is kept
    /// ([`LineReader::take_overlong_head`]).
    ///
    /// [`LineReader::take_overlong_head`]: super::LineReader::take_overlong_head
    TooLong,
}

/// The bytes read and not yet taken as pieces, and what is known of them.
pub(super) struct LineBuffer {
    buf: BytesMut,
    /// The longest line accepted, in bytes, without its newline.
    max: usize,
    /// How many bytes at the front of `buf`, the start of a line, are known to hold no newline.
    scanned: usize,
    /// Whether the rest of a line over the cap is being skipped.
    discarding: bool,
    /// Blank lines skipped since the alarm was last armed.
    blank: u64,
    /// The allowance of blank lines, while the alarm is armed.
    blank_alarm: Option<u64>,
    /// The beginning of the last line over the cap, until it is taken.
    overlong_head: Option<Vec<u8>>,
}

impl LineBuffer {
    /// An empty buffer of lines of at most `max` bytes.
    pub fn new(max: usize) -> Self {
        LineBuffer {
            buf: BytesMut::new(),
            max,
            scanned: 0,
            discarding: false,
            blank: 0,
            blank_alarm: None,
            overlong_head: None,
        }
    }

    /// Arms the blank-line alarm with `allowance` (counting from now), or disarms it (`None`).
    pub fn watch_blank(&mut self, allowance: Option<u64>) {
        self.blank = 0;
        self.blank_alarm = allowance;
    }

    /// The beginning of the last line over the cap, once.
    pub fn take_overlong_head(&mut self) -> Option<Vec<u8>> {
        self.overlong_head.take()
    }

    /// Whether every byte read has been taken.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Whether a line has begun but not ended: something other than blanks is in hand after
    /// the last complete line.
    pub fn has_partial_line(&self) -> bool {
        !self.discarding && self.buf.iter().any(|b| !b.is_ascii_whitespace())
    }

    /// The line begun and not ended, without the white space before it: empty when none is.
    pub fn partial_line(&self) -> &[u8] {
        if self.discarding {
            return &[];
        }
        self.buf.trim_ascii_start()
    }

    /// Blank lines skipped since the alarm was last armed.
    #[cfg(test)]
    pub fn blank(&self) -> u64 {
        self.blank
    }

    /// Up to `most` bytes of the buffer's spare capacity, to read into.
    pub fn spare(&mut self, most: usize) -> &mut [u8] {
        self.buf.reserve(most);
        let spare = self.buf.spare_capacity_mut();
        let len = spare.len().min(most);
        // SAFETY: the bytes are only read into, then exposed up to what was read
        // ([`LineBuffer::filled`]).
        unsafe { std::slice::from_raw_parts_mut(spare.as_mut_ptr().cast(), len) }
    }

    /// Takes `n` bytes that a read wrote into the buffer's spare capacity.
    ///
    /// # Safety
    /// The `n` bytes after the buffer's length must have been written.
    pub unsafe fn filled(&mut self, n: usize) {
        // SAFETY: the caller's promise.
        unsafe { self.buf.set_len(self.buf.len() + n) };
    }

    /// The next piece in the buffer, if a whole one is there.
    pub fn decode(&mut self) -> Option<Piece> {
        loop {
            if self.discarding {
                match self.buf.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        self.buf.advance(i + 1);
                        self.discarding = false;
                    }
                    None => {
                        self.buf.clear();
                        return None;
                    }
                }
            }
            if self.scanned == 0 {
                self.skip_blank_lines();
            }
            if self.alarm_rings() {
                return Some(Piece::Blanks);
            }
            let end = self.buf.len().min(self.max.saturating_add(1));
            match self.buf[self.scanned..end].iter().position(|&b| b == b'\n') {
                Some(i) => {
                    let at = self.scanned + i;
                    self.scanned = 0;
                    let mut line = self.buf.split_to(at + 1);
                    line.truncate(at);
                    if line.trim_ascii().is_empty() {
                        // Begun before the blanks after it came: blank all the same.
                        self.blank += 1;
                        continue;
                    }
                    return Some(Piece::Line(line.freeze()));
                }
                None if self.buf.len() > self.max => {
                    let head = &self.buf[..self.buf.len().min(OVERLONG_HEAD)];
                    self.overlong_head = Some(head.to_vec());
                    self.discarding = true;
                    self.scanned = 0;
                    return Some(Piece::TooLong);
                }
                None => {
                    self.scanned = end;
                    return None;
                }
            }
        }
    }

    /// Skips the blank lines at the front of the buffer in one pass, counting them: up to the
    /// last newline before the first byte that is not white space.
    fn skip_blank_lines(&mut self) {
        let run = self
            .buf
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(self.buf.len());
        if let Some(last) = self.buf[..run].iter().rposition(|&b| b == b'\n') {
            self.blank += self.buf[..=last].iter().filter(|&&b| b == b'\n').count() as u64;
            self.buf.advance(last + 1);
        }
    }

    /// Whether the blank-line alarm goes off now (it then disarms).
    fn alarm_rings(&mut self) -> bool {
        match self.blank_alarm {
            Some(allowance) if self.blank > allowance => {
                self.blank_alarm = None;
                true
            }
            _ => false,
        }
    }

    /// At the end of the stream: the last line, when it has no newline and is not blank.
    pub fn finish(&mut self) -> Option<Piece> {
        if self.alarm_rings() {
            return Some(Piece::Blanks);
        }
        let rest = self.buf.split();
        self.scanned = 0;
        if std::mem::take(&mut self.discarding) || rest.trim_ascii().is_empty() {
            return None;
        }
        Some(Piece::Line(rest.freeze()))
    }
}
