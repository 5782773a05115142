//! Re-checking a match log ([docs/match-log.md](../../../docs/match-log.md)): every action is
//! re-applied through the engine, and the recorded start, events, running scores, result and
//! final state must be the ones the rules give, each in its place; a log that does not hold is
//! named by its first line that does not. [`read_match`] gives the checked records to tools that
//! show a match (the viewer, the narrative), the same for a version 2 log, whose start, events
//! and scores it makes again from the engine.
//!
//! - `rules.rs` — the decisions, the faults and the end, checked against the rules and the
//!   fault ledgers, record by record;
//! - `game_log.rs` — the game's own records (start, events, scores), made again and compared
//!   (or put in their places in a version 2 log).

mod game_log;
mod rules;
#[cfg(test)]
mod tests;

use crate::runner::{LOG_VERSION, LogRecord};
use crate::safe_fs::limits::LOG_LINE_BYTES;
use crate::safe_fs::{BoundedLines, FileError, SafeDir, open_named};
use engine::{Game, GameKind};
use rules::Replay;
use std::iter::Peekable;
use std::path::Path;

/// The oldest log version read: version 2 (header, faults, actions and the result).
pub const OLDEST_LOG_VERSION: u32 = 2;

/// What a confirmed log holds.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplaySummary {
    /// The game.
    pub game: String,
    /// Player names by seat.
    pub players: Vec<String>,
    /// Decisions re-applied.
    pub decisions: u64,
    /// Of those, substituted by the referee.
    pub substituted: u64,
    /// Faults recorded.
    pub faults: u64,
    /// Final scores by seat.
    pub scores: Vec<i64>,
    /// Final ranks by seat.
    pub ranks: Vec<u32>,
    /// Why the match is void, when the game itself failed ([`LogRecord::InternalError`]): its
    /// scores are then all 0 and every seat is ranked 1.
    pub internal_error: Option<String>,
}

/// A match log that holds, as version 3 records ([`read_match`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedMatch {
    /// The version the log was written in (2 or 3).
    pub log_version: u32,
    /// Every record in log order, the header first, as a version 3 log has them. Of a version 2
    /// log: the header says version 3 and names the game's score, and the start, the events
    /// and the scores are made again by the engine, each in its place; it has no `stderr`
    /// records.
    pub records: Vec<LogRecord>,
    /// What the replay confirmed.
    pub summary: ReplaySummary,
}

/// Why a log does not hold.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file cannot be read: missing, not a regular file (a FIFO, a link in a results
    /// directory), a line over [`LOG_LINE_BYTES`], or a failure to read.
    #[error("cannot read {0}")]
    Io(#[from] FileError),
    /// A line that does not hold, with its 1-based number.
    #[error("line {line}: {message}")]
    Mismatch {
        /// 1-based line number.
        line: usize,
        /// What does not hold.
        message: String,
    },
}

fn mismatch(line: usize, message: impl Into<String>) -> ReplayError {
    ReplayError::Mismatch {
        line,
        message: message.into(),
    }
}

/// Re-checks the match log at `path` (a file the user named: [`open_named`]), read line by
/// line.
///
/// # Errors
/// [`ReplayError::Mismatch`] naming the first line that does not hold, or [`ReplayError::Io`].
pub fn replay_file(path: &Path) -> Result<ReplaySummary, ReplayError> {
    Ok(check_lines(lines_of(open_named(path)?, path), false)?.summary)
}

/// Re-checks the match log at `path` and gives its records, as a version 3 log has them (a
/// version 2 log's start, events and scores made again by the engine).
///
/// # Errors
/// As [`replay_file`]: a log that does not hold gives no records.
pub fn read_match(path: &Path) -> Result<CheckedMatch, ReplayError> {
    check_lines(lines_of(open_named(path)?, path), true)
}

/// [`read_match`] of the log `name` of a results directory's `logs/`, opened beneath it
/// ([`SafeDir::open_read`]: no link, no FIFO).
///
/// # Errors
/// As [`read_match`].
pub fn read_match_in(logs: &SafeDir, name: &str) -> Result<CheckedMatch, ReplayError> {
    let file = logs.open_read(name)?.ok_or_else(|| {
        FileError::new(&logs.path_of(name), crate::safe_fs::FileErrorKind::Missing)
    })?;
    check_lines(lines_of(file, &logs.path_of(name)), true)
}

/// Re-checks a match log given as lines.
///
/// # Errors
/// [`ReplayError::Mismatch`] naming the first line that does not hold.
pub fn replay_lines(lines: &[String]) -> Result<ReplaySummary, ReplayError> {
    Ok(check_lines(given(lines), false)?.summary)
}

