//! The talking part of a bot: protocol lines written to its input under a deadline, lines read
//! from its output with a hard length cap and matched to the request they answer.
//!
//! A [`Wire`] is generic over the two byte streams, so that a [`ProcessBot`](super::ProcessBot)
//! talks over its pipes and a [`ScriptedBot`](super::ScriptedBot) over in-memory ones with the
//! same code. What the wire cannot explain by itself — silence until a deadline, the end of the
//! output, a failed read or write — it returns as a [`Cut`], which its owner turns into a fault
//! (a process knows its exit status, its stderr and its limits; a script does not).

use super::Fault;
use super::reply::{excerpt, parse};
use futures::StreamExt;
use protocol::{FaultKind, FromBot};
use serde_json::Value;
use std::collections::VecDeque;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::time::{Instant, timeout, timeout_at};
use tokio_util::bytes::{Bytes, BytesMut};
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, FramedRead};

/// How many timed-out request ids are remembered, so that their late replies are not faults.
const EXPIRED_KEPT: usize = 16;

/// How many bytes of an over-long line are kept to show what it was.
const OVERLONG_HEAD: usize = 200;

/// The start of the message of a bot whose output ended.
pub(crate) const OUTPUT_CLOSED: &str = "the bot closed its standard output";

/// Newline-delimited lines with a length cap ([`AnyDelimiterCodec`]) that keeps the first
/// bytes of a line over the cap, so that its fault can show how it began.
struct CappedLines {
    inner: AnyDelimiterCodec,
    /// The beginning of the last line over the cap, until it is taken.
    overlong_head: Option<Vec<u8>>,
}

impl CappedLines {
    fn keep_head<T>(
        &mut self,
        buf: &[u8],
        decoded: Result<T, AnyDelimiterCodecError>,
    ) -> Result<T, AnyDelimiterCodecError> {
        if let Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) = &decoded {
            // The codec has not dropped anything yet: the buffer starts with the line.
            self.overlong_head = Some(buf[..buf.len().min(OVERLONG_HEAD)].to_vec());
        }
        decoded
    }
}

