//! The talking part of a bot: protocol lines written to its input under a deadline, lines read
//! from its output with a hard length cap ([`LineReader`]) and matched to the request they
//! answer.
//!
//! A [`Wire`] is generic over the two byte streams, so that a [`ProcessBot`](super::ProcessBot)
//! talks over its pipes and a [`ScriptedBot`](super::ScriptedBot) over in-memory ones with the
//! same code. What the wire cannot explain by itself — silence until a deadline, the end of the
//! output, a failed read or write — it returns as a [`Cut`], which its owner turns into a fault
//! (a process knows its exit status, its stderr and its limits; a script does not).
//!
//! While a request is pending, the first line the bot writes is its answer: the reply, or the
//! one fault that costs the decision (`docs/protocol.md#faults`). Lines already written when the
//! request is written ([`Wire::read_before_request`]) are never its answer: they are stray.

use super::Fault;
use super::ending::Silence;
use super::lines::{LineReader, Piece};
use super::pipe::PipeRead;
use super::reply::{excerpt, parse};
use protocol::{FaultKind, FromBot};
use serde_json::Value;
use std::collections::VecDeque;
use std::time::Duration;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::time::{Instant, timeout, timeout_at};

/// How many requests whose wait ended without their reply are remembered, so that their late
/// replies are not faults.
const EXPIRED_KEPT: usize = 16;

/// How many blank (or white-space-only) lines a bot may write while a request is pending; the
/// next one is a fault (`docs/protocol.md#transport`).
pub const BLANK_ALLOWANCE: u64 = 16;

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

/// Why the wire got no line (or could not write), when it cannot say as a fault by itself.
#[derive(Debug)]
pub(crate) enum Cut {
    /// A fault the wire tells by itself: a line that is not the reply (or one stray line too
    /// many), blank lines past the allowance, a line over the cap, input already closed, input
    /// not read in time.
    Fault(Fault),
    /// Nothing came before the deadline.
    Silent,
    /// The bot's output ended.
    Closed,
    /// Reading from the bot (`"reading from"`) or writing to it (`"writing to"`) failed.
    Broken(&'static str, std::io::Error),
}

/// The fault of a bot that sent no reply within `limit`; `notes` say what else is known.
pub(crate) fn timeout_fault(limit: &str, notes: &str) -> Fault {
    Fault::new(
        FaultKind::Timeout,
        format!("no reply within {limit}{notes}"),
    )
}

/// What a failed read or write says: "reading from the bot failed (…)".
pub(crate) fn broken_message(doing: &str, e: &std::io::Error) -> String {
    format!("{doing} the bot failed ({e})")
}

/// What a wait for one reply is: to request `id`, until `deadline`, which enforces `limit` (as
/// fault messages name it, e.g. "the time limit of 200 ms"), with at most `max_noise` stray lines
/// (lines the bot began before the request was written) before the wait ends.
#[derive(Clone, Copy, Debug)]
pub struct ReplyWait<'a> {
    /// The request's id.
    pub id: u64,
    /// When the referee stops waiting.
    pub deadline: Instant,
    /// The time limit the deadline enforces, as fault messages name it.
    pub limit: &'a str,
    /// How many stray lines end the wait (the last of them its fault).
    pub max_noise: usize,
}

/// When a line that is not the awaited reply came, for its fault's message.
#[derive(Clone, Copy, Debug)]
enum When {
    /// While request `id` was pending: the bot's answer to it.
    Pending(u64),
    /// Before request `id` was written.
    Before(u64),
    /// While no request was pending.
    Unasked,
}

impl When {
    /// "while request 7 is pending", "before request 7 was written", …
    fn describe(self) -> String {
        match self {
            When::Pending(id) => format!("while request {id} is pending"),
            When::Before(id) => format!("before request {id} was written"),
            When::Unasked => "while no request is pending".to_string(),
        }
    }

