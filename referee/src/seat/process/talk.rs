//! A bot process's side of the conversation ([`Talk`]): the handshake, then protocol lines
//! written and read over its [`Wire`], each cut of the wire explained from the process
//! (`explain.rs`); what else the runner asks of it is the process's own (its stderr, its CPU
//! time, its end).

use super::ProcessBot;
use crate::seat::pipe::Pipe;
use crate::seat::reply::{excerpt, parse};
use crate::seat::wire::{ReplyWait, Wire};
use crate::seat::{Fault, LateReply, RecentStderr, StderrOverflow, Talk};
use protocol::{FaultKind, FromBot, HelloReply, PROTOCOL_VERSION};
use serde_json::Value;
use std::time::Duration;
use tokio::process::ChildStdin;
use tokio::time::Instant;

impl ProcessBot {
    /// The bot's stdin and stdout, for what only `referee check` reads (what a bot writes with
    /// no request pending).
    pub(crate) fn wire(&mut self) -> &mut Wire<Pipe, ChildStdin> {
        &mut self.wire
    }

    /// Writes `hello_line` and waits up to `startup` for the bot's `hello` reply.
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
            Err(cut) => Err(self.explain(cut, &"the start-up limit").await),
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
}

impl Talk for ProcessBot {
    fn is_alive(&self) -> bool {
        ProcessBot::is_alive(self)
    }

    async fn begin_match(&mut self, first_id: u64) {
        self.wire.begin_match(first_id);
        self.stderr_gate.open_match();
    }

    async fn write(&mut self, bytes: &[u8], limit: Duration) -> Result<(), Fault> {
        match self.wire.write(bytes, limit).await {
            Ok(()) => Ok(()),
            Err(cut) => Err(self.explain(cut, &"").await),
        }
    }

    fn read_before_request(&mut self, id: u64, max: usize) -> Vec<Fault> {
        self.wire.read_before_request(id, max)
    }

    async fn read_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Fault> {
        match self.wire.read_reply(wait, noise).await {
            Ok(action) => Ok(action),
            Err(cut) => Err(self.explain(cut, wait.limit).await),
        }
    }

    fn take_late_replies(&mut self) -> Vec<LateReply> {
        self.wire.take_late_replies()
    }

    async fn shutdown(&mut self, last: Option<&[u8]>, grace: Duration) -> bool {
        ProcessBot::shutdown(self, last, grace).await
    }

    async fn kill(&mut self) {
        ProcessBot::kill(self).await;
    }

    async fn take_stderr(&self) -> Option<RecentStderr> {
        ProcessBot::take_stderr(self).await
    }

    fn cpu_time(&self) -> Option<Duration> {
        ProcessBot::cpu_time(self)
    }

    fn freeze(&self, frozen: bool) -> bool {
        ProcessBot::freeze(self, frozen)
    }

    fn open_stderr_decision(&self) {
        self.stderr_gate.open_decision();
    }

    fn take_stderr_overflow(&self) -> Option<StderrOverflow> {
        self.stderr_gate.take_overflow()
    }
}
