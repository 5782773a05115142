//! The task that reads a bot's stderr: as much as its budget allows ([`StderrGate`]), in reads
//! of [`READ_BYTES`] (a big read costs the referee less per byte), into the tail
//! ([`StderrTail`]) and up to a cap into a file, counting what it took ([`StderrCount`]).
//!
//! Its reads are paced ([`super::super::pace`], with no burst: nobody waits on a bot's
//! stderr): after a small read it reads again only once the pace's gap has passed, or a window
//! opens, or the referee [hurries](StderrGate::hurry) it. A bot that writes a byte at a time
//! costs the referee a read per gap, whatever the number of its writes; the bytes wait in the
//! pipe meanwhile, and the bot waits on its writes only if it fills the pipe within a gap.

use super::budget::StderrGate;
use super::count::StderrCount;
use super::sink::{Saved, Sink};
use super::tail::StderrTail;
use crate::seat::pace::ReadPace;
use crate::seat::pipe::PipeRead;
use std::io;
use tokio::io::AsyncWriteExt;

/// The most bytes one read of a bot's stderr takes: a pipe's default capacity.
pub const READ_BYTES: usize = 64 << 10;

/// Reads `stream` to its end as `gate` allows, keeping the tail and writing up to `cap` bytes
/// to `file` (bytes past it are counted dropped), counted in `count`. Once the budget is spent
/// it reads one byte more, to learn whether the bot has more to write (a stop) or its stderr
/// has ended, and waits with it for the next window. Small reads are paced (the
/// [module documentation](self)).
pub async fn drain(
    mut stream: impl PipeRead,
    tail: StderrTail,
    file: Option<tokio::fs::File>,
    cap: u64,
    count: StderrCount,
    gate: StderrGate,
) {
    let mut sink = Sink {
        tail,
        saved: file.map_or(Saved::Nowhere, |f| Saved::Open(f, 0)),
        cap,
        count,
        gate,
    };
    let mut buf = vec![0u8; READ_BYTES];
    let mut pace = ReadPace::new(0);
    loop {
        if let Some(at) = pace.hold() {
            sink.gate.pause_until(at).await;
        }
        let room = sink.gate.room();
        let want = if room == 0 {
            1
        } else {
            room.min(READ_BYTES as u64) as usize
        };
        let n = match read_next(&mut stream, &mut buf[..want]).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        pace.count(n, want);
        if pace.hold().is_some() {
            stream.unwatch();
        }
        sink.count.add_read(n as u64);
        if room == 0 {
            sink.gate.wait_for_room().await;
        }
        sink.take(&buf[..n]).await;
    }
    if let Saved::Open(mut f, _) = sink.saved {
        let _ = f.flush().await;
    }
}

