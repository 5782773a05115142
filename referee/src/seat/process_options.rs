//! How bot processes are run: the options a [`ProcessBot`](super::ProcessBot) is spawned with.

use super::admitted_workdir::{AdmittedWorkdir, Workdirs};
use super::hidden_paths::HiddenPath;
use super::limits::ResourceLimits;
use super::sandbox::Sandbox;
use super::stderr_file::StderrFile;
use super::users::{BotUsers, RunAs};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How bot processes are run.
#[derive(Clone, Debug)]
pub struct ProcessOptions {
    /// Longest line accepted from a bot, in bytes.
    pub max_line_bytes: usize,
    /// Where to write the bot's stderr (capped), if anywhere.
    pub stderr_file: Option<StderrFile>,
    /// Most bytes of stderr written to `stderr_file`.
    pub stderr_cap: u64,
    /// How long a bot has to exit by itself after `goodbye`, or after the end of its input,
    /// before its group is killed: the protocol's one second by default. The one setting of it:
    /// every caller that ends bots gives them this.
    pub exit_grace: Duration,
    /// The sandbox bots run in.
    pub sandbox: Sandbox,
    /// Paths a sandboxed bot must not see (the referee's output, every bot's workdir but its
    /// own), as found when the run started.
    pub hidden: Vec<HiddenPath>,
    /// This bot's resource limits.
    pub limits: ResourceLimits,
    /// Each bot's workdir, admitted when the run started ([`super::workdir_rule`]), by name. A
    /// bot whose settings name a workdir that is not here does not start (`spawn_failed`).
    pub workdirs: Workdirs,
    /// This bot's working directory (from `workdirs`), if not the referee's.
    pub workdir: Option<AdmittedWorkdir>,
    /// The directory a bot without a workdir runs from, where the relative words of its command
    /// are found: the referee's current directory when `None` (a rerun gives the directory the
    /// tournament ran in, without the referee moving there).
    pub dir: Option<PathBuf>,
    /// The variables this bot's settings name, set over the few of the referee's it gets
    /// ([`environment`](super::environment)).
    pub env: BTreeMap<String, String>,
    /// Who each bot of the run runs as, by name ([`super::users`]).
    pub users: BotUsers,
    /// Who this bot runs as (from `users`).
    pub run_as: RunAs,
}

/// Options that run a bot as the referee's own user, without a sandbox: the resolved form's
/// starting point, not a policy. What the referee gives a bot when asked for nothing is
/// [`ProcessPolicy::default`](crate::policy::ProcessPolicy) resolved.
impl Default for ProcessOptions {
    fn default() -> Self {
        ProcessOptions {
            max_line_bytes: 1 << 20,
            stderr_file: None,
            stderr_cap: 1 << 20,
            exit_grace: Duration::from_secs(1),
            sandbox: Sandbox::None,
            hidden: Vec::new(),
            limits: ResourceLimits::default(),
            workdirs: Workdirs::default(),
            workdir: None,
            dir: None,
            env: BTreeMap::new(),
            users: BotUsers::default(),
            run_as: RunAs::Referee,
        }
    }
}

impl ProcessOptions {
    /// The directory a bot without a workdir runs from ([`ProcessOptions::dir`], else the
    /// referee's current directory, else `/`).
    pub fn from_dir(&self) -> PathBuf {
        self.dir
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| Path::new("/").to_path_buf())
    }
}
