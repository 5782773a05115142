//! What a bot process's cut is: when its wire is cut (a silence, the end of its output, a failed
//! read or write) or its process has exited, the facts are gathered here — its exit status once
//! it is gone, its last stderr, what its control group and its workdir's quota saw — and
//! [`exit_fault`](super::exit_fault) says what fault they are.

use super::exit_fault::{ExitSeen, LimitNotes, ending, exit_fault};
use super::{ENDING_BOUND, ProcessBot};
use crate::seat::Fault;
use crate::seat::cgroup::BotCgroup;
use crate::seat::wire::{self, Cut};

impl ProcessBot {
    /// The fault of a bot whose process has exited, saying how it ended (`what` first), or
    /// `None` while it runs.
    pub async fn exit_fault(&mut self, what: &str) -> Option<Fault> {
        match self.child.try_wait() {
            Ok(Some(_)) => Some(self.exited_fault(Some(what)).await),
            _ => None,
        }
    }

    /// The fault of a cut of the wire, told from the process: a silence is a timeout (of
    /// `limit`) unless the bot itself has exited and only a descendant of it keeps its output
    /// open, which is an exit, reported with the bot's exit code as every other end is.
    pub(super) async fn explain(&mut self, cut: Cut, limit: &dyn std::fmt::Display) -> Fault {
        match cut {
            Cut::Fault(fault) => fault,
            Cut::Closed => self.exited_fault(None).await,
            Cut::Broken(doing, e) => {
                self.exited_fault(Some(&wire::broken_message(doing, &e)))
                    .await
            }
            Cut::Silent if self.output_abandoned() => self.exited_fault(None).await,
            Cut::Silent => match self.child.try_wait() {
                Ok(Some(_)) => {
                    self.exited_fault(Some(
                        "the bot exited (a process it started still holds its output)",
                    ))
                    .await
                }
                _ => wire::timeout_fault(limit, &self.limit_notes()),
            },
        }
    }
    /// What the control group saw, and the stderr budget, that explains a fault, as a suffix
    /// for its message.
    pub(super) fn limit_notes(&self) -> String {
        self.notes(&self.stderr.text()).text()
    }

    /// What the control group saw, the stderr budget and `stderr` (the last of it) say of a
    /// fault.
    fn notes<'a>(&self, stderr: &'a str) -> LimitNotes<'a> {
        let hit = self
            .cgroup
            .as_ref()
            .is_some_and(BotCgroup::process_limit_hit);
        LimitNotes {
            processes_hit: hit.then(|| self.limits.processes().unwrap_or(0)),
            stderr_over: self
                .stderr_gate
                .is_stopped()
                .then(|| self.stderr_gate.budget()),
            stderr,
        }
    }

    /// An `exited` fault whose message says how the bot ended (after `what` happened, or, for
    /// `None`, as its standard output closed) and what it last wrote to stderr, or a
    /// `resource_limit` fault when a limit killed it ([`exit_fault`]). Waits for the exit of a
    /// bot that is ending ([`ProcessBot::ending_status`]), and for the drain to take its last
    /// words.
    pub(super) async fn exited_fault(&mut self, what: Option<&str>) -> Fault {
        let status = self.ending_status().await;
        if status.is_some() {
            self.open_stderr_ending();
            self.stderr_taken(ENDING_BOUND).await;
        }
        let stderr = self.stderr.text();
        let notes = self.notes(&stderr);
        let quota_breach = match &self.quota {
            Some(quota) => quota.breach().await,
            None => None,
        };
        exit_fault(ExitSeen {
            what,
            ending: ending(status, self.sandboxed),
            notes,
            quota_breach,
            oom_killed: self.cgroup.as_ref().is_some_and(BotCgroup::oom_killed),
            limits: self.limits,
        })
    }
}
