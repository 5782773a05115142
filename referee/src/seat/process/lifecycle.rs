//! The end of a bot process: shut down (a last line, its input closed, a grace to exit), closed
//! with its last moments read (`referee check`), or killed at once — its whole process group,
//! and what left the group but not its control group — and always reaped.

use super::{ENDING_BOUND, FIRST_LOOK, LONGEST_LOOK, ProcessBot};
use crate::seat::{Fault, Talk};
use std::time::Duration;
use tokio::time::{Instant, timeout, timeout_at};

/// How a bot's process ended once its input was closed ([`ProcessBot::close`]).
#[derive(Debug)]
pub struct Closing {
    /// `None` when it was still running at the end of the grace period (it was killed);
    /// `Some(Ok(()))` when it exited with code 0; `Some(Err(fault))` when it exited otherwise,
    /// the fault saying how.
    pub exit: Option<Result<(), Fault>>,
    /// What it wrote to stdout meanwhile that is not a protocol message (or a late reply to a
    /// request that timed out), in order.
    pub stray: Vec<Fault>,
}

impl ProcessBot {
    /// Ends the process as [`ProcessBot::shutdown`] does, but reads its stdout until it ends
    /// and says how the process exited: what `referee check` needs to judge a bot's last
    /// moments. The bot has its exit grace ([`ProcessOptions::exit_grace`](crate::seat::ProcessOptions::exit_grace)) to exit. At the end
    /// of it, a bot that [waits](ProcessBot::is_waiting) instead of exiting is stopped; one still
    /// at work — not waiting for anything, just not done: on a loaded machine the grace may not
    /// have been its own time — is given until [`ENDING_BOUND`] after `goodbye`, and stopped
    /// then. `None` when it had been stopped already.
    pub async fn close(&mut self, last: Option<&[u8]>) -> Option<Closing> {
        if !self.alive {
            return None;
        }
        let grace = self.exit_grace;
        let started = Instant::now();
        let bound = started + ENDING_BOUND.max(grace);
        self.open_stderr_goodbye();
        if let Some(line) = last {
            let _ = self.write(line, grace).await;
        }
        self.wire.close_input();
        let (mut stray, mut ended) = self.wire.read_unasked(started + grace).await;
        let mut status = timeout_at(started + grace, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok);
        let mut pause = FIRST_LOOK;
        while status.is_none() {
            // Seen waiting, then the exit looked at: an exit just before the look shows.
            let waiting = self.is_waiting();
            status = self.child.try_wait().ok().flatten();
            if status.is_some() || waiting || Instant::now() >= bound {
                break;
            }
            let until = (Instant::now() + pause).min(bound);
            if !ended {
                let (lines, end) = self.wire.read_unasked(until).await;
                stray.extend(lines);
                ended = end;
            }
            status = timeout_at(until, self.child.wait())
                .await
                .ok()
                .and_then(Result::ok);
            pause = (pause * 2).min(LONGEST_LOOK);
        }
        let exit = match status {
            Some(status) if status.success() => Some(Ok(())),
            Some(_) => Some(Err(self
                .exited_fault(Some("it did not exit cleanly"))
                .await)),
            None => None,
        };
        self.kill().await;
        Some(Closing { exit, stray })
    }

    /// Ends the process: optionally writes `last` (a `goodbye`, or the `error` saying why the bot
    /// is stopped), closes stdin, waits up to the grace period for it to exit, then kills its
    /// whole process group and reaps it. Returns whether the bot exited by itself within the
    /// grace period (`false` too when it had been stopped already).
    pub async fn shutdown(&mut self, last: Option<&[u8]>, grace: Duration) -> bool {
        if !self.alive {
            return false;
        }
        // A bot frozen off move (turn isolation) could neither read nor exit.
        self.freeze(false);
        self.open_stderr_goodbye();
        if let Some(line) = last {
            let _ = self.write(line, grace).await;
        }
        self.wire.close_input();
        let exited = matches!(timeout(grace, self.child.wait()).await, Ok(Ok(_)));
        self.kill().await;
        exited
    }

    /// Kills the whole process group at once, reaps the bot, and lets the stderr drain take what
    /// the pipe holds and finish (briefly: a descendant that escaped the group may still hold
    /// the pipe; the drain is stopped then).
    pub async fn kill(&mut self) {
        if !self.alive {
            return;
        }
        if let Some(quota) = &self.quota {
            quota.stop();
        }
        self.wire.close_input();
        let _ = self.child.signal(libc::SIGKILL);
        let _ = timeout(Duration::from_secs(2), self.child.wait()).await;
        // Whatever left the process group (a `setsid` descendant) is still in the control group.
        if let Some(group) = &self.cgroup {
            group.kill_all().await;
        }
        self.open_stderr_ending();
        if let Some(mut drain) = self.drain.take() {
            if timeout(Duration::from_millis(500), &mut drain)
                .await
                .is_err()
            {
                drain.abort();
            }
        }
        self.alive = false;
    }
}

impl Drop for ProcessBot {
    fn drop(&mut self) {
        if self.alive {
            let _ = self.child.signal(libc::SIGKILL);
        }
        if let Some(drain) = self.drain.take() {
            drain.abort();
        }
    }
}
