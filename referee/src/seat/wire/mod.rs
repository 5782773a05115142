//! The talking part of a bot: protocol lines written to its input under a deadline, lines read
//! from its output with a hard length cap ([`LineReader`]) and matched to the request they
//! answer.
//!
//! A [`Wire`] is generic over the two byte streams, so that a [`ProcessBot`](super::ProcessBot)
//! talks over its pipes and a [`ScriptedBot`](super::ScriptedBot) over in-memory ones with the
//! same code. What the wire cannot explain by itself — silence until a deadline, the end of the
//! output, a failed read or write — it returns as a [`Cut`], which its owner turns into a fault
//! (a process knows its exit status, its stderr and its limits; a script does not): `cut.rs`.
//!
//! While a request is pending, the first line the bot writes is its answer: the reply, or the
//! one fault that costs the decision (`docs/protocol.md#faults`). Lines already written when the
//! request is written ([`Wire::read_before_request`]) are never its answer: they are stray.
//! The wait for a reply is `reply_wait.rs`; what a line that is not the reply costs, and the
//! lines read with no request pending, `stray.rs`.

mod cut;
mod reply_wait;
mod stray;
#[cfg(test)]
mod tests;

pub(crate) use cut::{Cut, broken_message, timeout_fault};
pub use reply_wait::{LateReply, ReplyWait};

use super::Fault;
use super::ending::Silence;
use super::lines::{LineReader, Piece};
use super::pipe::PipeRead;
use protocol::FaultKind;
use std::collections::VecDeque;
use std::time::Duration;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::time::{Instant, timeout, timeout_at};

/// How many blank (or white-space-only) lines a bot may write while a request is pending; the
/// next one is a fault (`docs/protocol.md#transport`).
pub const BLANK_ALLOWANCE: u64 = 16;

/// The two byte streams of one bot, spoken to in protocol lines.
pub(crate) struct Wire<R, W> {
    input: Option<W>,
    lines: LineReader<R>,
    /// Requests whose wait ended without their reply (the most recent few), with when it
    /// ended: their late replies are dropped silently, and told as [`LateReply`]s.
    expired: VecDeque<(u64, Instant)>,
    /// The late replies read and not yet taken.
    late: Vec<LateReply>,
    /// The first request id of the current match: replies to earlier ids belong to an earlier
    /// match and are dropped silently.
    first_id: u64,
    /// The line-length cap, for fault messages.
    max_line_bytes: usize,
    /// Whether the next line was begun before the pending request was written.
    started_early: bool,
}

impl<R: PipeRead, W: AsyncWrite + Unpin> Wire<R, W> {
    /// A wire that reads lines of at most `max_line_bytes` from `output` and writes to `input`.
    pub fn new(output: R, input: W, max_line_bytes: usize) -> Self {
        Wire {
            input: Some(input),
            lines: LineReader::new(output, max_line_bytes),
            expired: VecDeque::new(),
            late: Vec::new(),
            first_id: 0,
            max_line_bytes,
            started_early: false,
        }
    }

    /// The bot's input, while it is open.
    pub fn input(&self) -> Option<&W> {
        self.input.as_ref()
    }

    /// The bot's output.
    pub fn output(&self) -> &R {
        self.lines.get_ref()
    }

    /// What came on the bot's output with no line in it, for a wait that ended in silence: not
    /// a byte, a line begun, or only blank lines.
    pub fn silence(&self) -> Silence {
        let partial = self.lines.partial_line();
        if !partial.is_empty() {
            Silence::PartialLine(partial.to_vec())
        } else if self.lines.received() == 0 {
            Silence::Nothing
        } else {
            Silence::Blanks
        }
    }

    /// Closes the bot's input: it reads the end of it.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Starts a match whose first request will have id `first_id`: what the bot wrote after
    /// the last match ended, and any reply to an earlier id, is not charged to this one.
    pub fn begin_match(&mut self, first_id: u64) {
        self.first_id = first_id;
        // Only what the bot has written by now, without waiting.
        while let Some(Ok(_)) = self.lines.next_buffered() {}
    }

    /// Writes `bytes` (whole lines) to the bot's input within `limit`.
    pub async fn write(&mut self, bytes: &[u8], limit: Duration) -> Result<(), Cut> {
        let Some(input) = self.input.as_mut() else {
            return Err(Cut::Fault(Fault::new(
                FaultKind::Exited,
                "the bot's standard input is closed",
            )));
        };
        match timeout(limit, async {
            input.write_all(bytes).await?;
            input.flush().await
        })
        .await
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Cut::Broken("writing to", e)),
            Err(_) => Err(Cut::Fault(Fault::new(
                FaultKind::WriteFailed,
                format!(
                    "the bot did not read its input within {} ms (its input pipe is full)",
                    limit.as_millis()
                ),
            ))),
        }
    }

    /// The next piece of the bot's output, until `deadline`; at the deadline, a last look at
    /// what the pipe holds, the pace's pause ended ([`LineReader::lift_pace`]): a reply
    /// written in time is never lost to the referee's pause.
    async fn next_piece(&mut self, deadline: Instant) -> Result<Piece, Cut> {
        let next = match timeout_at(deadline, self.lines.next()).await {
            Ok(next) => next,
            Err(_) => {
                self.lines.lift_pace();
                Some(self.lines.next_buffered().ok_or(Cut::Silent)?)
            }
        };
        match next {
            None => Err(Cut::Closed),
            Some(Err(e)) => Err(Cut::Broken("reading from", e)),
            Some(Ok(piece)) => Ok(piece),
        }
    }

    /// Reads the next line that is not blank, until `deadline`.
    pub async fn read_line(&mut self, deadline: Instant) -> Result<Vec<u8>, Cut> {
        loop {
            match self.next_piece(deadline).await? {
                Piece::Line(line) => return Ok(line.to_vec()),
                Piece::TooLong => return Err(Cut::Fault(self.overlong_fault())),
                Piece::Blanks => {}
            }
        }
    }
}
