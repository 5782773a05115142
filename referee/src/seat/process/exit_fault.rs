//! What a bot's end means: a pure function from what was seen of its process when a fault that
//! ends it is told — its exit status or signal, its last stderr, the limits it hit, what its
//! control group and its workdir's quota said — to the fault, as cargo-nextest turns what it saw
//! of a test's process into an `ExecutionResult`. The process ([`ProcessBot`](super::ProcessBot))
//! gathers the facts (`explain.rs`); this says what they are, and needs no process to be tested.

use crate::seat::Fault;
use crate::seat::ending::{Ending, stderr_quote};
use crate::seat::limits::ResourceLimits;
use crate::seat::seccomp;
use crate::seat::stderr::StderrBudget;
use protocol::FaultKind;
use std::process::ExitStatus;

/// What explains a fault besides how the bot ended, as a suffix of its message: a limit its
/// control group saw it reach, a stderr budget it went over, a refusal of the system-call filter
/// its stderr shows.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LimitNotes<'a> {
    /// Its limit of processes and threads, when its control group saw a fork refused for it.
    pub processes_hit: Option<u64>,
    /// Its stderr budget, when the referee stopped reading its stderr past it.
    pub stderr_over: Option<StderrBudget>,
    /// The last of its stderr the referee read.
    pub stderr: &'a str,
}

impl LimitNotes<'_> {
    /// "; it reached its limit of 8 processes and threads; its stderr was over …", or "".
    pub fn text(&self) -> String {
        let mut notes = match self.processes_hit {
            Some(limit) => format!("; it reached its limit of {limit} processes and threads"),
            None => String::new(),
        };
        if let Some(budget) = self.stderr_over {
            notes.push_str(&stderr_over_budget(budget));
        }
        if let Some(note) = seccomp::refusal_note(self.stderr) {
            notes.push_str(note);
        }
        notes
    }
}

/// What was seen of a bot's process when a fault that ends it is told.
#[derive(Clone, Debug)]
pub(crate) struct ExitSeen<'a> {
    /// What happened first, in the message's words; `None`: its standard output closed.
    pub what: Option<&'a str>,
    /// Where its process stood ([`ending`]).
    pub ending: Ending,
    /// What else explains it, its stderr among it.
    pub notes: LimitNotes<'a>,
    /// What the watcher of its workdir's quota said of it, if it went over.
    pub quota_breach: Option<String>,
    /// Whether its control group saw the kernel kill it for its memory.
    pub oom_killed: bool,
    /// Its resource limits, for the message.
    pub limits: ResourceLimits,
}

/// The fault of a bot that ended as `seen` says: a `resource_limit` fault when a limit killed
/// it (its workdir's quota, its memory, its CPU time, its file size, in that order), an `exited`
/// fault otherwise; the message says how it ended, what else explains it and what it last wrote
/// to stderr.
pub(crate) fn exit_fault(seen: ExitSeen<'_>) -> Fault {
    let said = match seen.what {
        None => seen.ending.output_closed(),
        Some(what) => seen.ending.after(what),
    };
    let mut stderr = stderr_quote(seen.notes.stderr);
    if !stderr.is_empty() && seen.notes.stderr_over.is_some() {
        stderr.push_str(
            " (the last lines the referee read: the bot wrote more, past its stderr budget)",
        );
    }
    let notes = seen.notes.text();
    let mb = |bytes: Option<u64>| bytes.unwrap_or(0) >> 20;
    let signal = match seen.ending {
        Ending::Signal(sig) => Some(sig),
        _ => None,
    };
    let limit = if seen.quota_breach.is_some() {
        seen.quota_breach
    } else if seen.oom_killed {
        Some(format!(
            "the bot went over its memory limit of {} MiB and the kernel killed it",
            mb(seen.limits.memory_bytes())
        ))
    } else if signal == Some(libc::SIGXCPU) {
        Some(format!(
            "the bot used up its CPU-time limit of {} s",
            seen.limits.cpu_seconds().unwrap_or(0)
        ))
    } else if signal == Some(libc::SIGXFSZ) {
        Some(format!(
            "the bot wrote past its file-size limit of {} MiB",
            mb(seen.limits.file_bytes())
        ))
    } else {
        None
    };
    match limit {
        Some(limit) => Fault::new(
            FaultKind::ResourceLimit,
            format!("{limit} ({said}){notes}{stderr}"),
        ),
        None => Fault::new(FaultKind::Exited, format!("{said}{notes}{stderr}")),
    }
}

/// Where a bot's process stood: its exit `status` (`None`: it is still running), whose signal is
/// seen through bubblewrap (which exits with 128 + the signal of the process it ran) when
/// `sandboxed`.
pub(crate) fn ending(status: Option<ExitStatus>, sandboxed: bool) -> Ending {
    use std::os::unix::process::ExitStatusExt;
    let Some(status) = status else {
        return Ending::Running;
    };
    let signal = status.signal().or_else(|| {
        status
            .code()
            .filter(|&c| sandboxed && c > 128 && c < 160)
            .map(|c| c - 128)
    });
    match signal {
        Some(sig) => Ending::Signal(sig),
        None => status.code().map_or(Ending::Unknown, Ending::Status),
    }
}

/// The note of a fault of a bot whose stderr is past its budget: its writes there wait.
fn stderr_over_budget(budget: StderrBudget) -> String {
    let per = |bytes: Option<u64>, shift: u32, unit: &str| {
        bytes.map_or("no bound".to_string(), |b| format!("{} {unit}", b >> shift))
    };
    format!(
        "; its stderr was over its budget ({} a decision, {} a match): the referee stopped reading it, and the bot's writes there wait (docs/security.md#the-stderr-budget)",
        per(budget.per_decision, 10, "KiB"),
        per(budget.per_match, 20, "MiB"),
    )
}

#[cfg(test)]
mod tests;
