//! The kinds of bot misbehaviour the referee records.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a bot did wrong. Sent to the bot in an `error` message when it can still read, and
/// recorded in the match log and results.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The process could not be started at all.
    SpawnFailed,
    /// No `hello` reply within the start-up limit.
    StartupTimeout,
    /// The `hello` reply declared a protocol version the referee does not speak.
    ProtocolMismatch,
    /// No reply to a decision request within the time limit.
    Timeout,
    /// The process exited, or closed its standard output, while the referee still needed it.
    Exited,
    /// A line that is not valid JSON.
    Malformed,
    /// A line longer than the referee's line-length cap. The bot's output can no longer be
    /// trusted to be in step, so the bot is stopped.
    LineTooLong,
    /// Valid JSON that is not a message the referee expects at this point (wrong `type`, missing
    /// or mistyped fields, an action of the wrong shape for the phase).
    WrongShape,
    /// A reply whose `id` is not the id of the pending request (a late reply to an earlier
    /// request, a second reply to one request, or an invented id).
    StaleId,
    /// A well-formed action that the rules do not allow in the current state.
    IllegalAction,
    /// The referee could not write to the bot's standard input in time (the bot never reads).
    WriteFailed,
    /// The bot was killed for exceeding a resource limit: memory, CPU time or file size.
    ResourceLimit,
}

impl FaultKind {
    /// The snake_case name used on the wire and in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::SpawnFailed => "spawn_failed",
            FaultKind::StartupTimeout => "startup_timeout",
            FaultKind::ProtocolMismatch => "protocol_mismatch",
            FaultKind::Timeout => "timeout",
            FaultKind::Exited => "exited",
            FaultKind::Malformed => "malformed",
            FaultKind::LineTooLong => "line_too_long",
            FaultKind::WrongShape => "wrong_shape",
            FaultKind::StaleId => "stale_id",
            FaultKind::IllegalAction => "illegal_action",
            FaultKind::WriteFailed => "write_failed",
            FaultKind::ResourceLimit => "resource_limit",
        }
    }

    /// Whether the bot can no longer take part after this fault (its process is gone or was
    /// never usable), so every later decision of its seat is substituted without asking it.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            FaultKind::SpawnFailed
                | FaultKind::StartupTimeout
                | FaultKind::ProtocolMismatch
                | FaultKind::Exited
                | FaultKind::LineTooLong
                | FaultKind::WriteFailed
                | FaultKind::ResourceLimit
        )
    }
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
