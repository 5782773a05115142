//! A bot process's stderr: drained by a task of its own into a tail (and its file, capped),
//! within its budget; what it wrote is taken for the match log, and each match's span of the
//! file is told.

use super::{ENDING_BOUND, ProcessBot};
use crate::seat::pipe::Pipe;
use crate::seat::process_options::ProcessOptions;
use crate::seat::procfs;
use crate::seat::stderr::{self, RecentStderr, StderrCount, StderrGate, StderrTail};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::time::Duration;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// How many times [`ProcessBot::take_stderr`] yields, at most, for the task draining stderr to
/// read what the pipe holds.
const STDERR_SETTLE_YIELDS: usize = 16;

/// A byte range of a bot's stderr file: what it wrote during one match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StderrSpan {
    /// The file.
    pub file: PathBuf,
    /// The first byte of the range.
    pub from: u64,
    /// The byte after the range.
    pub to: u64,
}

/// A bot's stderr as it is drained: what [`watch_stderr`] starts.
pub(super) struct StderrWatch {
    /// The last of it, kept for fault messages and the match log.
    pub tail: StderrTail,
    /// The task draining it.
    pub drain: JoinHandle<()>,
    /// How much of it the task has taken.
    pub count: StderrCount,
    /// Its budget, as it is spent.
    pub gate: StderrGate,
    /// The file it is saved to, if any, with its length when the process started.
    pub file: Option<(PathBuf, u64)>,
}

/// Starts draining a bot's stderr `pipe` into its tail, and into its file (appended: a resumed
/// tournament keeps what earlier runs captured) up to its cap, as `options` say.
pub(super) async fn watch_stderr(pipe: Pipe, options: &ProcessOptions) -> StderrWatch {
    let tail = StderrTail::default();
    let file = options
        .stderr_file
        .as_ref()
        .and_then(|f| f.dir.open_append(&f.name).ok())
        .map(tokio::fs::File::from_std);
    let length = match &file {
        Some(f) => f.metadata().await.map(|m| m.len()).unwrap_or(0),
        None => 0,
    };
    let count = StderrCount::at(length);
    let gate = StderrGate::new(options.limits.stderr_budget());
    let saved = options
        .stderr_file
        .as_ref()
        .filter(|_| file.is_some())
        .map(|f| (f.dir.path_of(&f.name), length));
    let drain = tokio::spawn(stderr::drain(
        pipe,
        tail.clone(),
        file,
        options.stderr_cap,
        count.clone(),
        gate.clone(),
    ));
    StderrWatch {
        tail,
        drain,
        count,
        gate,
        file: saved,
    }
}

impl ProcessBot {
    /// The part of the bot's stderr file that belongs to the match just played: from where the
    /// previous span ended (or the file's length when the process started, so that what it
    /// wrote while starting belongs to its first match) to the position after everything it
    /// has written so far. First waits until the drain has taken what was in the pipe when
    /// this was called (at most [`ENDING_BOUND`]). `None` when its stderr is not saved.
    pub async fn stderr_span(&mut self) -> Option<StderrSpan> {
        self.stderr_file.as_ref()?;
        self.stderr_taken(ENDING_BOUND).await;
        let to = self.stderr_count.position();
        let (path, from) = self.stderr_file.as_mut()?;
        let span = StderrSpan {
            file: path.clone(),
            from: *from,
            to,
        };
        *from = to;
        Some(span)
    }

    /// What the bot wrote to its stderr since the last take ([`StderrTail::take_recent`]), once
    /// the task draining it has read what the pipe holds now ([hurried](StderrGate::hurry) out
    /// of a pause): on the referee's one-thread runtime a few yields let it run, and no more is
    /// waited for (a bot still writing is not waited out), so what it wrote just before a reply
    /// may come with the next take.
    pub async fn take_stderr(&self) -> Option<RecentStderr> {
        if let Some(probe) = &self.stderr_probe {
            if procfs::unread_bytes(probe.as_raw_fd()).is_some_and(|n| n > 0) {
                self.stderr_gate.hurry();
            }
            for _ in 0..STDERR_SETTLE_YIELDS {
                if self.stderr_gate.is_stopped()
                    || procfs::unread_bytes(probe.as_raw_fd()).is_none_or(|n| n == 0)
                {
                    break;
                }
                tokio::task::yield_now().await;
            }
        }
        self.stderr.take_recent()
    }

    /// The end of the bot's stderr ([`TAIL_BYTES`](crate::seat::stderr::TAIL_BYTES) at most,
    /// lossily decoded), once the drain has taken what the pipe holds now (at most
    /// [`ENDING_BOUND`]): for `referee check`, the last words under a failed item.
    pub async fn stderr_end(&self) -> String {
        self.stderr_taken(ENDING_BOUND).await;
        self.stderr.text()
    }

    /// Lets the task draining the bot's stderr take what the pipe holds now, at most `limit`:
    /// so that a fault's message shows an exited bot's last words, and a match's span of the
    /// stderr file ends after what the bot wrote during it, whatever ran first. Bytes written
    /// after this is called are not waited for (a bot, or a process it started, may still be
    /// writing), nor what is past the bot's stderr budget.
    pub(super) async fn stderr_taken(&self, limit: Duration) {
        let target = self.stderr_count.read() + self.stderr_unread();
        self.stderr_gate.hurry();
        let deadline = Instant::now() + limit;
        while self.stderr_count.read() < target
            && !self.stderr_gate.is_stopped()
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// The bytes waiting unread in the bot's stderr pipe.
    fn stderr_unread(&self) -> u64 {
        self.stderr_probe
            .as_ref()
            .and_then(|probe| procfs::unread_bytes(probe.as_raw_fd()))
            .unwrap_or(0) as u64
    }

    /// Lets the drain read, past the budget of the match, what the pipe of a bot that is gone
    /// holds: its last words are then the end of its stderr (unless a process it started still
    /// writes there).
    pub(super) fn open_stderr_ending(&self) {
        self.stderr_gate.open_ending(self.stderr_unread());
    }

    /// Lets the drain read, past the budget of the match, a decision's budget of what a bot
    /// that is told to end writes meanwhile (its goodbye is a window of its own).
    pub(super) fn open_stderr_goodbye(&self) {
        let budget = self.stderr_gate.budget().per_decision.unwrap_or(u64::MAX);
        self.stderr_gate.open_ending(budget);
    }
}
