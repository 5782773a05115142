//! A bot process's side of the conversation: the handshake, then protocol lines written and
//! read over its [`Wire`](crate::seat::wire::Wire), each cut of the wire explained from the
//! process (`explain.rs`).

use super::ProcessBot;
use crate::seat::reply::{excerpt, parse};
use crate::seat::wire::ReplyWait;
use crate::seat::{Fault, LateReply};
use protocol::{FaultKind, FromBot, HelloReply, PROTOCOL_VERSION};
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;

impl ProcessBot {
    ///
    /// # Errors
    /// A fault when the reply is late, malformed, not a `hello`, or declares another protocol.
    pub async fn handshake(
        &mut self,
        hello_line: &[u8],
        startup: Duration,
    ) -> Result<HelloReply, Fault> {
        let deadline = Instant::now() + startup;
        self.write(hello_line, startup).await?;
        let line = match self.wire.read_line(deadline).await {
            Ok(line) => Ok(line),
            Err(cut) => Err(self.explain(cut, "the start-up limit").await),
        };
        let line = line.map_err(|f| match f.fault {
            // A silence of a bot still running: what came, if anything, says why.
            FaultKind::Timeout => Fault::new(
                FaultKind::StartupTimeout,
                format!(
                    "no hello reply within the start-up limit of {} ms: {}{}",
                    startup.as_millis(),
                    self.wire.silence().explain(),
                    self.limit_notes()
                ),
            ),
            _ => f,
        })?;
        match parse(&line)? {
            FromBot::Hello(reply) => match reply.protocol {
                Some(v) if v != PROTOCOL_VERSION => Err(Fault::new(
                    FaultKind::ProtocolMismatch,
                    format!(
                        "the bot speaks protocol {v}; this referee speaks protocol {PROTOCOL_VERSION}"
                    ),
                )),
                _ => Ok(reply),
            },
            FromBot::Action(_) => {
                let shown = excerpt(&String::from_utf8_lossy(&line));
                Err(Fault::new(
                    FaultKind::WrongShape,
                    format!(
                        "expected a hello reply {{\"type\":\"hello\",\"name\":...}}, got: {shown}"
                    ),
                )
                .with_line(shown))
            }
        }
    }

    /// Starts a match whose first request will have id `first_id`: what the bot wrote after
    /// the last match ended, and any reply to an earlier id, is not charged to this one.
    pub async fn begin_match(&mut self, first_id: u64) {
        self.wire.begin_match(first_id);
        self.stderr_gate.open_match();
    }

    /// Reads what the bot writes with no request pending, until `deadline` or the end of its
    /// output, and returns the lines that are faults (anything but a late reply to a request
    /// that timed out) and whether its output ended. `referee check` calls this between
    /// matches, so that what a bot writes there is seen, whatever the timing.
    pub async fn read_unasked(&mut self, deadline: Instant) -> (Vec<Fault>, bool) {
        self.wire.read_unasked(deadline).await
    }

    /// The lines already read from the bot and not yet taken, with no request pending, as
    /// [`ProcessBot::read_unasked`] returns them, but without waiting: when nothing the bot wrote
    /// is unread in its pipe ([`ProcessBot::output_unread`]), every line it has written so far.
    pub fn take_read_lines(&mut self) -> (Vec<Fault>, bool) {
        self.wire.take_read_lines()
    }

    /// Writes `bytes` (whole lines) to the bot's stdin within `limit`.
    ///
    /// # Errors
    /// [`FaultKind::WriteFailed`] when the bot does not read in time, [`FaultKind::Exited`] when
    /// its stdin is closed.
    pub async fn write(&mut self, bytes: &[u8], limit: Duration) -> Result<(), Fault> {
        match self.wire.write(bytes, limit).await {
            Ok(()) => Ok(()),
            Err(cut) => Err(self.explain(cut, "").await),
        }
    }

    /// Takes, without waiting, the lines the bot wrote before request `id` is written: stray
    /// lines, never its reply; at most `max` faults.
    pub fn read_before_request(&mut self, id: u64, max: usize) -> Vec<Fault> {
        self.wire.read_before_request(id, max)
    }

    /// The late replies to requests that timed out read since the last take
    /// ([`LateReply`]).
    pub fn take_late_replies(&mut self) -> Vec<LateReply> {
        self.wire.take_late_replies()
    }

    /// Reads lines until the `action` reply to the request `wait` is for, or a fault that ends
    /// the wait (a timeout's message names `wait.limit`).
    ///
    /// The first line that is not that reply — not JSON, not a protocol message, a reply to
    /// another id — is the bot's answer all the same: its fault ends the wait and costs the
    /// decision, once (the reply, if it follows, is dropped silently). So do more than
    /// [`BLANK_ALLOWANCE`](crate::seat::BLANK_ALLOWANCE) blank lines. A line the bot began before the
    /// request was written is pushed to `noise` instead, and the wait goes on; at
    /// `wait.max_noise` such lines it ends with the last one. A late reply to a request that
    /// timed out is dropped silently: its timeout was the fault.
    ///
    /// # Errors
    /// The fault that ends the wait: a line that is not the reply, blank lines, timeout, exit,
    /// an over-long line, or too much noise.
    pub async fn read_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Fault> {
        match self.wire.read_reply(wait, noise).await {
            Ok(action) => Ok(action),
            Err(cut) => Err(self.explain(cut, wait.limit).await),
        }
    }
}
