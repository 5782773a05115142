//! What is seen of a bot process from outside, in `/proc` and its control group: whether it has
//! exited, is idle, or waits for input with nothing left to do; the CPU time and memory it used.

use super::{ENDING_BOUND, FIRST_LOOK, LONGEST_LOOK, ProcessBot};
use crate::seat::cgroup::BotCgroup;
use crate::seat::memory::{self, PeakMemory};
use crate::seat::procfs;
use std::collections::BTreeMap;
use std::os::fd::{AsRawFd, RawFd};
use std::process::ExitStatus;
use std::time::Duration;
use tokio::time::{Instant, timeout_at};

impl ProcessBot {
    /// Whether the bot's process has exited by now (it may have quit after a match ended).
    pub fn has_exited(&mut self) -> bool {
        !self.alive || matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Whether the bot's process, which is ending (its output has closed), exits: waits until it
    /// has, or until it is seen [idle](ProcessBot::is_idle) — then it lives on with its output
    /// closed — at most [`ENDING_BOUND`].
    pub async fn exits(&mut self) -> bool {
        !self.alive || self.ending_status().await.is_some()
    }

    /// Whether no thread of the bot can run: each thread of its processes (its own, their
    /// descendants, its control group's) is looked at twice and must be asleep both times —
    /// not running, not runnable, not in an uninterruptible wait — with no context switch in
    /// between. Then no thread of the bot ran between the looks, so none can have woken
    /// another: only something from outside (input, a timer of its own, a signal) wakes it
    /// again. An exit under way shows as a running thread (the bot's, or under bubblewrap its
    /// parent's, woken to reap it) — but a process that has just exited looks asleep too, so a
    /// caller looks at the exit *after* this. `false` when it cannot be told (the bot's
    /// processes cannot be read in `/proc`): callers then wait to their bound.
    pub fn is_idle(&self) -> bool {
        if !self.alive {
            return false;
        }
        let (Some(first), Some(second)) = (self.threads(), self.threads()) else {
            return false;
        };
        first == second && first.values().all(|&(asleep, _)| asleep)
    }

    /// Whether the bot is waiting for input with nothing left to do: it has read all that was
    /// written to it, it is [idle](ProcessBot::is_idle), and nothing it wrote to stdout or stderr
    /// is still in the pipe (a bot blocked on a full pipe is asleep, but not done). A bot that
    /// reacts to a message has done so by then, whatever the load of the machine: the lines it
    /// wrote are in hand (read, or in the reader's buffer: `Wire::take_read_lines`).
    /// A bot whose stderr is over its budget waits too: on its own writes, until the referee
    /// opens its next window ([`super::stderr::budget`]).
    ///
    /// `referee check` uses this after each match to see, without a fixed wait, what the bot
    /// does after `match_end`, and after `goodbye` to tell a bot that waits from one still at
    /// work ([`ProcessBot::close`]).
    pub fn is_waiting(&self) -> bool {
        let drained = |fd: Option<RawFd>| fd.is_none_or(|fd| procfs::unread_bytes(fd) == Some(0));
        let stderr_drained = || {
            let drained = drained(self.stderr_probe.as_ref().map(AsRawFd::as_raw_fd));
            if !drained {
                // Read now, not at the end of the drain's pause: the next look sees it.
                self.stderr_gate.hurry();
            }
            drained
        };
        self.alive
            && drained(self.wire.input().map(AsRawFd::as_raw_fd))
            && self.is_idle()
            && drained(Some(self.wire.output().as_raw_fd()))
            && (self.stderr_gate.is_stopped() || stderr_drained())
    }

    /// Every thread of the bot's processes — its own, their descendants and the members of its
    /// control group — as [`procfs::threads`] tells them.
    fn threads(&self) -> Option<BTreeMap<i32, (bool, u64)>> {
        let members = self
            .cgroup
            .as_ref()
            .map(BotCgroup::members)
            .unwrap_or_default();
        procfs::threads(self.pid as i32, members)
    }

    /// The CPU time all of the bot's processes have used so far, where its control group
    /// accounts it.
    pub fn cpu_time(&self) -> Option<Duration> {
        self.cgroup.as_ref().and_then(BotCgroup::cpu_time)
    }

    /// Freezes (`true`) or thaws every process of the bot; whether it could.
    pub fn freeze(&self, frozen: bool) -> bool {
        self.cgroup.as_ref().is_some_and(|g| g.freeze(frozen))
    }

    /// The most memory the bot has held so far: the largest peak resident set among its
    /// running processes (read it before the bot exits) and its control group's peak.
    pub fn peak_memory(&self) -> PeakMemory {
        PeakMemory {
            largest_process_bytes: memory::largest_process_peak(self.pid),
            control_group_bytes: self.cgroup.as_ref().and_then(BotCgroup::peak_memory),
        }
    }

    /// Whether something the bot wrote to stdout waits unread in the pipe.
    pub fn output_unread(&self) -> bool {
        procfs::unread_bytes(self.wire.output().as_raw_fd()) != Some(0)
    }

    /// bubblewrap's own processes do, which never write to it): the bot closed its stdout, so
    /// no reply can ever come. Known only with a control group to list the bot's processes.
    /// Until bubblewrap has started the bot (its processes are all bubblewrap's then, which on
    /// a loaded machine can last past a start-up limit), nothing is abandoned: the bot is slow.
    pub(super) fn output_abandoned(&self) -> bool {
        let (Some(group), true) = (&self.cgroup, self.sandboxed) else {
            return false;
        };
        let bot: Vec<i32> = group
            .members()
            .into_iter()
            .filter(|&pid| !procfs::is_bubblewrap(pid))
            .collect();
        !bot.is_empty()
            && !bot
                .into_iter()
                .any(|pid| procfs::holds_pipe(pid, self.stdout_pipe))
    }

    /// The exit status of a bot that is ending (its output closed, a write to it failed): waits
    /// until its process has exited, or until it is seen [idle](ProcessBot::is_idle) — then it
    /// lives on, `None` — at most [`ENDING_BOUND`]. No fixed wait: an exit under way is waited
    /// for however loaded the machine.
    pub(super) async fn ending_status(&mut self) -> Option<ExitStatus> {
        let bound = Instant::now() + ENDING_BOUND;
        let mut pause = FIRST_LOOK;
        loop {
            // Seen idle, then the exit looked at: an exit just before the look shows.
            let idle = self.is_idle();
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if idle || Instant::now() >= bound {
                return None;
            }
            let until = (Instant::now() + pause).min(bound);
            if let Ok(Ok(status)) = timeout_at(until, self.child.wait()).await {
                return Some(status);
            }
            pause = (pause * 2).min(LONGEST_LOOK);
        }
    }
}
