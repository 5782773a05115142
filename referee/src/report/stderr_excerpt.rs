//! A match's part of a bot's stderr file, read back from the byte range `matches.jsonl`
//! records for it ([`StderrRange`]), its end kept when it is long.

use crate::tournament::results::StderrRange;
use serde::Serialize;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The most bytes of one match's stderr an excerpt keeps (its end).
pub const EXCERPT_BYTES: u64 = 4096;

/// What a bot wrote to stderr during one match, or its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StderrExcerpt {
    /// The file, in the results directory's `stderr/`.
    pub file: String,
    /// The range of the file that is the match's.
    pub from: u64,
    /// The byte after it.
    pub to: u64,
    /// The text (lossily decoded), from the start of a line.
    pub text: String,
    /// Bytes of the range left out before the text.
    pub cut: u64,
}

/// The excerpt of `range` from the directory `stderr_dir`: at most [`EXCERPT_BYTES`] from the
/// range's end, beginning after a line break where it is cut. `None` when the file cannot be
/// read, or its name is not a plain file name of that directory.
pub fn excerpt(stderr_dir: &Path, range: &StderrRange) -> Option<StderrExcerpt> {
    let plain = !range.file.is_empty()
        && !range.file.contains('/')
        && range.file != "."
        && range.file != "..";
    if !plain || range.to < range.from {
        return None;
    }
    let start = range.from.max(range.to.saturating_sub(EXCERPT_BYTES));
    let mut file = std::fs::File::open(stderr_dir.join(&range.file)).ok()?;
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    file.take(range.to - start).read_to_end(&mut bytes).ok()?;
    let mut cut = start - range.from;
    if cut > 0
        && let Some(newline) = bytes.iter().position(|&b| b == b'\n')
    {
        bytes.drain(..=newline);
        cut += newline as u64 + 1;
    }
    Some(StderrExcerpt {
        file: range.file.clone(),
        from: range.from,
        to: range.to,
        text: String::from_utf8_lossy(&bytes).into_owned(),
        cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(file: &str, from: u64, to: u64) -> StderrRange {
        StderrRange {
            file: file.into(),
            from,
            to,
        }
    }

    #[test]
    fn reads_the_range_and_keeps_the_end_of_a_long_one_from_a_line() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let mut text = String::from("match 0\n");
        let first = text.len() as u64;
        for i in 0..1000 {
            text += &format!("match 1 line {i}\n");
        }
        let end = text.len() as u64;
        std::fs::write(dir.join("a.w0.1.stderr"), &text).unwrap();
        let short = excerpt(dir, &range("a.w0.1.stderr", 0, first)).unwrap();
        assert_eq!((short.text.as_str(), short.cut), ("match 0\n", 0));
        let long = excerpt(dir, &range("a.w0.1.stderr", first, end)).unwrap();
        assert!(
            long.text.starts_with("match 1 line "),
            "{}",
            &long.text[..20]
        );
        assert!(long.text.ends_with("match 1 line 999\n"));
        assert!(long.text.len() as u64 <= EXCERPT_BYTES);
        assert_eq!(long.cut + long.text.len() as u64, end - first);
        assert_eq!(excerpt(dir, &range("../a.w0.1.stderr", 0, 1)), None);
        assert_eq!(excerpt(dir, &range("missing", 0, 1)), None);
    }
}
