//! A bot process: spawned in its own process group, spoken to in JSON lines, always reaped.
//!
//! The talking is its wire's (`wire/`): lines are read with a hard length cap (`lines/`), so a
//! bot cannot make the referee hold an endless line; every read and write has a deadline, so a
//! bot cannot make the referee wait forever. The process is this module's, one job a file:
//! - `launch.rs` starts it (spawn, and what its child does before the exec), with an
//!   environment of its own ([`environment`](super::environment)), never the referee's;
//! - `liveness.rs` says what `/proc` and its control group show of it: exited, idle, waiting;
//! - `stderr_watch.rs` follows its stderr, drained by a task of its own, and its spans in the
//!   stderr file;
//! - `explain.rs` gathers what is seen when the wire is cut (a silence, the end of its output)
//!   and `exit_fault.rs` says, purely, what fault that is;
//! - `talk.rs` is its side of the conversation ([`Talk`](super::Talk)), the handshake first;
//! - `lifecycle.rs` ends it: the whole process group is killed when the bot is shut down or
//!   dropped, so no child outlives the referee.

mod exit_fault;
mod explain;
mod launch;
mod lifecycle;
mod liveness;
mod stderr_watch;
mod talk;
#[cfg(test)]
mod tests;

pub use lifecycle::Closing;
pub use stderr_watch::StderrSpan;

use super::cgroup::BotCgroup;
use super::limits::ResourceLimits;
use super::pipe::Pipe;
use super::stderr::{StderrCount, StderrGate, StderrTail};
use super::users::ProcessUser;
use super::wire::Wire;
use super::workdir_quota::QuotaWatch;
use process_wrap::tokio::ChildWrapper;
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::time::Duration;
use tokio::process::ChildStdin;

/// How long a bot process that is ending — its output closed, or its grace after `goodbye`
/// over — is given to be gone while it is still at work (not [idle](ProcessBot::is_idle): an
/// exit under way). Generous, since on a loaded machine an exit may wait long for a CPU; a bot
/// that is idle instead is taken as living on at once, so only a bot that keeps busy costs it.
pub const ENDING_BOUND: Duration = Duration::from_secs(10);
/// The first pause between two looks at a bot that is not done yet ([`ProcessBot::is_idle`],
/// [`ProcessBot::is_waiting`]); it doubles after each look, up to [`LONGEST_LOOK`].
pub const FIRST_LOOK: Duration = Duration::from_millis(1);
/// The longest pause between two looks at a bot that is not done yet.
pub const LONGEST_LOOK: Duration = Duration::from_millis(16);

/// A running bot process.
pub struct ProcessBot {
    child: Box<dyn ChildWrapper>,
    /// Its stdin and stdout, spoken to in protocol lines.
    wire: Wire<Pipe, ChildStdin>,
    stderr: StderrTail,
    /// The task draining stderr; awaited (briefly) at the end so the last lines are kept.
    drain: Option<tokio::task::JoinHandle<()>>,
    pid: u32,
    alive: bool,
    /// The bot's control groups, if the machine allows them.
    cgroup: Option<BotCgroup>,
    /// Whether the bot runs under bubblewrap (its exit status is then bubblewrap's).
    sandboxed: bool,
    /// Its resource limits, for fault messages.
    limits: ResourceLimits,
    /// The inode of its stdout pipe, to see who still holds the pipe.
    stdout_pipe: u64,
    /// A second descriptor of its stderr pipe (the drain task owns the first), to see whether
    /// what it wrote there has been read ([`ProcessBot::is_waiting`]).
    stderr_probe: Option<OwnedFd>,
    /// How much of its stderr the drain task has taken.
    stderr_count: StderrCount,
    /// The budget of its stderr, as it is spent.
    stderr_gate: StderrGate,
    /// The file its stderr is saved to, if any, with where the span of its current match
    /// begins ([`ProcessBot::stderr_span`]).
    stderr_file: Option<(PathBuf, u64)>,
    /// How long it has to exit after `goodbye` ([`ProcessOptions::exit_grace`](super::ProcessOptions::exit_grace)).
    exit_grace: Duration,
    /// The uid it runs as, leased while it lives, unless it runs as the referee's.
    _user: Option<ProcessUser>,
    /// The watcher of its workdir's quota, if it has a workdir and a quota.
    quota: Option<QuotaWatch>,
}

impl ProcessBot {
    /// The process id of the bot (its process group id too).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Whether the process is still being spoken to.
    pub fn is_alive(&self) -> bool {
        self.alive
    }
}
