//! A scripted bot: a task of the referee's own runtime that speaks the protocol over in-memory
//! pipes ([`tokio::io::duplex`]), for tests of the runner, the fault policy and replay — no
//! process, and under tokio's paused clock no wall clock either: a script that sleeps past its
//! time limit times out the same way on every machine.
//!
//! The referee's side is the same [`Wire`] a [`ProcessBot`](super::ProcessBot) has, and the
//! runner speaks to it through the same [`Talk`], so what is
//! written, read, capped and matched to requests is what a real bot gets; only the faults that
//! need a process (exit codes, stderr, resource limits) are not told. A script's standard error
//! ([`ScriptEnd::send_stderr`]) is kept as a process's is, at once (there is no pipe to drain),
//! so that what the match log records of it is exact.

use super::stderr::{RecentStderr, StderrTail};
use super::wire::{self, Cut, ReplyWait, Wire};
use super::{Fault, LateReply, Talk};
use protocol::FaultKind;
use serde_json::Value;
use std::future::Future;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tokio::task::JoinHandle;
use tokio::time::timeout;

/// How many bytes each pipe holds before a write waits, as a Linux pipe does.
const PIPE_BYTES: usize = 64 * 1024;

/// The bot's end of the pipes, which its script reads the referee's messages from and writes
/// its own lines to.
pub struct ScriptEnd {
    input: Lines<BufReader<DuplexStream>>,
    output: DuplexStream,
    stderr: StderrTail,
}

impl ScriptEnd {
    /// The next message from the referee, `None` once its input is closed (or a line is not
    /// JSON, which the referee never writes).
    pub async fn recv(&mut self) -> Option<Value> {
        let line = self.input.next_line().await.ok()??;
        serde_json::from_str(&line).ok()
    }

    /// Reads messages up to the next `request` and returns it, `None` once the input is closed.
    /// `seen` gets every message read, the request included.
    pub async fn request(&mut self, seen: &mut Vec<Value>) -> Option<Value> {
        loop {
            let message = self.recv().await?;
            seen.push(message.clone());
            if message["type"] == "request" {
                return Some(message);
            }
        }
    }

    /// Writes `line` and a newline. Fails once the referee has stopped reading.
    pub async fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        self.send_raw(line).await?;
        self.output.write_all(b"\n").await
    }

    /// Writes `text` as it is (a part of a line, say). Fails once the referee has stopped
    /// reading.
    pub async fn send_raw(&mut self, text: &str) -> std::io::Result<()> {
        self.output.write_all(text.as_bytes()).await
    }

    /// Writes `text` to the bot's standard error (kept by the referee at once).
    pub fn send_stderr(&self, text: &str) {
        self.stderr.push(text.as_bytes());
    }
}

/// A bot played by a script in-process, spoken to as a [`Talk`]: its faults are said with what
/// the wire alone knows.
pub struct ScriptedBot {
    /// The referee's end of the pipes.
    wire: Wire<DuplexStream, DuplexStream>,
    stderr: StderrTail,
    script: JoinHandle<()>,
    alive: bool,
}

impl ScriptedBot {
    /// Starts `script` on the current runtime with its end of the pipes; lines it writes are
    /// capped at `max_line_bytes`. The bot's output ends when the script returns.
    pub fn spawn<S, F>(max_line_bytes: usize, script: S) -> Self
    where
        S: FnOnce(ScriptEnd) -> F,
        F: Future<Output = ()> + Send + 'static,
    {
        let (to_bot, bot_reads) = tokio::io::duplex(PIPE_BYTES);
        let (bot_writes, from_bot) = tokio::io::duplex(PIPE_BYTES);
        let stderr = StderrTail::default();
        let end = ScriptEnd {
            input: BufReader::new(bot_reads).lines(),
            output: bot_writes,
            stderr: stderr.clone(),
        };
        ScriptedBot {
            wire: Wire::new(from_bot, to_bot, max_line_bytes),
            stderr,
            script: tokio::spawn(script(end)),
            alive: true,
        }
    }
}

impl Talk for ScriptedBot {
    fn is_alive(&self) -> bool {
        self.alive
    }

    async fn begin_match(&mut self, first_id: u64) {
        self.wire.begin_match(first_id);
    }

    async fn write(&mut self, bytes: &[u8], limit: Duration) -> Result<(), Fault> {
        (self.wire.write(bytes, limit).await).map_err(|cut| plain_fault(cut, &""))
    }

    fn read_before_request(&mut self, id: u64, max: usize) -> Vec<Fault> {
        self.wire.read_before_request(id, max)
    }

    async fn read_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Fault> {
        (self.wire.read_reply(wait, noise).await).map_err(|cut| plain_fault(cut, wait.limit))
    }

    fn take_late_replies(&mut self) -> Vec<LateReply> {
        self.wire.take_late_replies()
    }

    /// As a process's: writes `last`, closes the script's input, gives it `grace` to return,
    /// then stops it. Returns whether it returned by itself.
    async fn shutdown(&mut self, last: Option<&[u8]>, grace: Duration) -> bool {
        if !self.alive {
            return false;
        }
        if let Some(line) = last {
            let _ = self.wire.write(line, grace).await;
        }
        self.wire.close_input();
        let returned = timeout(grace, &mut self.script).await.is_ok();
        self.kill().await;
        returned
    }

    /// Stops the script at once.
    async fn kill(&mut self) {
        self.wire.close_input();
        self.script.abort();
        self.alive = false;
    }

    /// What the script wrote to its standard error since the last take.
    async fn take_stderr(&self) -> Option<RecentStderr> {
        self.stderr.take_recent()
    }
}

/// The fault of a cut of a script's wire, said with nothing more to add than the wire knows (a
/// script has no exit status, stderr pipe or limits): a time-out of `limit` (as fault messages
/// name it, e.g. "the time limit of 200 ms"), or an exit.
fn plain_fault(cut: Cut, limit: &dyn std::fmt::Display) -> Fault {
    match cut {
        Cut::Fault(fault) => fault,
        Cut::Silent => wire::timeout_fault(limit, ""),
        Cut::Closed => Fault::new(FaultKind::Exited, "the bot closed its standard output"),
        Cut::Broken(doing, e) => Fault::new(FaultKind::Exited, wire::broken_message(doing, &e)),
    }
}

impl Drop for ScriptedBot {
    fn drop(&mut self) {
        self.script.abort();
    }
}
