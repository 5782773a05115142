//! The match log: one JSON line per record, the match told on its own and enough for `referee
//! replay` to re-check it ([docs/match-log.md](../../../docs/match-log.md) is the format).
//!
//! The first line is a [`LogRecord::Header`], then the [`LogRecord::Start`] (the whole state and
//! every seat's view before the first decision), the opening [`LogRecord::Event`]s and
//! [`LogRecord::Scores`]; then per decision its [`LogRecord::Fault`]s, the bot's
//! [`LogRecord::Stderr`], its [`LogRecord::Action`], the events it caused and the scores if they
//! changed; and last a [`LogRecord::Result`] holding the scores, ranks and the whole final state,
//! hidden parts included — or, when the game itself failed, a [`LogRecord::InternalError`]
//! saying how, and the match is void.

use super::policy::FaultPolicy;
use protocol::{FaultKind, Limits};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// The format version of match logs.
pub const LOG_VERSION: u32 = 3;

/// The most bytes of a bot's stderr one [`LogRecord::Stderr`] holds (what the seat keeps of a
/// decision's stderr, [`crate::seat::RECENT_BYTES`]).
pub const STDERR_PER_DECISION: usize = crate::seat::RECENT_BYTES;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Who a logged event was told to: `"all"` or a seat number on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogAudience {
    /// Every seat.
    All,
    /// Only this seat.
    Seat(usize),
}

impl From<engine::Audience> for LogAudience {
    fn from(to: engine::Audience) -> Self {
        match to {
            engine::Audience::All => LogAudience::All,
            engine::Audience::Seat(seat) => LogAudience::Seat(seat),
        }
    }
}

impl LogAudience {
    /// Whether `seat` was told.
    pub fn includes(self, seat: usize) -> bool {
        match self {
            LogAudience::All => true,
            LogAudience::Seat(s) => s == seat,
        }
    }
}

impl Serialize for LogAudience {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LogAudience::All => s.serialize_str("all"),
            LogAudience::Seat(seat) => s.serialize_u64(*seat as u64),
        }
    }
}

impl<'de> Deserialize<'de> for LogAudience {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) if s == "all" => Ok(LogAudience::All),
            Value::Number(n) if n.as_u64().is_some() => {
                Ok(LogAudience::Seat(n.as_u64().unwrap_or_default() as usize))
            }
            other => Err(serde::de::Error::custom(format!(
                "an audience is \"all\" or a seat number, not {other}"
            ))),
        }
    }
}

/// A player as the log records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogPlayer {
    /// The name given to the referee.
    pub name: String,
    /// The command or `builtin:NAME`.
    pub bot: String,
    /// The name the bot gave in its hello, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hello_name: Option<String>,
    /// The time limits it was held to.
    pub limits: Limits,
}