/// Reads what `stream` holds now, or waits for what comes next.
async fn read_next(stream: &mut impl PipeRead, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match stream.read_now(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return stream.read_wait(buf).await,
            read => return read,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::budget::StderrBudget;
    use super::super::sink::CAPPED;
    use super::*;
    use crate::seat::pace::GAP;
    use crate::seat::pipe::CountedReads;
    use std::sync::Arc;
    use std::time::Duration;
    use tokio::io::{AsyncWriteExt, DuplexStream, duplex};
    use tokio::task::JoinHandle;

    const KIB: u64 = 1 << 10;

    /// A drain over an in-memory pipe (16 KiB, like a small pipe), with the budget `budget` and
    /// a file capped at `cap` if any.
    struct Pipe {
        writer: Option<DuplexStream>,
        tail: StderrTail,
        count: StderrCount,
        gate: StderrGate,
        drain: JoinHandle<()>,
    }

    fn pipe(budget: StderrBudget, file: Option<tokio::fs::File>, cap: u64) -> Pipe {
        let (writer, reader) = duplex(16 * KIB as usize);
        let tail = StderrTail::default();
        let count = StderrCount::default();
        let gate = StderrGate::new(budget);
        let drain = tokio::spawn(drain(
            reader,
            tail.clone(),
            file,
            cap,
            count.clone(),
            gate.clone(),
        ));
        Pipe {
            writer: Some(writer),
            tail,
            count,
            gate,
            drain,
        }
    }

    fn budget(per_decision: u64, per_match: u64) -> StderrBudget {
        StderrBudget {
            per_decision: Some(per_decision),
            per_match: Some(per_match),
        }
    }

    /// Until every task waits (the paused clock moves only then).
    async fn settle() {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }

    /// A bot that writes `bytes` (numbered lines) as fast as it can, then closes its stderr;
    /// its task ends when all is written.
    fn flood(pipe: &mut Pipe, bytes: u64) -> JoinHandle<()> {
        let mut writer = pipe.writer.take().unwrap();
        tokio::spawn(async move {
            let mut line = 0u64;
            let mut left = bytes;
            while left > 0 {
                let text = format!("{line:>1023}\n");
                let n = left.min(text.len() as u64) as usize;
                writer.write_all(&text.as_bytes()[..n]).await.unwrap();
                left -= n as u64;
                line += 1;
            }
        })
    }

    #[tokio::test(start_paused = true)]
    async fn past_its_window_the_drain_reads_nothing_and_the_writer_waits_until_the_next() {
        let mut p = pipe(budget(100 * KIB, 1 << 30), None, 0);
        let bot = flood(&mut p, 1000 * KIB);
        settle().await;
        // The start-up's window, and the byte that tells the bot has more.
        assert_eq!(p.count.read(), 100 * KIB + 1);
        assert!(p.gate.is_stopped());
        assert!(!bot.is_finished(), "the bot waits on its own writes");
        for window in 2..=10 {
            p.gate.open_decision();
            settle().await;
            let held = u64::from(window < 10);
            assert_eq!(p.count.read(), window * 100 * KIB + held);
        }
        assert!(bot.is_finished());
        let overflow = p.gate.take_overflow().unwrap();
        assert_eq!(
            (overflow.stops, overflow.dropped),
            (9, 0),
            "no file: nothing dropped"
        );
        // It wrote no more than the tenth window: no stop, and the end read.
        assert!(!p.gate.is_stopped());
        assert!(p.drain.is_finished());
        assert!(p.tail.text().ends_with(&format!("{:>1023}\n", 999)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_match_budget_spent_holds_until_the_next_match() {
        let mut p = pipe(budget(100 * KIB, 250 * KIB), None, 0);
        let _bot = flood(&mut p, 1000 * KIB);
        p.gate.open_match();
        settle().await;
        p.gate.open_decision();
        settle().await;
        p.gate.open_decision();
        settle().await;
        assert_eq!(p.count.read(), 250 * KIB + 1);
        p.gate.open_decision();
        settle().await;
        assert_eq!(p.count.read(), 250 * KIB + 1, "the match's budget is spent");
        assert!(p.gate.is_stopped());
        p.gate.open_match();
        settle().await;
        assert_eq!(p.count.read(), 350 * KIB + 1);
        // Each window ended with more to write; the decision opened with the match's budget
        // spent was no window.
        assert_eq!(p.gate.take_overflow().unwrap().stops, 4);
    }

    #[tokio::test(start_paused = true)]
    async fn a_bot_that_writes_exactly_its_budget_is_never_stopped() {
        let mut p = pipe(budget(100 * KIB, 1 << 30), None, 0);
        let bot = flood(&mut p, 100 * KIB);
        settle().await;
        assert!(bot.is_finished());
        assert!(p.drain.is_finished(), "its stderr ended within the budget");
        assert_eq!(p.count.read(), 100 * KIB);
        assert_eq!(p.gate.take_overflow(), None);
    }

    #[tokio::test(start_paused = true)]
    async fn once_the_bot_is_gone_the_drain_reads_what_the_pipe_holds_past_every_budget() {
        let mut p = pipe(budget(10 * KIB, 10 * KIB), None, 0);
        let mut writer = p.writer.take().unwrap();
        // 40 KiB of dots, then its last words, then gone: the pipe (16 KiB) holds only part.
        let last = "Traceback: the end\n";
        let bot = tokio::spawn(async move {
            writer.write_all(&[b'.'; 40 << 10]).await.unwrap();
            writer.write_all(last.as_bytes()).await.unwrap();
        });
        settle().await;
        assert!(p.gate.is_stopped() && !bot.is_finished());
        // The referee's goodbye window, then its ending: what the pipe holds, and no more.
        p.gate.open_ending(10 * KIB);
        settle().await;
        p.gate.open_ending(40 * KIB);
        settle().await;
        assert!(bot.is_finished() && p.drain.is_finished());
        assert!(p.tail.text().ends_with(last), "the real end");
        assert_eq!(p.count.read(), (40 << 10) + last.len() as u64);
    }

    #[tokio::test(start_paused = true)]
    async fn bytes_past_the_files_cap_are_dropped_and_counted_and_the_file_holds_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.stderr");
        let file = tokio::fs::File::create(&path).await.unwrap();
        let mut p = pipe(budget(64 * KIB, 1 << 30), Some(file), 10 * KIB);
        let _bot = flood(&mut p, 100 * KIB);
        settle().await;
        let saved = std::fs::read(&path).unwrap();
        assert_eq!(saved.len(), 10 * KIB as usize + CAPPED.len());
        assert!(saved.ends_with(CAPPED));
        assert_eq!(p.count.position(), saved.len() as u64);
        let overflow = p.gate.take_overflow().unwrap();
        assert_eq!((overflow.stops, overflow.dropped), (1, 54 * KIB));
        p.gate.open_decision();
        settle().await;
        assert_eq!(p.gate.take_overflow().unwrap().dropped, 36 * KIB);
        assert_eq!(std::fs::read(&path).unwrap().len(), saved.len());
    }

    #[tokio::test(start_paused = true)]
    async fn without_a_budget_everything_is_read_at_once() {
        let mut p = pipe(StderrBudget::default(), None, 0);
        let bot = flood(&mut p, 4 << 20);
        settle().await;
        assert!(bot.is_finished() && p.drain.is_finished());
        assert_eq!(p.count.read(), 4 << 20);
        assert_eq!(p.gate.take_overflow(), None);
    }

    /// A drain with a budget far above what the tests write, over an in-memory pipe that
    /// counts its reads; the bot's end of the pipe.
    fn counted() -> (Pipe, Arc<std::sync::atomic::AtomicUsize>) {
        let (pipe, writer) = CountedReads::pipe();
        let reads = pipe.reads.clone();
        let tail = StderrTail::default();
        let count = StderrCount::default();
        let gate = StderrGate::new(budget(1 << 20, 16 << 20));
        let drain = tokio::spawn(drain(
            pipe,
            tail.clone(),
            None,
            0,
            count.clone(),
            gate.clone(),
        ));
        let p = Pipe {
            writer: Some(writer),
            tail,
            count,
            gate,
            drain,
        };
        (p, reads)
    }

    #[tokio::test(start_paused = true)]
    async fn a_drip_costs_a_read_per_gap_and_every_byte_arrives() {
        let (mut p, reads) = counted();
        let mut writer = p.writer.take().unwrap();
        // 10,000 bytes, one `write` each, a millisecond apart (the timer's grain); then its end.
        let bot = tokio::spawn(async move {
            for _ in 0..10_000 {
                writer.write_all(b"x").await.unwrap();
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            writer.write_all(b"end\n").await.unwrap();
        });
        let started = tokio::time::Instant::now();
        bot.await.unwrap();
        (&mut p.drain).await.unwrap();
        let gaps = (started.elapsed().as_micros() / GAP.as_micros()) as usize;
        let reads = reads.load(std::sync::atomic::Ordering::Relaxed);
        assert!(reads <= gaps + 2, "{reads} reads in {gaps} gaps");
        assert_eq!(p.count.read(), 10_004);
        assert!(p.tail.text().ends_with("xxend\n"));
        assert_eq!(p.gate.take_overflow(), None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_hurry_or_a_window_opening_ends_the_pause_at_once() {
        let (mut p, reads) = counted();
        let mut writer = p.writer.take().unwrap();
        writer.write_all(b"a").await.unwrap();
        settle_now().await;
        assert_eq!(p.count.read(), 1);
        let started = tokio::time::Instant::now();
        // The drain pauses after its small read: what comes waits in the pipe…
        writer.write_all(b"b").await.unwrap();
        settle_now().await;
        assert_eq!(p.count.read(), 1);
        // …until the referee wants it, or a window opens.
        p.gate.hurry();
        settle_now().await;
        assert_eq!(p.count.read(), 2);
        writer.write_all(b"c").await.unwrap();
        p.gate.open_decision();
        settle_now().await;
        assert_eq!(p.count.read(), 3);
        assert_eq!(started.elapsed(), Duration::ZERO, "no time passed");
        assert_eq!(p.tail.text(), "abc");
        assert_eq!(reads.load(std::sync::atomic::Ordering::Relaxed), 3);
    }

    /// Until every task waits, without moving the paused clock.
    async fn settle_now() {
        for _ in 0..16 {
            tokio::task::yield_now().await;
        }
    }
}
