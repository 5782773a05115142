//! The stand-in bot: its side of the protocol, over any reader and writer (`referee stand-in
//! FILE` gives it its standard input and output). It says `hello` (asking for no events: it
//! decides nothing), answers each request with its script's next step and ignores the rest.
//!
//! A recorded fault is made again where a bot can make it: a `timeout` by not answering, a
//! `malformed` reply by a line that is not JSON, a `wrong_shape` one by an action that is a
//! string, a `stale_id` by a reply to another id, an `illegal_action` by the action the fault
//! quoted, a `line_too_long` by such a line, a `startup_timeout` by no `hello`, a
//! `protocol_mismatch` by a `hello` of protocol 2; the faults that end a process (`exited`, a
//! resource limit, a write that failed) by exiting with [`RECORDED_EXIT`].

use super::StandInStep;
use crate::runner::{Outside, ordinal};
use protocol::{FaultKind, FromBot, HelloReply, ToBot};
use serde_json::{Value, json};
use std::io::{self, BufRead, Write};

/// The stand-in's exit code where the recorded bot's process ended (an `exited` fault, or
/// another that leaves no process).
pub const RECORDED_EXIT: i32 = 1;

/// The stand-in's exit code when the referee asks for a decision its script does not have: the
/// match played again has parted from the recorded one.
pub const DIVERGED_EXIT: i32 = 3;

/// The name the stand-in gives in its `hello`.
pub const HELLO_NAME: &str = "stand-in";

/// How the stand-in ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Served {
    /// Its input ended, or it was sent `goodbye`.
    Done,
    /// It must exit with `code`, after writing `note` to its standard error.
    Exit {
        /// [`RECORDED_EXIT`] or [`DIVERGED_EXIT`].
        code: i32,
        /// Why, in one line.
        note: String,
    },
}

