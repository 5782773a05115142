//! Bot users: when the referee runs as root, every bot process runs as a uid of its own, leased
//! from a range (`--bot-uids`, 60000-60999 by default, the one-user-per-bot model of the big
//! competitions), in a group of its bot's, without capabilities and with `no_new_privs`, in
//! both sandbox modes. A bot can then no longer signal, ptrace or read the memory of the
//! referee or of another bot — not even another process of its own bot — and cannot leave its
//! control group, even without a sandbox. See `docs/security.md#bot-users`.
//!
//! - [`setting`]: the `bot_uids` setting;
//! - [`lease`]: leasing ids across every referee of the machine (`flock` on a file per id);
//! - [`reach`]: whether such a user can reach a bot's files;
//! - [`workdir`]: a bot's working directory, given to its group;
//! - [`credentials`]: becoming the user, between fork and exec;
//! - [`run_as`]: who each bot runs as; [`plan`]: deciding it at start-up, with `uid_probe`
//!   (whether the machine allows it), `own_group` (each bot's group) and [`notices`] (the
//!   lines that say what was decided).

pub mod credentials;
pub mod lease;
pub mod notices;
mod own_group;
pub mod plan;
pub mod reach;
pub mod run_as;
pub mod setting;
mod uid_probe;
pub mod workdir;

pub use credentials::{Credentials, ProcessUser};
pub use plan::{Isolation, IsolationError, Probed, isolate, probe};
pub use run_as::{BotUsers, RunAs};
pub use setting::{BotUids, UidRange};
