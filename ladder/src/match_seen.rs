//! What a viewer of a finished match may see of its log, on the web and in the API: the one
//! rule, as a pure function ([`seen_log`]).
//!
//! - The **admin** sees the truth: the whole log.
//! - An **owner** with a seat at the table sees the match as that seat knew it: its own start
//!   view (no other seat's, no truth), the events told to everyone or to it, every seat's
//!   running scores (public), its own actions, times, stderr and fault messages, and of the
//!   other seats only that they decided (seat, phase, whether the referee played for them) and
//!   the kinds of their faults: not what they played (a card placed face down is an action),
//!   not their times, not their messages (which can quote their stderr).
//! - **Anyone else** sees the public view: the same without any start view, any seat's action,
//!   stderr or fault message: the events told to everyone, the scores, the result.
//!
//! No viewer but the admin gets the seed (it gives every deal away), the final truth, or a void
//! match's failure message (which can name a refused action).

use crate::reproduce::{HIDDEN_COMMAND, HIDDEN_MESSAGE};
use referee::runner::LogAudience;
use referee::runner::LogRecord;
use serde_json::Value;

/// What a void match's failure says to anyone but the admin: the game's own message can name
/// the action it refused to play, a card of a hand.
pub const VOID_MESSAGE: &str =
    "the game itself failed (its message, which can name a seat's hidden action, is the admin's)";

/// Who is looking at a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The admin: everything.
    Truth,
    /// The owner of this seat.
    Seat(usize),
    /// Anyone.
    Public,
}

impl Audience {
    /// Whether the viewer sees seat `seat`'s own side (its actions, stderr, messages).
    fn owns(self, seat: usize) -> bool {
        match self {
            Audience::Truth => true,
            Audience::Seat(own) => own == seat,
            Audience::Public => false,
        }
    }

    /// Whether an event told to `to` was told to the viewer.
    fn told(self, to: &LogAudience) -> bool {
        match (self, to) {
            (Audience::Truth, _) | (_, LogAudience::All) => true,
            (Audience::Seat(own), LogAudience::Seat(seat)) => own == *seat,
            (Audience::Public, LogAudience::Seat(_)) => false,
        }
    }
}

/// `log` (a match's records, header first) as `audience` may see it (see the module's
/// documentation).
pub fn seen_log(log: &[LogRecord], audience: Audience) -> Vec<LogRecord> {
    if audience == Audience::Truth {
        return log.to_vec();
    }
    log.iter()
        .filter_map(|record| seen_record(record, audience))
        .collect()
}

/// One record as `audience` (not the truth) sees it; `None`: not at all.
fn seen_record(record: &LogRecord, audience: Audience) -> Option<LogRecord> {
    let mut record = record.clone();
    match &mut record {
        LogRecord::Header { seed, players, .. } => {
            *seed = 0;
            for (seat, player) in players.iter_mut().enumerate() {
                if !audience.owns(seat) && !player.bot.starts_with("builtin:") {
                    player.bot = HIDDEN_COMMAND.into();
                    player.hello_name = None;
                }
            }
        }
        LogRecord::Start { truth, views } => {
            *truth = Value::Null;
            for (seat, view) in views.iter_mut().enumerate() {
                if !audience.owns(seat) {
                    *view = Value::Null;
                }
            }
        }
        LogRecord::Event { to, .. } if !audience.told(to) => return None,
        LogRecord::Stderr { seat, .. } if !audience.owns(*seat) => return None,
        LogRecord::Action {
            seat,
            action,
            ms,
            overrun,
            cpu_ms,
            ..
        } if !audience.owns(*seat) => {
            *action = Value::Null;
            *ms = 0.0;
            *overrun = false;
            *cpu_ms = None;
        }
        LogRecord::Fault { seat, message, .. } if !audience.owns(*seat) => {
            *message = HIDDEN_MESSAGE.into();
        }
        LogRecord::Result { truth, .. } => *truth = Value::Null,
        LogRecord::InternalError { truth, message, .. } => {
            *truth = Value::Null;
            // It can name the action the game refused (a card in a hand).
            *message = VOID_MESSAGE.into();
        }
        _ => {}
    }
    Some(record)
}

#[cfg(test)]
#[path = "match_seen_tests.rs"]
mod tests;