/// Plays `steps` against the referee's lines on `input`, writing its own to `output`.
///
/// # Errors
/// When reading or writing fails (the referee closed the pipe).
pub fn serve(
    steps: &[StandInStep],
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<Served> {
    let mut steps = steps.iter().peekable();
    let start = steps
        .next_if(|s| {
            matches!(
                s,
                StandInStep::Outside {
                    at: Outside::Start,
                    ..
                }
            )
        })
        .map(|s| match s {
            StandInStep::Outside { fault, .. } => *fault,
            _ => unreachable!("matched above"),
        });
    let mut turn = 0u64;
    for line in input.lines() {
        let line = line?;
        let Ok(message) = serde_json::from_str::<ToBot>(&line) else {
            continue;
        };
        match message {
            ToBot::Hello(_) => match start {
                None => send(&mut output, &hello(None))?,
                // No hello: the referee's start-up limit runs out.
                Some(FaultKind::StartupTimeout) => {}
                Some(FaultKind::ProtocolMismatch) => send(&mut output, &hello(Some(2)))?,
                Some(fault) => {
                    return Ok(Served::Exit {
                        code: RECORDED_EXIT,
                        note: format!(
                            "stand-in: the recorded bot failed at start-up ({})",
                            fault.as_str()
                        ),
                    });
                }
            },
            ToBot::Request(request) => {
                turn += 1;
                let step = steps.next();
                match answer(step, &request.phase, request.id, turn) {
                    Answer::Line(text) => {
                        output.write_all(text.as_bytes())?;
                        output.write_all(b"\n")?;
                        output.flush()?;
                    }
                    Answer::Silence => {}
                    Answer::Exit(served) => return Ok(served),
                }
            }
            ToBot::MatchEnd(_) => {
                if let Some(StandInStep::Outside { fault, .. }) = steps.next_if(|s| {
                    matches!(
                        s,
                        StandInStep::Outside {
                            at: Outside::End,
                            ..
                        }
                    )
                }) {
                    return Ok(Served::Exit {
                        code: RECORDED_EXIT,
                        note: format!(
                            "stand-in: the recorded bot could not take the match's end ({})",
                            fault.as_str()
                        ),
                    });
                }
            }
            ToBot::Goodbye(_) => return Ok(Served::Done),
            ToBot::MatchStart(_) | ToBot::Event(_) | ToBot::Error(_) | ToBot::Unknown => {}
        }
    }
    Ok(Served::Done)
}

/// What the stand-in does at a request.
enum Answer {
    /// Writes this line.
    Line(String),
    /// Writes nothing (a recorded timeout).
    Silence,
    /// Ends.
    Exit(Served),
}

/// The answer to request `id` in `phase`, the seat's `turn`-th, by the script's `step`.
fn answer(step: Option<&StandInStep>, phase: &str, id: u64, turn: u64) -> Answer {
    let diverged = |recorded: String| {
        Answer::Exit(Served::Exit {
            code: DIVERGED_EXIT,
            note: format!(
                "stand-in: the match played again asks this seat for its {} turn (phase {phase}), {recorded}: it has parted from the recorded match",
                ordinal(turn)
            ),
        })
    };
    let action = |action: &Value| Answer::Line(line(&FromBot::action(id, action.clone())));
    match step {
        Some(StandInStep::Action {
            phase: p,
            action: a,
        }) if p == phase => action(a),
        Some(StandInStep::Fault {
            phase: p,
            fault,
            reply,
        }) if p == phase => make_again(*fault, reply.as_ref(), id, turn),
        Some(StandInStep::Action { phase: p, .. } | StandInStep::Fault { phase: p, .. }) => {
            diverged(format!("where the recorded match asked it in phase {p}"))
        }
        Some(StandInStep::Outside { .. }) | None => diverged(format!(
            "where the recorded match asked it for {} only",
            turns(turn - 1)
        )),
    }
}

/// "no turn", "1 turn", "4 turns".
fn turns(n: u64) -> String {
    match n {
        0 => "no turn".into(),
        1 => "1 turn".into(),
        n => format!("{n} turns"),
    }
}

/// The answer that makes the recorded `fault` again at request `id`.
fn make_again(fault: FaultKind, reply: Option<&Value>, id: u64, turn: u64) -> Answer {
    let wrong_shape = || {
        line(&FromBot::action(
            id,
            json!("stand-in: the recorded reply had the wrong shape"),
        ))
    };
    match fault {
        FaultKind::Timeout => Answer::Silence,
        FaultKind::Malformed => Answer::Line("stand-in: the recorded reply was not JSON".into()),
        FaultKind::WrongShape => Answer::Line(wrong_shape()),
        FaultKind::StaleId => Answer::Line(line(&FromBot::action(
            id.wrapping_add(1_000_000),
            Value::Null,
        ))),
        FaultKind::IllegalAction => Answer::Line(match reply {
            Some(action) => line(&FromBot::action(id, action.clone())),
            None => wrong_shape(),
        }),
        FaultKind::LineTooLong => Answer::Line("x".repeat(super::script::SCRIPT_LINE_BYTES + 1)),
        FaultKind::Exited
        | FaultKind::ResourceLimit
        | FaultKind::WriteFailed
        | FaultKind::SpawnFailed
        | FaultKind::StartupTimeout
        | FaultKind::ProtocolMismatch => Answer::Exit(Served::Exit {
            code: RECORDED_EXIT,
            note: format!(
                "stand-in: the recorded bot's process ended at its {} turn ({})",
                ordinal(turn),
                fault.as_str()
            ),
        }),
    }
}

/// The stand-in's `hello`, declaring `protocol` (1 when `None`).
fn hello(protocol: Option<u32>) -> String {
    line(&FromBot::<Value>::Hello(HelloReply {
        name: HELLO_NAME.into(),
        protocol: Some(protocol.unwrap_or(protocol::PROTOCOL_VERSION)),
        events: Some(false),
        view: None,
    }))
}

/// A message as one line (without its newline).
fn line(message: &FromBot) -> String {
    serde_json::to_string(message).expect("a message of JSON values serializes")
}

/// Writes `text` and a newline, and flushes.
fn send(output: &mut impl Write, text: &str) -> io::Result<()> {
    output.write_all(text.as_bytes())?;
    output.write_all(b"\n")?;
    output.flush()
}

#[cfg(test)]
#[path = "serve_tests.rs"]
mod tests;