impl Decoder for CappedLines {
    type Item = Bytes;
    type Error = AnyDelimiterCodecError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error> {
        let decoded = self.inner.decode(buf);
        self.keep_head(buf, decoded)
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error> {
        let decoded = self.inner.decode_eof(buf);
        self.keep_head(buf, decoded)
    }
}

/// Why the wire got no line (or could not write), when it cannot say as a fault by itself.
#[derive(Debug)]
pub(crate) enum Cut {
    /// A fault the wire tells by itself: a line over the cap, one stray line too many, input
    /// already closed, input not read in time.
    Fault(Fault),
    /// Nothing came before the deadline.
    Silent,
    /// The bot's output ended.
    Closed,
    /// Reading from the bot (`"reading from"`) or writing to it (`"writing to"`) failed.
    Broken(&'static str, std::io::Error),
}

impl Cut {
    /// The fault, said with nothing more to add than the wire knows: a time-out of `limit` (as
    /// fault messages name it, e.g. "the time limit of 200 ms"), or an exit.
    pub(crate) fn plain_fault(self, limit: &str) -> Fault {
        match self {
            Cut::Fault(fault) => fault,
            Cut::Silent => timeout_fault(limit, ""),
            Cut::Closed => Fault::new(FaultKind::Exited, OUTPUT_CLOSED),
            Cut::Broken(doing, e) => Fault::new(FaultKind::Exited, broken_message(doing, &e)),
        }
    }
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
/// before the wait ends.
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

/// The two byte streams of one bot, spoken to in protocol lines.
pub(crate) struct Wire<R, W> {
    input: Option<W>,
    lines: FramedRead<R, CappedLines>,
    /// Requests that timed out (the most recent few): their late replies are dropped silently.
    expired: VecDeque<u64>,
    /// The first request id of the current match: replies to earlier ids belong to an earlier
    /// match and are dropped silently.
    first_id: u64,
    /// The line-length cap, for fault messages.
    max_line_bytes: usize,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Wire<R, W> {
    /// A wire that reads lines of at most `max_line_bytes` from `output` and writes to `input`.
    pub fn new(output: R, input: W, max_line_bytes: usize) -> Self {
        Wire {
            input: Some(input),
            lines: FramedRead::new(
                output,
                CappedLines {
                    inner: AnyDelimiterCodec::new_with_max_length(
                        b"\n".to_vec(),
                        b"\n".to_vec(),
                        max_line_bytes,
                    ),
                    overlong_head: None,
                },
            ),
            expired: VecDeque::new(),
            first_id: 0,
            max_line_bytes,
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

    /// Closes the bot's input: it reads the end of it.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Starts a match whose first request will have id `first_id`: what the bot wrote after
    /// the last match ended, and any reply to an earlier id, is not charged to this one.
    pub fn begin_match(&mut self, first_id: u64) {
        self.first_id = first_id;
        // Only what has already arrived: one poll each, no timer.
        while let Some(Some(Ok(_))) = futures::FutureExt::now_or_never(self.lines.next()) {}
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

    /// Reads lines until the `action` reply to request `wait.id`, or a cut that ends the wait.
    /// Lines that are not that reply are faults pushed to `noise`, and the wait goes on until the
    /// deadline; after `wait.max_noise` of them the wait ends with the last one. When the
    /// deadline passes, the request is remembered as timed out: a late reply to it is dropped
    /// silently.
    pub async fn read_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Cut> {
        let id = wait.id;
        loop {
            let line = match self.read_line(wait.deadline).await {
                Err(Cut::Silent) => {
                    self.expire(id);
                    return Err(Cut::Silent);
                }
                read => read?,
            };
            let fault = match parse(&line) {
                Ok(FromBot::Action(reply)) if reply.id == id => return Ok(reply.action),
                _ => match self.stray_fault(&line, Some(id)) {
                    Some(fault) => fault,
                    None => continue,
                },
            };
            if noise.len() + 1 >= wait.max_noise {
                return Err(Cut::Fault(fault));
            }
            noise.push(fault);
        }
    }

    /// Remembers that request `id` timed out: a late reply to it is dropped silently.
    fn expire(&mut self, id: u64) {
        if self.expired.len() == EXPIRED_KEPT {
            self.expired.pop_front();
        }
        self.expired.push_back(id);
    }

    /// Reads the next line that is not blank, until `deadline`.
    pub async fn read_line(&mut self, deadline: Instant) -> Result<Vec<u8>, Cut> {
        loop {
            return match timeout_at(deadline, self.lines.next()).await {
                Err(_) => Err(Cut::Silent),
                Ok(None) => Err(Cut::Closed),
                Ok(Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded))) => {
                    Err(Cut::Fault(self.overlong_fault()))
                }
                Ok(Some(Err(AnyDelimiterCodecError::Io(e)))) => Err(Cut::Broken("reading from", e)),
                Ok(Some(Ok(line))) if line.trim_ascii().is_empty() => continue,
                Ok(Some(Ok(line))) => Ok(line.to_vec()),
            };
        }
    }

    /// Reads what the bot writes with no request pending, until `deadline` or the end of its
    /// output, and returns the lines that are faults (anything but a late reply to a request
    /// that timed out) and whether its output ended.
    pub async fn read_unasked(&mut self, deadline: Instant) -> (Vec<Fault>, bool) {
        let mut faults = Vec::new();
        loop {
            let read = timeout_at(deadline, self.lines.next()).await.ok();
            if let Some(ended) = self.take_unasked(read, &mut faults) {
                return (faults, ended);
            }
        }
    }

    /// The lines already read and not yet taken, with no request pending, as
    /// [`Wire::read_unasked`] returns them, but without waiting.
    pub fn take_read_lines(&mut self) -> (Vec<Fault>, bool) {
        let mut faults = Vec::new();
        loop {
            let read = futures::FutureExt::now_or_never(self.lines.next());
            if let Some(ended) = self.take_unasked(read, &mut faults) {
                return (faults, ended);
            }
        }
    }

    /// Takes one read of a line with no request pending (`None`: nothing came), pushing its
    /// fault, if any, to `faults`; returns whether the reading stops, and then whether the
    /// output ended.
    fn take_unasked(
        &mut self,
        read: Option<Option<Result<Bytes, AnyDelimiterCodecError>>>,
        faults: &mut Vec<Fault>,
    ) -> Option<bool> {
        match read {
            None => Some(false),
            Some(None | Some(Err(AnyDelimiterCodecError::Io(_)))) => Some(true),
            Some(Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded))) => {
                faults.push(self.overlong_fault());
                None
            }
            Some(Some(Ok(line))) if line.trim_ascii().is_empty() => None,
            Some(Some(Ok(line))) => {
                faults.extend(self.stray_fault(&line, None));
                None
            }
        }
    }

    /// The fault of `line`, which is not the reply awaited (to request `pending`, if any), or
    /// `None` for a line dropped silently: a late reply to a request of an earlier match or to
    /// one that timed out (its timeout was the fault).
    fn stray_fault(&mut self, line: &[u8], pending: Option<u64>) -> Option<Fault> {
        let shown = || excerpt(&String::from_utf8_lossy(line));
        let while_ = match pending {
            Some(id) => format!("while request {id} is pending"),
            None => "while no request is pending".to_string(),
        };
        Some(match parse(line) {
            Ok(FromBot::Action(reply)) if reply.id < self.first_id => return None,
            Ok(FromBot::Action(reply)) if self.expired.contains(&reply.id) => {
                self.expired.retain(|&e| e != reply.id);
                return None;
            }
            Ok(FromBot::Action(reply)) => Fault::new(
                FaultKind::StaleId,
                format!(
                    "a reply to request {} {while_} (a repeated or invented id); it is ignored",
                    reply.id
                ),
            )
            .with_line(shown()),
            Ok(FromBot::Hello(_)) => Fault::new(
                FaultKind::WrongShape,
                format!("a hello {while_}; it is ignored"),
            )
            .with_line(shown()),
            Err(fault) => fault,
        })
    }

    /// The fault of a line over the length cap, showing how it began.
    fn overlong_fault(&mut self) -> Fault {
        let head = self.lines.decoder_mut().overlong_head.take();
        let fault = Fault::new(
            FaultKind::LineTooLong,
            format!(
                "a line longer than the referee's line-length cap of {}",
                bytes_text(self.max_line_bytes)
            ),
        );
        match head {
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
