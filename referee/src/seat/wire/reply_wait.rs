//! The wait for one reply: the lines written before its request are stray, the first line
//! after it is its answer; a wait that ends without its reply is remembered, so that the reply,
//! when it comes late, is told as a [`LateReply`] rather than charged.

use super::stray::When;
use super::{BLANK_ALLOWANCE, Cut, Wire};
use crate::seat::Fault;
use crate::seat::lines::Piece;
use crate::seat::pipe::PipeRead;
use crate::seat::reply::parse;
use protocol::{FaultKind, FromBot};
use serde_json::Value;
use std::time::Duration;
use tokio::io::AsyncWrite;
use tokio::time::Instant;

/// How many requests whose wait ended without their reply are remembered, so that their late
/// replies are not faults.
const EXPIRED_KEPT: usize = 16;

/// A reply that came after the referee stopped waiting for it: dropped, and told with the
/// timeout it was ([`Wire::take_late_replies`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LateReply {
    /// The request it answers.
    pub id: u64,
    /// How long after the end of the wait it was read.
    pub after: Duration,
    /// Whether it was found already written when the referee next read (it came at most
    /// `after` late), rather than read as it came.
    pub at_most: bool,
}

impl LateReply {
    /// "; its reply came 512 ms after the limit", or "… at most 512 ms …" when it was found
    /// already written.
    pub fn note(&self) -> String {
        let at_most = if self.at_most { "at most " } else { "" };
        format!(
            "; its reply came {at_most}{} ms after the limit",
            self.after.as_millis()
        )
    }
}

/// What a wait for one reply is: to request `id`, until `deadline`, which enforces `limit` (as
/// fault messages name it, e.g. "the time limit of 200 ms"), with at most `max_noise` stray lines
/// (lines the bot began before the request was written) before the wait ends.
#[derive(Clone, Copy)]
pub struct ReplyWait<'a> {
    /// The request's id.
    pub id: u64,
    /// When the referee stops waiting.
    pub deadline: Instant,
    /// The time limit the deadline enforces, as fault messages name it (written out only for
    /// a fault).
    pub limit: &'a dyn std::fmt::Display,
    /// How many stray lines end the wait (the last of them its fault).
    pub max_noise: usize,
}

impl std::fmt::Debug for ReplyWait<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplyWait")
            .field("id", &self.id)
            .field("deadline", &self.deadline)
            .field("limit", &self.limit.to_string())
            .field("max_noise", &self.max_noise)
            .finish()
    }
}

impl<R: PipeRead, W: AsyncWrite + Unpin> Wire<R, W> {
    /// Takes, without waiting, every line the bot has written so far, just before request `id`
    /// is written: none of them can be its reply. Returns their faults (at most `max`; the
    /// rest stay unread), a line over the cap last. Then starts counting the blank lines of the
    /// wait ([`BLANK_ALLOWANCE`]), and remembers whether a line has begun: when it ends, it is
    /// stray too. The request gives the pace of the reads its burst back
    /// ([`LineReader::refill_pace`]).
    pub fn read_before_request(&mut self, id: u64, max: usize) -> Vec<Fault> {
        self.lines.refill_pace();
        let received = self.lines.received();
        let mut faults = Vec::new();
        while faults.len() < max {
            match self.lines.next_buffered() {
                Some(Ok(Piece::Line(line))) => {
                    faults.extend(self.stray_fault(&line, When::Before(id)));
                }
                Some(Ok(Piece::TooLong)) => {
                    faults.push(self.overlong_fault());
                    break;
                }
                Some(Ok(Piece::Blanks)) => {}
                // What could not be read is read (and told) by the wait.
                None | Some(Err(_)) => break,
            }
        }
        if self.lines.received() > received {
            // Bytes written outside a decision: the pipe is watched only during waits from now
            // on, so that such writes wake nobody ([`super::pipe`]).
            self.lines.unwatch();
        }
        self.started_early = self.lines.has_partial_line();
        self.lines.watch_blank(Some(BLANK_ALLOWANCE));
        faults
    }

    /// Reads lines until the `action` reply to request `wait.id`, or a cut that ends the wait.
    /// The first line that is not that reply is the bot's answer all the same: its fault ends
    /// the wait (and costs the decision), as do more than [`BLANK_ALLOWANCE`] blank lines. Only
    /// a line begun before the request was written ([`Wire::read_before_request`]) is a fault
    /// pushed to `noise` instead, unless it is the `wait.max_noise`-th. A late reply to a request
    /// whose wait ended is dropped silently, and so will be this request's own reply, once this
    /// wait has ended without it.
    pub async fn read_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Cut> {
        let reply = self.await_reply(wait, noise).await;
        self.lines.watch_blank(None);
        self.started_early = false;
        if reply.is_err() {
            self.expire(wait.id, wait.deadline.min(Instant::now()));
        }
        reply
    }

    async fn await_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Cut> {
        let id = wait.id;
        loop {
            let line = match self.next_piece(wait.deadline).await? {
                Piece::Line(line) => line,
                Piece::Blanks => return Err(Cut::Fault(blank_fault(id))),
                Piece::TooLong => return Err(Cut::Fault(self.overlong_fault())),
            };
            if std::mem::take(&mut self.started_early) {
                // Begun before the request was written: not its answer, whatever it says.
                if let Some(fault) = self.stray_fault(&line, When::Before(id)) {
                    if noise.len() + 1 >= wait.max_noise {
                        return Err(Cut::Fault(fault));
                    }
                    noise.push(fault);
                }
                continue;
            }
            match parse(&line) {
                Ok(FromBot::Action(reply)) if reply.id == id => return Ok(reply.action),
                _ => {
                    if let Some(fault) = self.stray_fault(&line, When::Pending(id)) {
                        return Err(Cut::Fault(fault));
                    }
                }
            }
        }
    }

    /// Remembers that the wait for request `id` ended without its reply at `ended`: a late
    /// reply to it is dropped silently.
    fn expire(&mut self, id: u64, ended: Instant) {
        if self.expired.len() == EXPIRED_KEPT {
            self.expired.pop_front();
        }
        self.expired.push_back((id, ended));
    }

    /// The late replies to requests whose wait ended without them read since the last take,
    /// in order.
    pub fn take_late_replies(&mut self) -> Vec<LateReply> {
        std::mem::take(&mut self.late)
    }
}

/// The fault of a bot that wrote more than [`BLANK_ALLOWANCE`] blank lines while request `id`
/// was pending: one, however many more it writes.
fn blank_fault(id: u64) -> Fault {
    Fault::new(
        FaultKind::Malformed,
        format!("more than {BLANK_ALLOWANCE} blank lines while request {id} is pending"),
    )
}
