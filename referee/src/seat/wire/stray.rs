//! Lines that are not the reply awaited: what each costs (a line before its request, a reply to
//! an id that is not pending, a hello, a line over the cap), and what the bot writes with no
//! request pending.

use super::{LateReply, Wire};
use crate::seat::Fault;
use crate::seat::lines::Piece;
use crate::seat::pipe::PipeRead;
use crate::seat::reply::{excerpt, parse};
use protocol::{FaultKind, FromBot};
use tokio::io::AsyncWrite;
use tokio::time::{Instant, timeout_at};

/// When a line that is not the awaited reply came, for its fault's message.
#[derive(Clone, Copy, Debug)]
pub(super) enum When {
    /// While request `id` was pending: the bot's answer to it.
    Pending(u64),
    /// Before request `id` was written.
    Before(u64),
    /// While no request was pending.
    Unasked,
}

impl When {
    /// "while request 7 is pending", "before request 7 was written", …
    pub(super) fn describe(self) -> String {
        match self {
            When::Pending(id) => format!("while request {id} is pending"),
            When::Before(id) => format!("before request {id} was written"),
            When::Unasked => "while no request is pending".to_string(),
        }
    }

    /// What the line costs, as its message ends: an answer costs the decision (the error
    /// says what was played instead); any other line is only ignored.
    pub(super) fn cost(self) -> &'static str {
        match self {
            When::Pending(_) => "",
            When::Before(_) | When::Unasked => "; it is ignored",
        }
    }
}

impl<R: PipeRead, W: AsyncWrite + Unpin> Wire<R, W> {
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
    pub(super) fn stray_fault(&mut self, line: &[u8], when: When) -> Option<Fault> {
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
    pub(super) fn overlong_fault(&mut self) -> Fault {
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

/// A size in bytes as people write it: "1 MiB", "64 KiB", "1000 bytes".
fn bytes_text(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}
