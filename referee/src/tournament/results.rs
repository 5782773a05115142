//! A tournament's results directory: `tournament.json` (what is being played) and
//! `matches.jsonl` (one line per finished match, appended as each finishes).
//!
//! A line is written with one `write` call and flushed at once, so a run killed at any moment
//! loses at most the line being written; on resume a half-written last line is detected, cut
//! off, and its match played again.

use super::bounds::{BadResult, ResultCheck, check_meta};
use super::out_of_bounds::OutOfBounds;
use super::results_error::io_err;
use super::run_record::RUN_FILE;
use crate::safe_fs::limits::{META_BYTES, RESULT_LINE_BYTES};
use crate::safe_fs::{BoundedLines, FileError, FileErrorKind, MadePrivate, SafeDir};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

pub use super::files::{LOGS_DIR, MATCHES_FILE, META_FILE, STDERR_DIR};
pub use super::match_result::{MatchResult, StderrRange};
pub use super::meta::{MetaBot, TournamentMeta, difference};
pub use super::results_error::ResultsError;

/// The lock a run holds on its results directory (`flock`), while it writes there.
const LOCK_FILE: &str = ".lock";

/// Reads a directory's identity, at most [`META_BYTES`], and checks it against the
/// [bounds](super::bounds::check_meta).
///
/// # Errors
/// [`ResultsError::Missing`], a file that is not a regular file or is over its bound, or a
/// description that cannot be read or is out of bounds.
pub fn read_meta(dir: &SafeDir) -> Result<TournamentMeta, ResultsError> {
    let path = dir.path_of(META_FILE);
    let bytes = dir
        .read(META_FILE, META_BYTES)?
        .ok_or_else(|| ResultsError::Missing(dir.path().to_path_buf()))?;
    let raw: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| ResultsError::BadMeta {
            path: path.clone(),
            message: e.to_string(),
        })?;
    if raw.get("format").is_some() && raw.get("schedule").is_none() {
        return Err(ResultsError::RenamedKey {
            path,
            old: "format",
            new: "schedule",
        });
    }
    let meta: TournamentMeta = serde_json::from_value(raw).map_err(|e| ResultsError::BadMeta {
        path: path.clone(),
        message: e.to_string(),
    })?;
    check_meta(&meta).map_err(|OutOfBounds { field, message }| ResultsError::Field {
        path,
        field,
        message,
    })?;
    Ok(meta)
}

/// Writes the identity file atomically (a temporary file, then a rename), so that a run killed
/// at any moment leaves either no identity or a whole one.
fn write_meta(dir: &SafeDir, meta: &TournamentMeta) -> Result<(), ResultsError> {
    let text = serde_json::to_string_pretty(meta).expect("meta serializes") + "\n";
    Ok(dir.replace_file(META_FILE, text.as_bytes(), true)?)
}

/// Reads every complete result of a directory, line by line (each at most
/// [`RESULT_LINE_BYTES`]), each checked against the tournament `meta` describes
/// ([`ResultCheck`]); a half-written last line is ignored. Returns the results by id and the
/// byte length of the complete lines.
///
/// # Errors
/// A file that is not a regular file, a line over its bound, a corrupt line that is not the
/// last, or a result that does not belong to the tournament or is out of bounds.
pub fn read_results(
    dir: &SafeDir,
    meta: &TournamentMeta,
) -> Result<(BTreeMap<u64, MatchResult>, u64), ResultsError> {
    let path = dir.path_of(MATCHES_FILE);
    let mut results = BTreeMap::new();
    let Some(file) = dir.open_read(MATCHES_FILE)? else {
        return Ok((results, 0));
    };
    let check = ResultCheck::new(meta);
    let mut lines = BoundedLines::new(std::io::BufReader::new(file), RESULT_LINE_BYTES);
    let mut line = Vec::new();
    let mut good = 0u64;
    // A line that is not a result: refused unless it is the last (a killed run's).
    let mut unparsed: Option<(usize, String)> = None;
    while let Some(n) = lines
        .next_into(&mut line)
        .map_err(|kind| FileError::new(&path, kind))?
    {
        if let Some((line, message)) = unparsed.take() {
            return Err(ResultsError::Corrupt {
                path,
                line,
                message,
            });
        }
        let result = match serde_json::from_slice::<MatchResult>(&line) {
            // Only the last line can lack its newline: a killed run's, dropped.
            Ok(_) if !line.ends_with(b"\n") => break,
            Ok(result) => result,
            Err(e) => {
                unparsed = Some((n, e.to_string()));
                continue;
            }
        };
        check.check(&result).map_err(|bad| match bad {
            BadResult::Foreign(message) => ResultsError::Foreign {
                path: path.clone(),
                line: n,
                id: result.id,
                message,
            },
            BadResult::OutOfBounds(message) => ResultsError::Corrupt {
                path: path.clone(),
                line: n,
                message,
            },
        })?;
        good += line.len() as u64;
        results.insert(result.id, result);
    }
    Ok((results, good))
}

