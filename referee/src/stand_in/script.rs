//! A stand-in's script: what one seat did in a recorded match, step by step, made from the
//! match log ([`stand_in_script`]) and kept as JSON lines, one step a line
//! ([`write_script`], [`read_script`]):
//!
//! ```json
//! {"phase":"chip","action":{"table":2}}
//! {"phase":"card","fault":"timeout"}
//! {"at":"end","fault":"exited"}
//! ```
//!
//! A step is a decision the seat was asked for, in order: the action it replied, or the fault
//! it made instead (the referee then played for it; an `illegal_action` keeps the action its
//! message quoted, when that can be read back). A decision the referee played without asking
//! the seat (its bot stopped, or forfeited, earlier) is no step: the stand-in is not asked
//! either. Faults outside the seat's turns (at start-up, at the end of the match) are steps
//! too. Stray lines and the bot's stderr are not replayed.

use crate::runner::{LogRecord, Outside};
use crate::safe_fs::BoundedLines;
use protocol::FaultKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io::{BufRead, Write};

/// The longest line of a script read back: an action is a few KiB at most (a Machiavelli
/// table), and this is the referee's cap on a bot's line.
pub const SCRIPT_LINE_BYTES: usize = 1 << 20;

/// One step of a stand-in's script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StandInStep {
    /// A decision at which the seat faulted: the fault to make again.
    Fault {
        /// The request's phase.
        phase: String,
        /// The fault.
        fault: FaultKind,
        /// For an `illegal_action`, the action the fault's message quoted (absent when it
        /// could not be read back: the stand-in then replies an action of the wrong shape).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reply: Option<Value>,
    },
    /// A decision the seat took: the action it replied.
    Action {
        /// The request's phase.
        phase: String,
        /// The action.
        action: Value,
    },
    /// A fault outside the seat's turns: at start-up or at the end of the match.
    Outside {
        /// When.
        at: Outside,
        /// The fault.
        fault: FaultKind,
    },
}

/// A script that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// A line too long, or a failure to read.
    #[error(transparent)]
    Line(#[from] crate::safe_fs::FileErrorKind),
    /// A line that is not a step.
    #[error(
        "line {line}: not a step of a stand-in's script ({{\"phase\",\"action\"}}, {{\"phase\",\"fault\"}} or {{\"at\",\"fault\"}}): {error}"
    )]
    Step {
        /// The line, from 1.
        line: usize,
        /// The parser's words.
        error: serde_json::Error,
    },
}

/// The script of seat `seat` in the match `log` (every record of it, in order).
pub fn stand_in_script(log: &[LogRecord], seat: usize) -> Vec<StandInStep> {
    let mut steps = Vec::new();
    let mut decided = false;
    // The fault of the decision being waited for, if the seat made one.
    let mut pending: Option<(u64, FaultKind, String)> = None;
    for record in log {
        match record {
            LogRecord::Fault {
                n: None,
                seat: s,
                fault,
                ..
            } if *s == seat => steps.push(StandInStep::Outside {
                at: if decided {
                    Outside::End
                } else {
                    Outside::Start
                },
                fault: *fault,
            }),
            LogRecord::Fault {
                n: Some(n),
                seat: s,
                fault,
                message,
            } if *s == seat => pending = Some((*n, *fault, message.clone())),
            LogRecord::Action {
                n,
                seat: s,
                phase,
                action,
                substituted,
                ..
            } => {
                decided = true;
                if *s != seat {
                    continue;
                }
                let fault = pending.take().filter(|(m, ..)| m == n);
                match (substituted, fault) {
                    (false, _) => steps.push(StandInStep::Action {
                        phase: phase.clone(),
                        action: action.clone(),
                    }),
                    (true, Some((_, fault, message))) => steps.push(StandInStep::Fault {
                        phase: phase.clone(),
                        fault,
                        reply: (fault == FaultKind::IllegalAction)
                            .then(|| quoted_action(&message))
                            .flatten(),
                    }),
                    // Played for a bot stopped earlier: the seat was not asked.
                    (true, None) => {}
                }
            }
            _ => {}
        }
    }
    steps
}

/// The action an `illegal_action` fault's message quotes ("ACTION is illegal: why"), when it
/// was quoted whole.
fn quoted_action(message: &str) -> Option<Value> {
    let (shown, _) = message.split_once(" is illegal: ")?;
    serde_json::from_str(shown).ok()
}

/// Writes `steps` to `out`, one JSON line each.
///
/// # Errors
/// When writing fails.
pub fn write_script(steps: &[StandInStep], mut out: impl Write) -> std::io::Result<()> {
    for step in steps {
        serde_json::to_writer(&mut out, step)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Reads a script written by [`write_script`] (blank lines skipped), each line within
/// [`SCRIPT_LINE_BYTES`].
///
/// # Errors
/// [`ScriptError`] for a line that cannot be read or is not a step.
pub fn read_script(input: impl BufRead) -> Result<Vec<StandInStep>, ScriptError> {
    let mut lines = BoundedLines::new(input, SCRIPT_LINE_BYTES);
    let mut line = Vec::new();
    let mut steps = Vec::new();
    loop {
        let n = match lines.next_into(&mut line) {
            Ok(Some(n)) => n,
            Ok(None) => return Ok(steps),
            Err(kind) => return Err(kind.into()),
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let step =
            serde_json::from_slice(&line).map_err(|error| ScriptError::Step { line: n, error })?;
        steps.push(step);
    }
}

#[cfg(test)]
#[path = "script_tests.rs"]
mod tests;
