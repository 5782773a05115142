//! Where a match played again first parts from its recorded log (`referee rerun` of a match
//! whose log was kept, `DIR/logs/ID.jsonl`): the first decision or fault that is not the
//! recorded one, named as a person looks for it — the seat and its bot, the bot's own turn
//! (its decisions counted from 1) and the phase — and as a tool does, the log's decision
//! number, with what was recorded and what came now.
//!
//! Only what the seed and the bots' moves decide is compared: each action (seat, phase, the
//! action, whether the referee played it), each fault (seat, decision, kind; not its message,
//! which can quote times or stderr) and the end (scores and ranks). Events follow from the
//! actions, and timings and `stderr` records from the clock (docs/match-log.md#stderr).
//!
//! The recorded log is untrusted: read beneath the results directory ([`SafeDir`]), within
//! [`LOG_FILE_BYTES`] and line by line within [`LOG_LINE_BYTES`]; a log that cannot be read
//! is a reason given, not an error.

use super::files::LOGS_DIR;
use crate::runner::{LogRecord, When};
use crate::safe_fs::limits::{LOG_FILE_BYTES, LOG_LINE_BYTES, shown};
use crate::safe_fs::{BoundedLines, SafeDir};
use protocol::FaultKind;
use serde::Serialize;
use serde_json::Value;

/// Whether the comparison looks at `record`: an action, a fault or the end.
fn compared(record: &LogRecord) -> bool {
    matches!(
        record,
        LogRecord::Action { .. }
            | LogRecord::Fault { .. }
            | LogRecord::Result { .. }
            | LogRecord::InternalError { .. }
    )
}

/// Whether two compared records are the same as far as the seed and the moves decide.
fn same(a: &LogRecord, b: &LogRecord) -> bool {
    use LogRecord::{Action, Fault, InternalError, Result};
    match (a, b) {
        (
            Action {
                n,
                seat,
                phase,
                action,
                substituted,
                ..
            },
            Action {
                n: n2,
                seat: seat2,
                phase: phase2,
                action: action2,
                substituted: substituted2,
                ..
            },
        ) => (n, seat, phase, action, substituted) == (n2, seat2, phase2, action2, substituted2),
        (
            Fault { n, seat, fault, .. },
            Fault {
                n: n2,
                seat: seat2,
                fault: fault2,
                ..
            },
        ) => (n, seat, fault) == (n2, seat2, fault2),
        (
            Result { scores, ranks, .. },
            Result {
                scores: scores2,
                ranks: ranks2,
                ..
            },
        ) => (scores, ranks) == (scores2, ranks2),
        (InternalError { .. }, InternalError { .. }) => true,
        _ => false,
    }
}

/// The decision a compared record is at.
fn decision_of(record: &LogRecord) -> Option<u64> {
    match record {
        LogRecord::Action { n, .. } => Some(*n),
        LogRecord::Fault { n, .. } => *n,
        _ => None,
    }
}

/// The seat a compared record concerns.
fn seat_of(record: &LogRecord) -> Option<usize> {
    match record {
        LogRecord::Action { seat, .. } | LogRecord::Fault { seat, .. } => Some(*seat),
        _ => None,
    }
}

/// What a compared record says, for the difference.
fn moment(record: &LogRecord) -> Moment {
    match record.clone() {
        LogRecord::Action {
            action,
            substituted,
            ..
        } => Moment::Action {
            action,
            substituted,
        },
        LogRecord::Fault { fault, message, .. } => Moment::Fault { fault, message },
        LogRecord::Result { scores, ranks, .. } => Moment::End {
            scores: Some(scores),
            ranks: Some(ranks),
            void: None,
        },
        LogRecord::InternalError { message, .. } => Moment::End {
            scores: None,
            ranks: None,
            void: Some(message),
        },
        _ => Moment::Nothing,
    }
}

/// What one log holds at the first difference.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Moment {
    /// A decision: the action played (by the referee for the bot when `substituted`).
    Action {
        /// The action.
        action: Value,
        /// Whether the referee played it (the game's default action, after a fault).
        substituted: bool,
    },
    /// A fault of the bot.
    Fault {
        /// Its kind.
        fault: FaultKind,
        /// What the bot was told.
        message: String,
    },
    /// The match's end.
    End {
        /// The final scores by seat (none for a void match).
        scores: Option<Vec<i64>>,
        /// The final ranks by seat.
        ranks: Option<Vec<u32>>,
        /// A void match's internal error.
        void: Option<String>,
    },
    /// Nothing more: the log ends here.
    Nothing,
}

