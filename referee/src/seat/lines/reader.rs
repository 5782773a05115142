//! The reads of a bot's output into its [`LineBuffer`]: waiting for the bot, or taking what it
//! has already written without waiting, paced.

use super::buffer::{LineBuffer, Piece};
use crate::seat::pace::ReadPace;
use crate::seat::pipe::PipeRead;
use std::io;

/// How many bytes one read asks for at most.
const READ_CHUNK: usize = 64 * 1024;

/// How many small reads a bot's output is given at each request (and at its start) before the
/// pace's gap applies ([`crate::seat::pace`]): a reply written in up to this many pieces is seen
/// as soon as its newline comes.
pub(crate) const REQUEST_BURST: u32 = 8;

/// Lines read from a bot's output.
pub(crate) struct LineReader<R> {
    reader: R,
    /// What was read and not yet taken.
    lines: LineBuffer,
    /// Whether the stream has ended.
    eof: bool,
    /// Bytes read from the stream so far.
    received: u64,
    /// The pace of the small reads.
    pace: ReadPace,
}

impl<R: PipeRead> LineReader<R> {
    /// A reader of lines of at most `max` bytes from `reader`.
    pub fn new(reader: R, max: usize) -> Self {
        LineReader {
            reader,
            lines: LineBuffer::new(max),
            eof: false,
            received: 0,
            pace: ReadPace::new(REQUEST_BURST),
        }
    }

    /// Gives the pace its burst back: a request is about to be written.
    pub fn refill_pace(&mut self) {
        self.pace.refill();
    }

    /// Ends the pace's pause: the next read is made at once (at a deadline, a last look).
    pub fn lift_pace(&mut self) {
        self.pace.lift();
    }

    /// The stream read from.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// Arms the blank-line alarm with `allowance` (counting from now), or disarms it (`None`).
    pub fn watch_blank(&mut self, allowance: Option<u64>) {
        self.lines.watch_blank(allowance);
    }

    /// The beginning of the last line over the cap, once.
    pub fn take_overlong_head(&mut self) -> Option<Vec<u8>> {
        self.lines.take_overlong_head()
    }

    /// Whether the stream has ended and everything in it has been taken.
    pub fn at_end(&self) -> bool {
        self.eof && self.lines.is_empty()
    }

    /// Whether a line has begun but not ended: something other than blanks is in hand after
    /// the last complete line.
    pub fn has_partial_line(&self) -> bool {
        self.lines.has_partial_line()
    }

    /// How many bytes have been read from the stream so far.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The line begun and not ended, without the white space before it: empty when none is.
    pub fn partial_line(&self) -> &[u8] {
        self.lines.partial_line()
    }

    /// The next piece, waiting for the bot as long as it takes: `None` at the end of the
    /// stream. Cancel-safe: nothing read is lost when the future is dropped.
    ///
    /// What the bot has already written is taken first without waiting
    /// ([`LineReader::next_buffered`]): a bot that shares the referee's core usually runs as
    /// soon as its request is written and has replied by the time this is called, and its
    /// reply is then read with one `read(2)`, without a turn of tokio's reactor (an
    /// `epoll_wait`) or a timer. Only when nothing is there does the read wait, or, when the
    /// pace holds the next read, sleep until it may be made.
    pub async fn next(&mut self) -> Option<io::Result<Piece>> {
        loop {
            if let Some(piece) = self.next_buffered() {
                return Some(piece);
            }
            if self.eof {
                return self.lines.finish().map(Ok);
            }
            if let Some(at) = self.pace.hold() {
                tokio::time::sleep_until(at).await;
                continue;
            }
            let spare = self.lines.spare(READ_CHUNK);
            let asked = spare.len();
            match self.reader.read_wait(spare).await {
                Ok(0) => self.eof = true,
                // SAFETY: `n` bytes were written by the read into the spare capacity.
                Ok(n) => unsafe { self.filled(n, asked) },
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Some(Err(e)),
            }
        }
    }

