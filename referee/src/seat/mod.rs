//! Seats: whatever plays a seat in a match, a bot process or a built-in bot.
//!
//! A [`Seat`] is either a [`ProcessBot`] (an external program speaking the JSON-lines protocol)
//! or a built-in [`Strategy`](engine::Strategy) called in-process with the same view. The match
//! runner speaks to a bot that speaks the protocol through one trait, [`Talk`]; for tests, a
//! [`ScriptedBot`] implements it too: a script of the referee's own (test support, no variant
//! of a production type). Both talk over a `Wire` (`wire/`).
//! Bot misbehaviour is never an `Err` here: it is a [`Fault`], recorded by the match runner.

pub mod admitted_workdir;
pub mod cgroup;
pub mod clock;
mod disk_usage;
pub mod ending;
pub mod environment;
mod fault;
pub mod hidden_paths;
pub mod limits;
mod lines;
pub mod memory;
pub mod notice;
mod pace;
pub mod path_walk;
mod pipe;
pub mod proc_view;
pub mod process;
mod process_options;
mod procfs;
pub mod reply;
pub mod sandbox;
pub mod scripted;
pub mod seccomp;
pub mod spec;
mod stderr;
mod stderr_file;
mod talk;
pub mod users;
mod wire;
pub mod workdir_marker;
pub mod workdir_place;
pub mod workdir_quota;
pub mod workdir_rule;

pub use admitted_workdir::{AdmittedWorkdir, Workdirs};
pub use clock::{Allowance, CPU_WALL_CAP, Clock, TimeBasis, TimeControl, Timing};
pub use fault::Fault;
pub use hidden_paths::HiddenPath;
pub use limits::ResourceLimits;
pub use memory::PeakMemory;
pub use process::{Closing, ProcessBot, StderrSpan};
pub use process_options::ProcessOptions;
pub use sandbox::{Bubblewrap, Sandbox, SandboxMode};
pub use scripted::{ScriptEnd, ScriptedBot};
pub use spec::{BotSettings, BotSpec, BotSpecError, Launch};
pub use stderr::{RECENT_BYTES, RecentStderr, StderrBudget, StderrOverflow};
pub use stderr_file::StderrFile;
pub use talk::Talk;
pub use users::{BotUids, BotUsers, RunAs};
pub use wire::{BLANK_ALLOWANCE, LateReply, ReplyWait};

use engine::Game;
use engine::Strategy;

/// What plays one seat of a match: a bot that speaks the protocol (a [`ProcessBot`]; in the
/// runner's tests, `B` is a script), a built-in bot, or none.
pub enum Seat<G: Game, B = ProcessBot> {
    /// A bot spoken to in the protocol ([`Talk`]): an external program, or in tests a script.
    Process(Box<B>),
    /// A built-in bot, called in-process.
    Builtin(Box<dyn Strategy<G>>),
    /// No bot could be started; the referee plays the game's default action for this seat.
    Absent,
}