/// The first place where the match played again is not the recorded one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstDifference {
    /// The log's decision number (`n`, from 0, across all seats); `None` at the start or the
    /// end of the match.
    pub decision: Option<u64>,
    /// The seat concerned, if a seat is.
    pub seat: Option<usize>,
    /// Its bot's name.
    pub bot: Option<String>,
    /// The bot's own turn: its decisions in the match up to this one, counted from 1; `None`
    /// at the start or end of the match.
    pub turn: Option<u64>,
    /// The phase of the decision, when the seat is the one deciding.
    pub phase: Option<String>,
    /// What the recorded log holds there.
    pub recorded: Moment,
    /// What came now.
    pub now: Moment,
}

impl FirstDifference {
    /// When it is, in the one wording of a moment ([`crate::runner::Moment`]): the bot's
    /// turn, the phase and the log's decision, or the match's start or end.
    pub fn when(&self) -> When {
        match self.decision {
            Some(decision) => When::Turn {
                turn: self.turn,
                phase: self.phase.clone(),
                decision,
            },
            None if matches!(self.recorded, Moment::End { .. })
                || matches!(self.now, Moment::End { .. }) =>
            {
                When::End
            }
            None => When::Outside,
        }
    }
}

/// The recorded log of a match, as far as the comparison needs it.
#[derive(Clone, Debug, Default)]
pub enum RecordedLog {
    /// No log was kept for the match.
    #[default]
    NotKept,
    /// It cannot be compared: why.
    Unreadable(String),
    /// Its actions, faults and end, in order.
    Kept(Vec<LogRecord>),
}

impl RecordedLog {
    /// Reads match `id`'s log from the results directory `dir` (its `logs/ID.jsonl`), checking
    /// that it is the log of the match `recorded` (`matches.jsonl`'s line): its header's match
    /// id, seed and players, and its end's scores and ranks. A log that is not (an edited or swapped file) cannot be
    /// compared: a difference found in it would be blamed on the bots.
    pub fn read(dir: &SafeDir, id: u64, recorded: &crate::runner::MatchRecord) -> Self {
        let name = format!("{id}.jsonl");
        let logs = match dir.subdir(LOGS_DIR) {
            Ok(Some(logs)) => logs,
            Ok(None) => return RecordedLog::NotKept,
            Err(e) => return RecordedLog::Unreadable(e.to_string()),
        };
        let file = match logs.open_read(&name) {
            Ok(Some(file)) => file,
            Ok(None) => return RecordedLog::NotKept,
            Err(e) => return RecordedLog::Unreadable(e.to_string()),
        };
        let path = logs.path_of(&name);
        match file.metadata() {
            Ok(m) if m.len() > LOG_FILE_BYTES => {
                return RecordedLog::Unreadable(format!(
                    "{}: is larger than {}, the most the referee reads of a match log",
                    path.display(),
                    shown(LOG_FILE_BYTES)
                ));
            }
            Err(e) => return RecordedLog::Unreadable(format!("{}: {e}", path.display())),
            Ok(_) => {}
        }
        let mut lines = BoundedLines::new(std::io::BufReader::new(file), LOG_LINE_BYTES);
        let mut line = Vec::new();
        let mut steps = Vec::new();
        loop {
            let n = match lines.next_into(&mut line) {
                Ok(Some(n)) => n,
                Ok(None) => break,
                Err(kind) => return RecordedLog::Unreadable(format!("{}: {kind}", path.display())),
            };
            let record: LogRecord = match serde_json::from_slice(&line) {
                Ok(record) => record,
                Err(e) => {
                    return RecordedLog::Unreadable(format!(
                        "{}, line {n}: not a log record ({e})",
                        path.display()
                    ));
                }
            };
            if let Some(why) = not_of_the_match(&record, recorded) {
                return RecordedLog::Unreadable(format!("{}: {why}", path.display()));
            }
            if compared(&record) {
                steps.push(record);
            }
        }
        RecordedLog::Kept(steps)
    }

    /// The log of the match `recorded` from its records (every record, in order: a log played
    /// into memory, or read by the caller), checked as [`RecordedLog::read`] checks a file.
    pub fn from_records(records: &[LogRecord], recorded: &crate::runner::MatchRecord) -> Self {
        let mut steps = Vec::new();
        for record in records {
            if let Some(why) = not_of_the_match(record, recorded) {
                return RecordedLog::Unreadable(why);
            }
            if compared(record) {
                steps.push(record.clone());
            }
        }
        RecordedLog::Kept(steps)
    }