    /// The next piece of what the bot has written so far, without waiting: `None` when there
    /// is none (yet, or at the end of the stream), or when the pace holds the next read.
    pub fn next_buffered(&mut self) -> Option<io::Result<Piece>> {
        loop {
            if let Some(piece) = self.lines.decode() {
                return Some(Ok(piece));
            }
            if self.eof {
                return self.lines.finish().map(Ok);
            }
            if self.pace.hold().is_some() {
                return None;
            }
            let spare = self.lines.spare(READ_CHUNK);
            let asked = spare.len();
            match self.reader.read_now(spare) {
                Ok(0) => self.eof = true,
                // SAFETY: `n` bytes were written by the read into the spare capacity.
                Ok(n) => unsafe { self.filled(n, asked) },
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.pace.found_nothing();
                    return None;
                }
                Err(e) => return Some(Err(e)),
            }
        }
    }

    /// Takes `n` bytes that a read of `asked` wrote into the buffer's spare capacity.
    ///
    /// # Safety
    /// The `n` bytes after the buffer's length must have been written.
    unsafe fn filled(&mut self, n: usize, asked: usize) {
        // SAFETY: the caller's promise.
        unsafe { self.lines.filled(n) };
        self.received += n as u64;
        self.pace.count(n, asked);
        if self.pace.hold().is_some() {
            // A drip: the pipe is watched only while a read waits, from now on.
            self.reader.unwatch();
        }
    }

    /// Says that the bot writes to this stream when it should not (outside a decision): from
    /// now on the pipe is watched only while a read waits.
    pub fn unwatch(&mut self) {
        self.reader.unwatch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::pace::GAP;
    use crate::seat::pipe::CountedReads;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;
    use tokio::io::{AsyncWriteExt, DuplexStream};
    use tokio::task::JoinHandle;
    use tokio::time::Instant;

    /// Every piece of `input` written at once, then the end: lines shown as text.
    async fn pieces(input: &[u8], max: usize, alarm: Option<u64>) -> (Vec<String>, u64) {
        let (mut bot, referee) = tokio::io::duplex(1 << 20);
        bot.write_all(input).await.unwrap();
        drop(bot);
        let mut reader = LineReader::new(referee, max);
        reader.watch_blank(alarm);
        let mut out = Vec::new();
        while let Some(piece) = reader.next().await {
            out.push(match piece.unwrap() {
                Piece::Line(line) => String::from_utf8_lossy(&line).into_owned(),
                Piece::Blanks => "<blanks>".to_string(),
                Piece::TooLong => "<too long>".to_string(),
            });
        }
        (out, reader.lines.blank())
    }

    #[tokio::test]
    async fn blank_lines_are_skipped_and_counted_and_the_alarm_rings_once() {
        let (lines, blank) = pieces(b"\n \r\n\t\na\n\n  b  \nc", 100, None).await;
        assert_eq!(lines, ["a", "  b  ", "c"]);
        assert_eq!(blank, 4);
        let flood = [b"x\n".as_slice(), &b"\n".repeat(100_000), b"y\n"].concat();
        let (lines, blank) = pieces(&flood, 100, Some(16)).await;
        assert_eq!(lines, ["x", "<blanks>", "y"]);
        assert_eq!(blank, 100_000);
        let (lines, _) = pieces(&b"\n".repeat(16), 100, Some(16)).await;
        assert!(lines.is_empty(), "16 blank lines are allowed: {lines:?}");
    }

    #[tokio::test]
    async fn a_line_over_the_cap_is_cut_and_the_next_one_read() {
        let input = [b"12345\n".as_slice(), b"123456789\n", b"ok\n"].concat();
        let (lines, _) = pieces(&input, 5, None).await;
        assert_eq!(lines, ["12345", "<too long>", "ok"]);
    }

    #[tokio::test]
    async fn what_was_written_is_taken_without_waiting_and_a_partial_line_is_seen() {
        let (mut bot, referee) = tokio::io::duplex(1 << 16);
        let mut reader = LineReader::new(referee, 100);
        assert!(reader.next_buffered().is_none());
        bot.write_all(b"one\n\n{\"par").await.unwrap();
        let Some(Ok(Piece::Line(line))) = reader.next_buffered() else {
            panic!("a line was written");
        };
        assert_eq!(&line[..], b"one");
        assert!(reader.next_buffered().is_none());
        assert!(reader.has_partial_line());
        assert_eq!(reader.partial_line(), b"{\"par");
        assert_eq!(reader.received(), 10);
        bot.write_all(b"tial\"}\n").await.unwrap();
        let Some(Ok(Piece::Line(line))) = reader.next().await else {
            panic!("the line ended");
        };
        assert_eq!(&line[..], b"{\"partial\"}");
        assert!(!reader.has_partial_line());
    }

    /// A reader of lines of up to 1 MiB from an in-memory pipe that counts its reads, and the
    /// bot's end of the pipe.
    fn counted() -> (LineReader<CountedReads>, Arc<AtomicUsize>, DuplexStream) {
        let (pipe, bot) = CountedReads::pipe();
        let reads = pipe.reads.clone();
        (LineReader::new(pipe, 1 << 20), reads, bot)
    }

    /// A bot that writes each of `pieces` in one `write`, `every` apart (and nothing after the
    /// last); its task gives back when it wrote the last, and its end of the pipe, still open.
    fn write_pieces(
        mut bot: DuplexStream,
        pieces: Vec<Vec<u8>>,
        every: Duration,
    ) -> JoinHandle<(Instant, DuplexStream)> {
        tokio::spawn(async move {
            let last = pieces.len();
            for (i, piece) in pieces.into_iter().enumerate() {
                bot.write_all(&piece).await.unwrap();
                if i + 1 < last {
                    tokio::time::sleep(every).await;
                }
            }
            (Instant::now(), bot)
        })
    }

    /// `text` a byte a piece.
    fn bytes(text: &[u8]) -> Vec<Vec<u8>> {
        text.iter().map(|&b| vec![b]).collect()
    }

    #[tokio::test(start_paused = true)]
    async fn a_line_dripped_a_byte_at_a_time_costs_a_read_per_gap_and_is_seen_a_gap_after_it_ends()
    {
        let (mut reader, reads, bot) = counted();
        // 10,000 spaces then a reply, a byte a millisecond (the timer's grain): 10 s of writes.
        let line = [vec![b' '; 10_000], b"{\"id\":1}\n".to_vec()].concat();
        let writes = line.len();
        let bot = write_pieces(bot, bytes(&line), Duration::from_millis(1));
        let started = Instant::now();
        let Some(Ok(Piece::Line(read))) = reader.next().await else {
            panic!("the line ends");
        };
        let seen = Instant::now();
        assert_eq!(read.trim_ascii(), b"{\"id\":1}");
        let (ended, _bot) = bot.await.unwrap();
        assert!(seen - ended <= GAP, "seen {:?} after its end", seen - ended);
        let gaps = ((seen - started).as_micros() / GAP.as_micros()) as usize;
        let reads = reads.load(Ordering::Relaxed);
        assert!(
            reads <= REQUEST_BURST as usize + gaps + 2,
            "{reads} reads of {writes} writes in {gaps} gaps"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_reply_in_a_few_pieces_is_seen_as_soon_as_its_newline_comes_at_every_request() {
        let (mut reader, reads, mut bot) = counted();
        for request in 1..=3 {
            reader.refill_pace();
            // Eight pieces, a millisecond apart: each read on its own.
            let reply = format!("{{\"type\":\"action\",\"id\":{request},\"action\":7}}\n");
            let pieces = reply.as_bytes().chunks(reply.len().div_ceil(8));
            let pieces: Vec<Vec<u8>> = pieces.map(<[u8]>::to_vec).collect();
            assert_eq!(pieces.len(), REQUEST_BURST as usize);
            let writer = write_pieces(bot, pieces, Duration::from_millis(1));
            let Some(Ok(Piece::Line(line))) = reader.next().await else {
                panic!("the reply ends");
            };
            let seen = Instant::now();
            assert_eq!(line, reply.trim_end().as_bytes());
            let (ended, rest) = writer.await.unwrap();
            assert_eq!(seen, ended, "seen at once (request {request})");
            bot = rest;
        }
        assert_eq!(reads.load(Ordering::Relaxed), 3 * REQUEST_BURST as usize);
    }

    #[tokio::test(start_paused = true)]
    async fn blank_lines_dripped_ring_the_alarm_within_a_gap_of_the_burst() {
        let (mut reader, reads, bot) = counted();
        reader.watch_blank(Some(16));
        let _bot = write_pieces(bot, bytes(&[b'\n'; 10_000]), Duration::from_millis(1));
        let started = Instant::now();
        let Some(Ok(Piece::Blanks)) = reader.next().await else {
            panic!("more blank lines than the allowance");
        };
        // The burst's reads, a millisecond apart, then one after the gap.
        let bound = Duration::from_millis(REQUEST_BURST.into()) + GAP;
        assert!(started.elapsed() <= bound, "{:?}", started.elapsed());
        assert!(reads.load(Ordering::Relaxed) <= REQUEST_BURST as usize + 1);
    }
}
