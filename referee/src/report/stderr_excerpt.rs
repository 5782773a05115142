//! A match's part of a bot's stderr file, read back from the byte range `matches.jsonl`
//! records for it ([`StderrRange`]), its end kept when it is long. The file is opened beneath
//! the results directory's `stderr/` ([`SafeDir`]): a link, a FIFO or a range beyond the file's
//! end is not read, and says why.

use crate::safe_fs::{FileError, SafeDir};
use crate::tournament::results::StderrRange;
use serde::Serialize;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

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

/// Why a match's stderr is not read.
#[derive(Debug, thiserror::Error)]
pub enum ExcerptError {
    /// The file is not a regular file of `stderr/`, or cannot be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// The range ends after the file does.
    #[error("{}: the range ends at byte {to}, after the file's end ({size} bytes)", path.display())]
    Beyond {
        /// The file.
        path: PathBuf,
        /// The range's end.
        to: u64,
        /// The file's size.
        size: u64,
    },
}

/// The excerpt of `range` from `stderr_dir` (a results directory's `stderr/`): at most
/// [`EXCERPT_BYTES`] from the range's end, beginning after a line break where it is cut.
/// `None` when the file is not there.
///
/// # Errors
/// [`ExcerptError`] for a file that is not a regular file of the directory (a link, a FIFO, a
/// name that is not plain) or a range beyond its end.
pub fn excerpt(
    stderr_dir: &SafeDir,
    range: &StderrRange,
) -> Result<Option<StderrExcerpt>, ExcerptError> {
    let Some(mut file) = stderr_dir.open_read(&range.file)? else {
        return Ok(None);
    };
    let path = stderr_dir.path_of(&range.file);
    let io = |e: std::io::Error| FileError::new(&path, e.into());
    let size = file.metadata().map_err(io)?.len();
    if range.to > size || range.from > range.to {
        return Err(ExcerptError::Beyond {
            path,
            to: range.to,
            size,
        });
    }
    let start = range.from.max(range.to.saturating_sub(EXCERPT_BYTES));
    file.seek(SeekFrom::Start(start)).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(range.to - start)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let mut cut = start - range.from;
    if cut > 0
        && let Some(newline) = bytes.iter().position(|&b| b == b'\n')
    {
        bytes.drain(..=newline);
        cut += newline as u64 + 1;
    }
    Ok(Some(StderrExcerpt {
        file: range.file.clone(),
        from: range.from,
        to: range.to,
        text: String::from_utf8_lossy(&bytes).into_owned(),
        cut,
    }))
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
        let safe = SafeDir::open(dir).unwrap();
        let excerpt = |range: &StderrRange| excerpt(&safe, range).map_err(|e| e.to_string());
        let mut text = String::from("match 0\n");
        let first = text.len() as u64;
        for i in 0..1000 {
            text += &format!("match 1 line {i}\n");
        }
        let end = text.len() as u64;
        std::fs::write(dir.join("a.w0.1.stderr"), &text).unwrap();
        let short = excerpt(&range("a.w0.1.stderr", 0, first)).unwrap().unwrap();
        assert_eq!((short.text.as_str(), short.cut), ("match 0\n", 0));
        let long = excerpt(&range("a.w0.1.stderr", first, end))
            .unwrap()
            .unwrap();
        assert!(
            long.text.starts_with("match 1 line "),
            "{}",
            &long.text[..20]
        );
        assert!(long.text.ends_with("match 1 line 999\n"));
        assert!(long.text.len() as u64 <= EXCERPT_BYTES);
        assert_eq!(long.cut + long.text.len() as u64, end - first);
        assert_eq!(excerpt(&range("missing", 0, 1)), Ok(None));
        let beyond = excerpt(&range("a.w0.1.stderr", first, end + 1)).unwrap_err();
        assert!(
            beyond.ends_with(&format!(
                "a.w0.1.stderr: the range ends at byte {}, after the file's end ({end} bytes)",
                end + 1
            )),
            "{beyond}"
        );
        // Names from matches.jsonl that leave stderr/, and a link in it: never read.
        std::fs::write(tmp.path().join("secret"), "the secret").unwrap();
        std::fs::create_dir(dir.join("stderr")).unwrap();
        std::os::unix::fs::symlink(
            tmp.path().join("secret"),
            dir.join("stderr").join("x.stderr"),
        )
        .unwrap();
        let stderr = SafeDir::open(&dir.join("stderr")).unwrap();
        let absolute = tmp.path().join("secret").display().to_string();
        for name in ["../secret", absolute.as_str(), "x.stderr"] {
            let refused = super::excerpt(&stderr, &range(name, 0, 4))
                .unwrap_err()
                .to_string();
            assert!(!refused.contains("the secret"), "{refused}");
            assert!(
                refused.contains("not a file name") || refused.contains("symbolic link"),
                "{refused}"
            );
        }
    }
}