    /// Whether there is a log to compare the match played again with.
    pub fn is_kept(&self) -> bool {
        matches!(self, RecordedLog::Kept(_))
    }
}

/// Why `record` is not a record of the log of the match `recorded`: a header of another match
/// (its match id, seed or players), or an end that is not the recorded result. A log that is
/// not that match's (an edited or swapped file) cannot be compared: a difference found in it
/// would be blamed on the bots.
fn not_of_the_match(record: &LogRecord, recorded: &crate::runner::MatchRecord) -> Option<String> {
    let seed = recorded.seed;
    if let LogRecord::Header {
        seed: logged,
        match_id,
        players,
        ..
    } = record
    {
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        if *logged != seed || *match_id != recorded.match_id || names != recorded.players {
            return Some(format!(
                "the log of another match (match {match_id}, seed {logged}, players {}, where this one is match {}, seed {seed}, players {})",
                names.join(", "),
                recorded.match_id,
                recorded.players.join(", ")
            ));
        }
    }
    if let LogRecord::Result { scores, ranks, .. } = record
        && (scores, ranks) != (&recorded.scores, &recorded.ranks)
    {
        return Some(format!(
            "its end is not the recorded result (scores {scores:?}, ranks {ranks:?}, where matches.jsonl has {:?} and {:?})",
            recorded.scores, recorded.ranks
        ));
    }
    None
}

/// How the match played again compares with its recorded log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "log", rename_all = "snake_case")]
pub enum LogComparison {
    /// No log was kept for the match (or the match was not played into memory).
    NotKept,
    /// The recorded log cannot be compared.
    Unreadable {
        /// Why.
        why: String,
    },
    /// Every decision, fault and the end are the recorded ones.
    Same,
    /// The first that is not.
    Differs(Box<FirstDifference>),
}

/// Compares the log of the match played again (`now`, every record) with the recorded one;
/// `bots` are the players' names by seat.
pub fn compare(recorded: &RecordedLog, now: &[LogRecord], bots: &[String]) -> LogComparison {
    let steps = match recorded {
        RecordedLog::NotKept => return LogComparison::NotKept,
        RecordedLog::Unreadable(why) => return LogComparison::Unreadable { why: why.clone() },
        RecordedLog::Kept(steps) => steps,
    };
    if now.is_empty() {
        return LogComparison::NotKept;
    }
    let now: Vec<&LogRecord> = now.iter().filter(|r| compared(r)).collect();
    let at = (0..steps.len().max(now.len())).find(|&i| match (steps.get(i), now.get(i)) {
        (Some(a), Some(b)) => !same(a, b),
        _ => true,
    });
    let Some(at) = at else {
        return LogComparison::Same;
    };
    let (was_step, now_step) = (steps.get(at), now.get(at).copied());
    let first = was_step.or(now_step).expect("one of the two is there");
    let decision = was_step
        .and_then(decision_of)
        .or_else(|| now_step.and_then(decision_of));
    let seat = seat_of(first).or_else(|| now_step.and_then(seat_of));
    // The decision's seat and phase: the logs agree on everything before it, so the game
    // asked the same seat in the same phase in both — unless the match was played again with
    // another deal (a reproduction's doctored seed), where the seat named, the recorded
    // record's, is the one the recorded log asked.
    let deciding = decision.and_then(|n| {
        steps
            .iter()
            .chain(now.iter().copied())
            .find_map(|r| match r {
                LogRecord::Action {
                    n: m, seat, phase, ..
                } if *m == n => Some((*seat, phase.clone())),
                _ => None,
            })
    });
    let (turn, phase) = match (decision, seat) {
        (Some(n), Some(seat)) => {
            let before = now[..at]
                .iter()
                .filter(|r| matches!(r, LogRecord::Action { n: m, seat: s, .. } if *m < n && *s == seat))
                .count() as u64;
            match deciding {
                Some((s, phase)) if s == seat => (Some(before + 1), Some(phase)),
                _ => ((before > 0).then_some(before), None),
            }
        }
        _ => (None, None),
    };
    LogComparison::Differs(Box::new(FirstDifference {
        decision,
        seat,
        bot: seat.and_then(|s| bots.get(s).cloned()),
        turn,
        phase,
        recorded: was_step.map_or(Moment::Nothing, moment),
        now: now_step.map_or(Moment::Nothing, moment),
    }))
}

#[cfg(test)]
#[path = "rerun_diff_tests.rs"]
mod tests;
