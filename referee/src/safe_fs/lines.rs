//! [`BoundedLines`]: a file read line by line, each line held to a length, so that what can be
//! big (`matches.jsonl`, a match log) is never read whole and no line costs more than its bound.

use super::error::FileErrorKind;
use std::io::{BufRead, Read};

/// The lines of a reader, each at most `limit` bytes with its newline.
pub struct BoundedLines<R> {
    reader: R,
    limit: usize,
    line: usize,
}

impl<R: BufRead> BoundedLines<R> {
    /// The lines of `reader`, each at most `limit` bytes, its newline included.
    pub fn new(reader: R, limit: usize) -> Self {
        BoundedLines {
            reader,
            limit,
            line: 0,
        }
    }

    /// Reads the next line into `buf` (replacing what it held), with its newline if it has one
    /// (the last line may not); gives its number (from 1), or `None` at the end.
    ///
    /// # Errors
    /// [`FileErrorKind::LineTooLong`] as soon as a line is seen to be longer than the bound
    /// (no more of it is read), or a failure to read.
    pub fn next_into(&mut self, buf: &mut Vec<u8>) -> Result<Option<usize>, FileErrorKind> {
        buf.clear();
        let read = (&mut self.reader)
            .take(self.limit as u64 + 1)
            .read_until(b'\n', buf)?;
        if read == 0 {
            return Ok(None);
        }
        self.line += 1;
        if buf.len() > self.limit {
            buf.clear();
            return Err(FileErrorKind::LineTooLong {
                line: self.line,
                limit: self.limit,
            });
        }
        Ok(Some(self.line))
    }
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = Result<Vec<u8>, FileErrorKind>;

    /// The next line, without its newline.
    fn next(&mut self) -> Option<Self::Item> {
        let mut buf = Vec::new();
        match self.next_into(&mut buf) {
            Ok(Some(_)) => {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                Some(Ok(buf))
            }
            Ok(None) => None,
            Err(e) => Some(Err(e)),
        }
    }
}