/// One line of a match log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum LogRecord {
    /// What was played: game, options, seed, seats.
    Header {
        /// [`LOG_VERSION`].
        log_version: u32,
        /// The game.
        game: String,
        /// The match's identifier.
        match_id: String,
        /// The match seed.
        seed: u64,
        /// The game options.
        options: Value,
        /// The players by seat.
        players: Vec<LogPlayer>,
        /// Faults after which a bot is stopped for the rest of the match.
        max_faults: u32,
        /// What each class of fault costs.
        policy: FaultPolicy,
        /// What the score is called (e.g. `"money"`); empty in a version 2 log.
        #[serde(default)]
        score_name: String,
        /// Whether a higher score is better; `false` in a version 2 log, which does not say.
        #[serde(default)]
        higher_is_better: bool,
    },
    /// The match before its first decision (version 3).
    Start {
        /// The whole state, hidden parts included: every deal the game drew.
        truth: Value,
        /// What each seat knew then, by seat: its view.
        views: Vec<Value>,
    },
    /// Something that happened, as the game told it to its audience (version 3).
    Event {
        /// The decision whose action caused it; `None` for the opening events.
        n: Option<u64>,
        /// Who was told.
        to: LogAudience,
        /// The event, exactly as bots are sent it.
        event: Value,
    },
    /// The running score of every seat, after the opening events and after each action that
    /// changed it (version 3).
    Scores {
        /// The decision whose action changed them; `None` for the opening scores.
        n: Option<u64>,
        /// By seat.
        scores: Vec<i64>,
    },
    /// What a bot wrote to its standard error since its previous request, logged before the
    /// decision's action (version 3).
    Stderr {
        /// The decision.
        n: u64,
        /// The seat.
        seat: usize,
        /// The text, lossily decoded, at most [`STDERR_PER_DECISION`] bytes (its end kept).
        text: String,
        /// Bytes left out before the text.
        #[serde(default, skip_serializing_if = "is_zero")]
        cut: u64,
    },
    /// One decision.
    Action {
        /// 0-based decision index.
        n: u64,
        /// The seat that decided.
        seat: usize,
        /// The phase.
        phase: String,
        /// The action played.
        action: Value,
        /// Whether the referee played it for the seat.
        substituted: bool,
        /// How long the bot took, in milliseconds.
        ms: f64,
        /// Whether the reply came late and a soft overrun covered it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        overrun: bool,
        /// The CPU time charged to the decision, in milliseconds, where the bot's control
        /// group accounts it ([`super::decision_time::DecisionTime::cpu_ms`] says from when).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cpu_ms: Option<f64>,
    },
    /// A fault.
    Fault {
        /// The decision it concerns, if any.
        n: Option<u64>,
        /// The seat at fault.
        seat: usize,
        /// The kind.
        fault: FaultKind,
        /// What happened.
        message: String,
    },
    /// The end.
    Result {
        /// Final scores by seat.
        scores: Vec<i64>,
        /// Final ranks by seat.
        ranks: Vec<u32>,
        /// The whole final state, hidden information included.
        truth: Value,
    },
    /// The end of a void match: the game itself failed, and no bot is charged with it.
    InternalError {
        /// The decision whose action the game refused to play (logged just before), if the
        /// failure was at one; `None` when the game had no one to move but no outcome either.
        n: Option<u64>,
        /// What happened.
        message: String,
        /// The whole state the game stopped in, hidden information included.
        truth: Value,
    },
}

/// Where log records go: a file, memory, or nowhere.
pub struct MatchLog {
    out: Sink,
}

enum Sink {
    None,
    File(BufWriter<std::fs::File>),
    Memory(Vec<LogRecord>),
}

impl MatchLog {
    /// A log that writes nothing.
    pub fn none() -> Self {
        MatchLog { out: Sink::None }
    }

    /// A log written to `path` (created or truncated), for the referee's user alone: it holds
    /// every hand ([`create_private_file`](crate::safe_fs::create_private_file)).
    ///
    /// # Errors
    /// When the file cannot be created.
    pub fn create(path: &Path) -> io::Result<Self> {
        Ok(MatchLog {
            out: Sink::File(BufWriter::new(crate::safe_fs::create_private_file(path)?)),
        })
    }

    /// A log written to `file`, a new file made by the caller (a results directory's
    /// `logs/ID.jsonl`, made with [`SafeDir::create_file`](crate::safe_fs::SafeDir::create_file)).
    pub fn to_file(file: std::fs::File) -> Self {
        MatchLog {
            out: Sink::File(BufWriter::new(file)),
        }
    }

    /// A log kept in memory, for a caller that looks at the match afterwards
    /// ([`MatchLog::records`]).
    pub fn memory() -> Self {
        MatchLog {
            out: Sink::Memory(Vec::new()),
        }
    }

    /// The records kept by a log made with [`MatchLog::memory`] (none for the others).
    pub fn records(&self) -> &[LogRecord] {
        match &self.out {
            Sink::Memory(records) => records,
            Sink::None | Sink::File(_) => &[],
        }
    }

    /// Whether records are kept (callers may skip building records otherwise).
    pub fn is_enabled(&self) -> bool {
        !matches!(self.out, Sink::None)
    }

    /// Appends one record.
    ///
    /// # Errors
    /// When writing fails.
    pub fn write(&mut self, record: &LogRecord) -> io::Result<()> {
        match &mut self.out {
            Sink::None => {}
            Sink::File(out) => {
                serde_json::to_writer(&mut *out, record)?;
                out.write_all(b"\n")?;
            }
            Sink::Memory(records) => records.push(record.clone()),
        }
        Ok(())
    }

    /// Flushes buffered records.
    ///
    /// # Errors
    /// When writing fails.
    pub fn flush(&mut self) -> io::Result<()> {
        match &mut self.out {
            Sink::File(out) => out.flush(),
            Sink::None | Sink::Memory(_) => Ok(()),
        }
    }
}