/// A results directory read back: its identity and its results, each checked.
#[derive(Debug)]
pub struct ReadBack {
    /// The directory, opened.
    pub dir: SafeDir,
    /// What the tournament plays.
    pub meta: TournamentMeta,
    /// Its results, by id.
    pub results: BTreeMap<u64, MatchResult>,
}

/// Reads the results directory the user named: its identity and every result
/// ([`read_meta`], [`read_results`]).
///
/// # Errors
/// [`ResultsError`] for a directory that holds no tournament, or a file that cannot be read
/// back.
pub fn read_back(path: &Path) -> Result<ReadBack, ResultsError> {
    let dir = SafeDir::open(path).map_err(|e| match e.kind {
        FileErrorKind::Missing => ResultsError::Missing(path.to_path_buf()),
        _ => e.into(),
    })?;
    let meta = read_meta(&dir)?;
    let (results, _) = read_results(&dir, &meta)?;
    Ok(ReadBack { dir, meta, results })
}

/// The results directory `dir` (made [private](crate::safe_fs::Privacy::Private)), when other users could read
/// it until then, and whether it held a tournament, and so its seed.
///
/// # Errors
/// [`ResultsError`] when `tournament.json` cannot be looked at.
pub fn made_private(dir: &SafeDir) -> Result<Option<MadePrivate>, ResultsError> {
    let Some(mut made) = dir.made_private() else {
        return Ok(None);
    };
    made.held_seed = dir.holds(META_FILE)?;
    Ok(Some(made))
}

/// The results file of a running tournament. It holds an exclusive lock on the directory
/// (`.lock`, with `flock`) while it lives, so two runs never write one directory at once.
pub struct ResultsFile {
    file: File,
    path: PathBuf,
    _lock: File,
}

fn lock(dir: &SafeDir) -> Result<File, ResultsError> {
    use std::os::fd::AsRawFd;
    let file = dir.open_append(LOCK_FILE)?;
    // SAFETY: flock on a file descriptor this function owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(ResultsError::Locked(dir.path().to_path_buf()));
    }
    Ok(file)
}

/// Checks what the referee will write to in an existing directory before it writes anything:
/// `run.json` (replaced, not written through, but a link there says the directory was tampered
/// with) and every file of `stderr/` and `logs/` (appended to, or replaced) must be regular
/// files of one name; in a private directory, they and `tournament.json` are made private.
fn check_writable(dir: &SafeDir) -> Result<(), ResultsError> {
    dir.check_file(RUN_FILE)?;
    // Read, not written: made private here (what is written is, as it is opened).
    dir.keep_private(META_FILE)?;
    for name in [STDERR_DIR, LOGS_DIR] {
        if let Some(sub) = dir.subdir(name)? {
            sub.check_entries()?;
        }
    }
    Ok(())
}

impl ResultsFile {
    /// Prepares `dir` for `meta`: a new directory gets `tournament.json`; with `resume`, an
    /// existing one must hold the same tournament, its half-written last line (if any) is cut,
    /// and the results already there are returned. Every file the run will write to is checked
    /// first ([`SafeDir`]: no link, no FIFO, no file of several names).
    ///
    /// # Errors
    /// [`ResultsError`] for a directory that holds results without `resume`, another tournament,
    /// a corrupt or tampered-with file, or an I/O failure.
    pub fn open(
        dir: &SafeDir,
        meta: &TournamentMeta,
        resume: bool,
    ) -> Result<(Self, BTreeMap<u64, MatchResult>), ResultsError> {
        let meta_path = dir.path_of(META_FILE);
        check_meta(meta).map_err(|OutOfBounds { field, message }| ResultsError::Field {
            path: meta_path,
            field,
            message,
        })?;
        let lock = lock(dir)?;
        let mut done = BTreeMap::new();
        let mut good = None;
        if dir.holds(META_FILE)? {
            let existing = read_meta(dir)?;
            if let Some(what) = difference(&existing, meta) {
                return Err(ResultsError::Different {
                    dir: dir.path().to_path_buf(),
                    what: what.to_string(),
                });
            }
            let (results, length) = read_results(dir, meta)?;
            if !results.is_empty() && !resume {
                return Err(ResultsError::Exists(dir.path().to_path_buf()));
            }
            done = results;
            good = Some(length);
        }
        check_writable(dir)?;
        if good.is_none() {
            write_meta(dir, meta)?;
        }
        let path = dir.path_of(MATCHES_FILE);
        let file = dir.open_append(MATCHES_FILE)?;
        if let Some(good) = good {
            file.set_len(good).map_err(io_err(&path))?;
        }
        Ok((
            ResultsFile {
                file,
                path,
                _lock: lock,
            },
            done,
        ))
    }

    /// Appends one result as one line, written and flushed at once.
    ///
    /// # Errors
    /// When writing fails.
    pub fn append(&mut self, result: &MatchResult) -> Result<(), ResultsError> {
        let mut line = serde_json::to_vec(result).expect("results serialize");
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.flush())
            .map_err(io_err(&self.path))
    }
}