    /// What the line costs, as its message ends: an answer costs the decision (the error
    /// says what was played instead); any other line is only ignored.
    fn cost(self) -> &'static str {
        match self {
            When::Pending(_) => "",
            When::Before(_) | When::Unasked => "; it is ignored",
        }
    }
}

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

    /// Reads what the bot writes with no request pending, until `deadline` or the end of its
    /// output, and returns the lines that are faults (anything but a late reply to a request
    /// that timed out) and whether its output ended.
    pub async fn read_unasked(&mut self, deadline: Instant) -> (Vec<Fault>, bool) {
        let mut faults = Vec::new();
        loop {
            match timeout_at(deadline, self.lines.next()).await {
                Err(_) => return (faults, false),
                Ok(None | Some(Err(_))) => return (faults, true),
                Ok(Some(Ok(piece))) => self.take_unasked(piece, &mut faults),
            }
        }
    }

    /// What the bot has written so far and not yet taken, with no request pending, as
    /// [`Wire::read_unasked`] returns it, but without waiting.
    pub fn take_read_lines(&mut self) -> (Vec<Fault>, bool) {
        let mut faults = Vec::new();
        loop {
            match self.lines.next_buffered() {
                None => return (faults, self.lines.at_end()),
                Some(Err(_)) => return (faults, true),
                Some(Ok(piece)) => self.take_unasked(piece, &mut faults),
            }
        }
    }

    /// Takes one piece read with no request pending, pushing its fault, if any, to `faults`.
    fn take_unasked(&mut self, piece: Piece, faults: &mut Vec<Fault>) {
        match piece {
            Piece::Line(line) => faults.extend(self.stray_fault(&line, When::Unasked)),
            Piece::TooLong => faults.push(self.overlong_fault()),
            Piece::Blanks => {}
        }
    }

    /// The fault of `line`, which is not the reply awaited (`when` says whether a request was
    /// pending, or about to be written), or `None` for a line dropped silently: a late reply to
    /// a request of an earlier match or to one whose wait ended without it (its fault, if any,
    /// was charged then).
    fn stray_fault(&mut self, line: &[u8], when: When) -> Option<Fault> {
        let shown = || excerpt(&String::from_utf8_lossy(line));
        let (while_, cost) = (when.describe(), when.cost());
        let parsed = parse(line);
        if let Ok(FromBot::Action(reply)) = &parsed {
            if reply.id < self.first_id {
                return None;
            }
            if let Some(k) = self.expired.iter().position(|&(e, _)| e == reply.id) {
                let (id, ended) = self.expired.remove(k)?;
                self.late.push(LateReply {
                    id,
                    after: Instant::now().saturating_duration_since(ended),
                    at_most: matches!(when, When::Before(_)),
                });
                return None;
            }
        }
        Some(match parsed {
            Ok(FromBot::Action(reply)) => {
                let why = match when {
                    When::Before(next) if reply.id == next => "written before its request",
                    _ => "a repeated or invented id",
                };
                Fault::new(
                    FaultKind::StaleId,
                    format!("a reply to request {} {while_} ({why}){cost}", reply.id),
                )
                .with_line(shown())
            }
            Ok(FromBot::Hello(_)) => {
                Fault::new(FaultKind::WrongShape, format!("a hello {while_}{cost}"))
                    .with_line(shown())
            }
            Err(fault) => fault,
        })
    }

    /// The fault of a line over the length cap, showing how it began.
    fn overlong_fault(&mut self) -> Fault {
        let fault = Fault::new(
            FaultKind::LineTooLong,
            format!(
                "a line longer than the referee's line-length cap of {}",
                bytes_text(self.max_line_bytes)
            ),
        );
        match self.lines.take_overlong_head() {
            Some(head) => fault.with_line(excerpt(&String::from_utf8_lossy(&head))),
            None => fault,
        }
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

/// A size in bytes as people write it: "1 MiB", "64 KiB", "1000 bytes".
fn bytes_text(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::lines::REQUEST_BURST;
    use super::super::pace::GAP;
    use super::*;
    use tokio::io::duplex;

    #[tokio::test]
    async fn a_bot_that_writes_outside_a_decision_has_its_pipe_watched_only_during_waits() {
        use std::io::Write;
        let (pipe, bot) = super::super::pipe::Pipe::pair();
        let mut wire = Wire::new(pipe, tokio::io::sink(), 1 << 20);
        let reply = |id: u64| format!("{{\"type\":\"action\",\"id\":{id},\"action\":1}}\n");
        let wait = |id| ReplyWait {
            id,
            deadline: Instant::now() + Duration::from_secs(600),
            limit: "a test's",
            max_noise: 8,
        };
        // Writes `bytes` once the referee waits.
        let later = |mut bot: std::fs::File, bytes: String| {
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                bot.write_all(bytes.as_bytes()).unwrap();
                bot
            })
        };
        // An honest bot: its pipe stays watched between decisions.
        assert!(wire.read_before_request(1, 8).is_empty());
        let writer = later(bot, reply(1));
        assert!(wire.read_reply(&wait(1), &mut Vec::new()).await.is_ok());
        assert!(wire.lines.get_ref().is_watched());
        let mut bot = writer.join().unwrap();
        // Bytes written between decisions: a fault, and the pipe watched only during waits.
        bot.write_all(b"\n\n").unwrap();
        bot.write_all(b"{}\n").unwrap();
        assert_eq!(wire.read_before_request(2, 8).len(), 1);
        assert!(!wire.lines.get_ref().is_watched());
        let writer = later(bot, reply(2));
        assert!(wire.read_reply(&wait(2), &mut Vec::new()).await.is_ok());
        assert!(!wire.lines.get_ref().is_watched(), "off after its wait");
        drop(writer.join().unwrap());
    }

    #[tokio::test(start_paused = true)]
    async fn a_reply_that_ends_in_the_pace_pause_is_read_at_its_deadline_not_timed_out() {
        let (mut bot, from_bot) = duplex(64 << 10);
        let (to_bot, _bot_reads) = duplex(64 << 10);
        let mut wire = Wire::new(from_bot, to_bot, 1 << 20);
        assert!(wire.read_before_request(1, 8).is_empty());
        let started = Instant::now();
        // The burst's small reads, a space a millisecond; the last begins the pause…
        let writer = tokio::spawn(async move {
            for _ in 0..REQUEST_BURST {
                bot.write_all(b" ").await.unwrap();
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            // …in which the reply ends.
            tokio::time::sleep(Duration::from_millis(4)).await;
            let reply = b"{\"type\":\"action\",\"id\":1,\"action\":7}\n";
            bot.write_all(reply).await.unwrap();
            bot
        });
        let pause_from = started + Duration::from_millis((REQUEST_BURST - 1).into());
        let deadline = pause_from + Duration::from_millis(10);
        assert!(
            deadline < pause_from + GAP,
            "the deadline falls in the pause"
        );
        let wait = ReplyWait {
            id: 1,
            deadline,
            limit: "a test's",
            max_noise: 8,
        };
        let reply = wire.read_reply(&wait, &mut Vec::new()).await;
        assert_eq!(
            reply.ok(),
            Some(serde_json::json!(7)),
            "read at the deadline"
        );
        assert_eq!(Instant::now(), deadline);
        let _bot = writer.await.unwrap();
    }
}
