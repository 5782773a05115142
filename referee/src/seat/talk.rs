//! The conversation a match runner has with a seat's bot that speaks the protocol: what it
//! writes, what it reads back, how it looks at the bot's stderr and CPU time, and how it stops
//! it. A bot process ([`ProcessBot`](super::ProcessBot)) holds it in production; in tests a script does
//! (`scripted.rs`), so that the runner is tested over the same trait without processes.
//!
//! The runner is generic over it (a [`Seat`] names its bot's type, a [`ProcessBot`](super::ProcessBot)
//! unless a test says otherwise), so a decision's calls are static: no box, no virtual call.

use super::{Fault, LateReply, RecentStderr, ReplyWait, Seat, StderrOverflow};
use engine::Game;
use serde_json::Value;
use std::time::Duration;

/// The conversation with a seat's bot that speaks the protocol. Bot misbehaviour is a
/// [`Fault`], never an `Err` of the referee's.
// The futures are concrete at each use (a process, or a test's script), so no caller needs a
// bound on them.
#[allow(async_fn_in_trait)]
pub trait Talk {
    /// Whether the bot is still being spoken to.
    fn is_alive(&self) -> bool;

    /// Starts a match whose first request will have id `first_id`: what the bot wrote after
    /// the last match ended, and any reply to an earlier id, is not charged to this one.
    async fn begin_match(&mut self, first_id: u64);

    /// Writes `bytes` (whole lines) to the bot within `limit`.
    ///
    /// # Errors
    /// [`WriteFailed`](protocol::FaultKind::WriteFailed) when the bot does not read in time,
    /// [`Exited`](protocol::FaultKind::Exited) when it cannot read any more.
    async fn write(&mut self, bytes: &[u8], limit: Duration) -> Result<(), Fault>;

    /// Takes, without waiting, the lines the bot wrote before request `id` is written: stray
    /// lines, never its reply; at most `max` faults.
    fn read_before_request(&mut self, id: u64, max: usize) -> Vec<Fault>;

    /// Reads lines until the `action` reply to the request `wait` is for, or a fault that ends
    /// the wait (a timeout's message names `wait.limit`).
    ///
    /// The first line that is not that reply — not JSON, not a protocol message, a reply to
    /// another id — is the bot's answer all the same: its fault ends the wait and costs the
    /// decision, once (the reply, if it follows, is dropped silently). So do more than
    /// [`BLANK_ALLOWANCE`](super::BLANK_ALLOWANCE) blank lines. A line the bot began before the
    /// request was written is pushed to `noise` instead, and the wait goes on; at
    /// `wait.max_noise` such lines it ends with the last one. A late reply to a request that
    /// timed out is dropped silently: its timeout was the fault.
    ///
    /// # Errors
    /// The fault that ends the wait: a line that is not the reply, blank lines, timeout, exit,
    /// an over-long line, or too much noise.
    async fn read_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Fault>;

    /// The late replies to requests that timed out read since the last take.
    fn take_late_replies(&mut self) -> Vec<LateReply>;

    /// Writes `last` (a `goodbye`, or the `error` saying why the bot is stopped), closes the
    /// bot's input, gives it `grace` to end, then stops it. Returns whether it ended by itself
    /// (`false` too when it had been stopped already).
    async fn shutdown(&mut self, last: Option<&[u8]>, grace: Duration) -> bool;

    /// Stops the bot at once.
    async fn kill(&mut self);

    /// What the bot wrote to its standard error since the last take.
    async fn take_stderr(&self) -> Option<RecentStderr>;

    /// The CPU time of all the bot's processes so far; `None` when it is not accounted.
    fn cpu_time(&self) -> Option<Duration> {
        None
    }

    /// Freezes (`true`) or thaws every process of the bot; whether it could.
    fn freeze(&self, _frozen: bool) -> bool {
        false
    }

    /// Opens the stderr budget of a decision: the bot is about to be sent a request.
    fn open_stderr_decision(&self) {}

    /// What of the bot's stderr went over its budget or its file's cap since the last take
    /// (`None`: nothing), for the record of the match just played.
    fn take_stderr_overflow(&self) -> Option<StderrOverflow> {
        None
    }
}

impl<G: Game, B: Talk> Seat<G, B> {
    /// The seat's bot, when it speaks the protocol.
    pub fn talker(&mut self) -> Option<&mut B> {
        match self {
            Seat::Process(bot) => Some(bot),
            Seat::Builtin(_) | Seat::Absent => None,
        }
    }

    /// Whether the seat's bot speaks the protocol.
    pub fn talks(&self) -> bool {
        matches!(self, Seat::Process(_))
    }
}
