//! The pace of the referee's reads of a bot's pipe: however the bot writes, the referee reads
//! each of its pipes a bounded number of times per second.
//!
//! A bot that writes one byte per `write` would otherwise make the referee read each byte
//! separately (the red team's dripper cost it 1 to 5 s of CPU a match, 30 to 150 times a quiet
//! one), while the bot stays under every byte budget. So a read that returns less than
//! [`SMALL_READ`] bytes is a small read, and after one the next read of that pipe waits until
//! [`GAP`] has passed: the pipe keeps what the bot writes meanwhile, and the next read takes it
//! all at once. From a pipe's first paced read on, the reactor watches it only while a read
//! waits for it ([`super::pipe::Pipe`]), so the bot's writes during the gap wake nobody either.
//!
//! A burst of small reads is allowed before the gap applies, and is given back by
//! [`ReadPace::refill`]: on stdout, at each request, so that a reply written in a few pieces is
//! seen as soon as its newline comes; stderr has none, as nobody waits on it. The bound: at most
//! `burst` small reads at each refill, and one per [`GAP`] besides. Its cost and what a bot sees
//! of it: docs/security.md#dripping.

use std::time::Duration;
use tokio::time::Instant;

/// Reads of fewer bytes than this are small: after one the next read of the pipe waits
/// ([`GAP`]), once the burst is spent.
pub const SMALL_READ: usize = 4096;

/// How long after a small read, once the burst is spent, the next read of a pipe waits: at
/// most 40 small reads a second per pipe. A wake-up of the referee's thread costs it 20 to 50 µs
/// of CPU on a loaded machine (caches and all), so a bot that writes a byte at a time all the
/// time costs it about 0.2% of a core per pipe; an honest bot blocks on its small writes only
/// past 64 KiB (a pipe) in a gap: 2.6 MB/s, more than its stderr budget.
pub const GAP: Duration = Duration::from_millis(25);

/// How small reads of one pipe are paced.
#[derive(Debug)]
pub(crate) struct ReadPace {
    /// Small reads allowed at each refill before the gap applies.
    burst: u32,
    /// Small reads left before it applies.
    left: u32,
    /// The pause after the last small read once the burst was spent: when the next read may
    /// be made.
    pause: Option<Instant>,
}

impl ReadPace {
    /// A pace allowing `burst` small reads at each refill (and at first) before the gap.
    pub fn new(burst: u32) -> Self {
        ReadPace {
            burst,
            left: burst,
            pause: None,
        }
    }

    /// Gives the burst back, and lets the next read be made at once.
    pub fn refill(&mut self) {
        self.left = self.burst;
        self.pause = None;
    }

    /// Ends the pause now: the next read may be made at once (the burst stays spent).
    pub fn lift(&mut self) {
        if let Some(until) = &mut self.pause {
            *until = (*until).min(Instant::now());
        }
    }

    /// Counts a read that returned `n` bytes when `asked` were asked for. A small read (fewer
    /// than [`SMALL_READ`] bytes, and fewer than asked: a read that took all it asked for was
    /// cut by the asker, not by the pipe) spends the burst, and, once it is spent, makes the
    /// next read wait [`GAP`].
    pub fn count(&mut self, n: usize, asked: usize) {
        self.pause = None;
        if n < SMALL_READ && n < asked {
            self.left = self.left.saturating_sub(1);
            if self.left == 0 {
                let now = Instant::now();
                self.pause = Some(now + GAP);
            }
        }
    }

    /// Counts a read that found nothing: the pause before it, if any, is over.
    pub fn found_nothing(&mut self) {
        self.pause = None;
    }

    /// When the next read may be made, if not now.
    pub fn hold(&self) -> Option<Instant> {
        self.pause.filter(|&until| until > Instant::now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn small_reads_spend_the_burst_then_each_holds_the_next_for_the_gap() {
        let mut pace = ReadPace::new(2);
        pace.count(1, 100);
        assert_eq!(pace.hold(), None, "a small read of a burst of two");
        pace.count(100, 4096);
        assert_eq!(
            pace.hold(),
            Some(Instant::now() + GAP),
            "the second spends it"
        );
        tokio::time::advance(GAP).await;
        assert_eq!(pace.hold(), None, "the gap has passed");
        pace.count(10, 100);
        assert!(pace.hold().is_some());
        pace.refill();
        assert_eq!(
            pace.hold(),
            None,
            "a refill lets the next read be made at once"
        );
        pace.count(1, 100);
        assert_eq!(pace.hold(), None, "and gives the burst back");
    }

    #[tokio::test(start_paused = true)]
    async fn a_lift_ends_the_pause_and_a_read_that_found_nothing_ends_it_too() {
        let mut pace = ReadPace::new(0);
        pace.count(1, 100);
        tokio::time::advance(GAP / 5).await;
        assert!(pace.hold().is_some());
        pace.lift();
        assert_eq!(pace.hold(), None, "lifted");
        pace.count(1, 100);
        assert!(pace.hold().is_some(), "the burst stays spent");
        pace.found_nothing();
        assert_eq!(
            pace.hold(),
            None,
            "a read that found nothing ends the pause"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_read_of_a_page_or_of_all_it_asked_for_is_not_small() {
        let mut pace = ReadPace::new(0);
        pace.count(SMALL_READ, 65536);
        pace.count(1, 1);
        assert_eq!(pace.hold(), None);
        pace.count(SMALL_READ - 1, 65536);
        assert!(pace.hold().is_some());
        let mut pace = ReadPace::new(0);
        pace.count(65536, 65536);
        assert_eq!(pace.hold(), None);
    }
}