/// The lines of a log file, each at most [`LOG_LINE_BYTES`], read as they are needed.
fn lines_of(file: std::fs::File, path: &Path) -> impl Iterator<Item = Result<String, ReplayError>> {
    let path = path.to_path_buf();
    BoundedLines::new(std::io::BufReader::new(file), LOG_LINE_BYTES)
        .enumerate()
        .map(move |(i, line)| {
            let bytes = line.map_err(|kind| FileError::new(&path, kind))?;
            String::from_utf8(bytes).map_err(|_| mismatch(i + 1, "not UTF-8 text"))
        })
}

/// Lines given in memory, as [`lines_of`] gives a file's.
fn given(lines: &[String]) -> impl Iterator<Item = Result<String, ReplayError>> + '_ {
    lines.iter().cloned().map(Ok)
}

/// Re-checks a log given as lines, keeping its records if `keep`.
fn check_lines(
    lines: impl Iterator<Item = Result<String, ReplayError>>,
    keep: bool,
) -> Result<CheckedMatch, ReplayError> {
    let mut lines = lines.peekable();
    let header = read_header(lines.next().transpose()?.as_deref())?;
    let LogRecord::Header { game, .. } = &header else {
        unreachable!("a header");
    };
    let kind = GameKind::from_name(game).map_err(|e| mismatch(1, e.to_string()))?;
    engine::with_game!(kind, G => replay_game::<G>(&header, &mut lines, keep))
}

/// The header on the first line, of a version this referee reads.
fn read_header(first: Option<&str>) -> Result<LogRecord, ReplayError> {
    let first = first.ok_or_else(|| mismatch(1, "the log is empty"))?;
    let header: LogRecord = serde_json::from_str(first)
        .map_err(|e| mismatch(1, format!("not a match log header ({e})")))?;
    let LogRecord::Header { log_version, .. } = &header else {
        return Err(mismatch(1, "the first line must be the header"));
    };
    if !(OLDEST_LOG_VERSION..=LOG_VERSION).contains(log_version) {
        return Err(mismatch(
            1,
            format!(
                "log version {log_version}; this referee reads versions {OLDEST_LOG_VERSION} to {LOG_VERSION}"
            ),
        ));
    }
    Ok(header)
}

/// Re-checks a log of the game `G` given as lines, `G` taken as it is, not from the header's
/// name (the tests' own games are in no registry).
#[cfg(test)]
pub(crate) fn replay_lines_as<G: Game>(lines: &[String]) -> Result<ReplaySummary, ReplayError> {
    Ok(read_lines_as::<G>(lines)?.summary)
}

/// As [`read_match`], for a log of the game `G` given as lines (see [`replay_lines_as`]).
#[cfg(test)]
pub(crate) fn read_lines_as<G: Game>(lines: &[String]) -> Result<CheckedMatch, ReplayError> {
    let header = read_header(lines.first().map(String::as_str))?;
    replay_game::<G>(&header, &mut given(&lines[1..]).peekable(), true)
}

/// Re-checks the records after the header, read one line at a time (a line is looked at
/// before it is taken only after an action the game refused).
fn replay_game<G: Game>(
    header: &LogRecord,
    lines: &mut Peekable<impl Iterator<Item = Result<String, ReplayError>>>,
    keep: bool,
) -> Result<CheckedMatch, ReplayError> {
    let LogRecord::Header { log_version, .. } = header else {
        unreachable!("a header");
    };
    let mut replay = Replay::<G>::new(header, keep).map_err(|m| mismatch(1, m))?;
    let mut finished = false;
    let mut line = 1;
    while let Some(text) = lines.next() {
        let text = text?;
        line += 1;
        if finished {
            if text.trim().is_empty() {
                continue;
            }
            return Err(mismatch(line, "a line after the result"));
        }
        let record: LogRecord = serde_json::from_str(&text)
            .map_err(|e| mismatch(line, format!("not a log record ({e})")))?;
        finished = matches!(
            record,
            LogRecord::Result { .. } | LogRecord::InternalError { .. }
        );
        replay.take(record).map_err(|m| mismatch(line, m))?;
        // An action the game refuses is a fault of the log, unless the next record says the
        // game failed there.
        if let Some((_, illegal)) = &replay.refused {
            if !matches!(lines.peek(), Some(Ok(next)) if is_internal_error(next)) {
                return Err(mismatch(line, format!("illegal action: {illegal}")));
            }
        }
    }
    if !finished {
        return Err(mismatch(
            line + 1,
            "the log ends before the result (truncated)",
        ));
    }
    let (summary, records) = replay.finish();
    Ok(CheckedMatch {
        log_version: *log_version,
        records,
        summary,
    })
}

/// Whether `text` is an internal-error record.
fn is_internal_error(text: &str) -> bool {
    matches!(
        serde_json::from_str(text),
        Ok(LogRecord::InternalError { .. })
    )
}
