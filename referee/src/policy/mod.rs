//! How a run's bot processes are run, decided once before the first one starts: the one process
//! policy of the referee, whoever runs the bots (the command line, a server, a test).
//!
//! A [`ProcessPolicy`] holds what the caller chooses — the sandbox, the bots' uids, the paths
//! to hide, where the workdirs come from — and [`ProcessPolicy::resolve`] turns it, with the
//! run's bots and outputs, into what each bot process gets ([`BotProcesses`]): each bot's
//! workdir admitted ([`workdir_rule`]) and held open for the run, marked when the caller named
//! it, the sandbox resolved, who each bot runs as, and what no sandboxed bot may see, as found
//! now ([`HiddenPath`]): the run's outputs and every bot's workdir (a bot's own stays visible to
//! it). Its refusals are a [`PolicyError`]; what it has to say (a sandbox missing, bots that run
//! as root) comes back as [`Notice`]s for the caller to show.
//!
//! Its [`Default`] is the safe one, as the command line's: the sandbox where it works
//! (`auto`), uids of their own for bots when the referee is root (`auto`); the resource limits
//! are each bot's settings', on by default.

mod error;
mod workdirs;

pub use error::PolicyError;
pub(crate) use error::typed_hint;

use crate::seat::cgroup;
use crate::seat::notice::Notice;
use crate::seat::users::{self, Isolation, Probed};
use crate::seat::workdir_rule::{self, WorkdirOrigin};
use crate::seat::{
    BotSpec, BotUids, HiddenPath, Launch, ProcessOptions, Sandbox, SandboxMode, Workdirs,
};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Mutex;

/// How a run's bot processes are to be run (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProcessPolicy {
    /// The sandbox asked for: `auto` (bubblewrap where it works) by default.
    pub sandbox: SandboxMode,
    /// Which uids bots run as when the referee is root: `auto` by default.
    pub bot_uids: BotUids,
    /// Paths no sandboxed bot may see, beyond the run's own outputs (a config file, `--hide`).
    pub hide: Vec<PathBuf>,
    /// Where the bots' workdirs come from.
    pub workdirs: WorkdirSource,
    /// The directory the run's bots run from and its relative paths (workdirs, paths to hide,
    /// the words of a command) are found in: the current directory when `None`. A rerun gives
    /// the directory the tournament ran in; the referee itself never changes directory.
    pub from: Option<PathBuf>,
}

/// Where a run's workdirs come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum WorkdirSource {
    /// The caller (a command line and the config file it names): each is named, and marked for
    /// its bots.
    #[default]
    Named,
    /// A results directory (`rerun`): each must bear the referee's mark for its bot, but those
    /// of the bots in `named`, whose path the user typed (`--workdir NAME=DIR`). None is marked.
    Recorded {
        /// The bots whose workdir the caller names.
        named: BTreeSet<String>,
    },
}

impl WorkdirSource {
    /// Where the workdir of the bot named `bot` comes from.
    fn origin(&self, bot: &str) -> WorkdirOrigin {
        match self {
            WorkdirSource::Recorded { named } if !named.contains(bot) => WorkdirOrigin::Recorded,
            _ => WorkdirOrigin::Named,
        }
    }
}

/// What a run's bot processes get, as resolved from a [`ProcessPolicy`].
#[derive(Clone, Debug)]
pub struct BotProcesses {
    /// How each is run: the sandbox, the users, the hidden paths, the admitted workdirs.
    pub options: ProcessOptions,
    /// What to say before the run, in order: a sandbox that `auto` could not have, the
    /// control groups, who the bots run as.
    pub notices: Vec<Notice>,
}

impl BotProcesses {
    /// One line that says which sandbox the bot processes run in.
    pub fn sandbox(&self) -> String {
        match &self.options.sandbox {
            Sandbox::Bwrap(bwrap) => format!(
                "bots run in the sandbox (bubblewrap, {})",
                bwrap.path.display()
            ),
            Sandbox::None => "bots run without a sandbox".to_string(),
        }
    }
}

impl ProcessPolicy {
    /// The directory the run's bots run from: [`ProcessPolicy::from`] made absolute, else the
    /// current directory.
    ///
    /// # Errors
    /// [`PolicyError::CurrentDir`] when the current directory cannot be read;
    /// [`PolicyError::From`] when `from` is not a directory here.
    pub fn from_dir(&self) -> Result<PathBuf, PolicyError> {
        let Some(dir) = &self.from else {
            return std::env::current_dir().map_err(PolicyError::CurrentDir);
        };
        let not_here = |error| PolicyError::From {
            dir: dir.clone(),
            error,
        };
        let real = dir.canonicalize().map_err(not_here)?;
        if !real.is_dir() {
            return Err(not_here(std::io::Error::from_raw_os_error(libc::ENOTDIR)));
        }
        Ok(real)
    }

    /// Resolves the policy for `bots`, with the run's `outputs` (where the referee writes: a
    /// relative one from the current directory) and [`ProcessPolicy::hide`] (a relative one from
    /// [`ProcessPolicy::from`]) hidden from them; makes each bot's workdir the absolute path of
    /// the directory admitted. Bots without a process (built-ins) get nothing and are told
    /// nothing.
    ///
    /// # Errors
    /// [`PolicyError`] when `from` is not a directory here, or a workdir is refused, is inside a
    /// hidden path or is over its quota already (all before anything is changed); and when the
    /// sandbox or the range of uids asked for cannot be had here (after the workdirs named are
    /// marked).
    pub fn resolve(
        &self,
        bots: &mut [BotSpec],
        outputs: &[PathBuf],
    ) -> Result<BotProcesses, PolicyError> {
        self.resolve_probed(bots, outputs, &Mutex::new(None))
    }

    /// This policy for runs one after another: the machine is probed (the sandbox, the uids)
    /// once, at the first run with processes, not for each ([`PreparedPolicy`]).
    pub fn prepared(self) -> PreparedPolicy {
        PreparedPolicy {
            policy: self,
            probed: Mutex::new(None),
        }
    }

    /// [`ProcessPolicy::resolve`], with the machine's probe taken from `probed` (made and kept
    /// there if it is not yet).
    fn resolve_probed(
        &self,
        bots: &mut [BotSpec],
        outputs: &[PathBuf],
        probed: &Mutex<Option<Probed>>,
    ) -> Result<BotProcesses, PolicyError> {
        let from = self.from_dir()?;
        let hidden_paths: Vec<PathBuf> = outputs
            .iter()
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
            .chain(self.hide.iter().map(|p| from.join(p)))
            .collect();
        let has_processes = bots.iter().any(|b| matches!(b.launch, Launch::Command(_)));
        let admitted = workdirs::admit(bots, &self.workdirs, &from)?;
        workdirs::refuse_inside_hidden(&admitted, &hidden_paths)?;
        let workdirs = Workdirs::new(
            admitted
                .iter()
                .map(|(bot, workdir)| (bot.name.clone(), workdir.dir.clone())),
        );
        workdirs::refuse_over_quota(bots, &workdirs)?;
        // Only then is anything changed: each named workdir marked (never a recorded one), each
        // bot's group given its workdir.
        if self.workdirs == WorkdirSource::Named {
            workdir_rule::mark(&admitted).map_err(PolicyError::Mark)?;
        }
        let isolation = if has_processes {
            let mut probed = probed.lock().unwrap_or_else(|e| e.into_inner());
            let probed = match &mut *probed {
                Some(probed) => probed,
                none => none.insert(users::probe(self.sandbox, self.bot_uids)?),
            };
            probed.assign(bots, &workdirs, &from)?
        } else {
            Isolation::default()
        };
        let mechanisms = has_processes.then(|| cgroup::describe(cgroup::mechanisms()));
        let notices = isolation
            .sandbox_warning
            .into_iter()
            .chain(mechanisms)
            .chain(isolation.notices)
            .collect();
        let mut hidden: Vec<HiddenPath> =
            hidden_paths.iter().map(|p| HiddenPath::find(p)).collect();
        for (_, workdir) in workdirs.iter() {
            hidden.push(
                HiddenPath::workdir(workdir).map_err(|error| PolicyError::Hide {
                    dir: workdir.path().to_path_buf(),
                    error,
                })?,
            );
        }
        Ok(BotProcesses {
            options: ProcessOptions {
                sandbox: isolation.sandbox,
                users: isolation.users,
                hidden,
                workdirs,
                dir: self.from.is_some().then_some(from),
                ..ProcessOptions::default()
            },
            notices,
        })
    }
}

/// A [`ProcessPolicy`] for runs one after another (a ladder's worker starts processes for
/// match after match): what the machine gives bots is probed once, at the first run with
/// processes — a probe starts a process as a bot's user and bubblewrap as that user, and
/// reads every process's ids in `/proc` — and each run then only leases its bots' groups.
#[derive(Debug)]
pub struct PreparedPolicy {
    policy: ProcessPolicy,
    probed: Mutex<Option<Probed>>,
}

impl PreparedPolicy {
    /// Whether bots run as uids of their own here: `None` until the first run with processes
    /// has probed the machine.
    pub fn own_uids(&self) -> Option<bool> {
        let probed = self.probed.lock().unwrap_or_else(|e| e.into_inner());
        probed.as_ref().map(Probed::own_uids)
    }

    /// [`ProcessPolicy::resolve`] for one run, with the machine probed once for all.
    ///
    /// # Errors
    /// As [`ProcessPolicy::resolve`]; a probe that failed is made again at the next run.
    pub fn resolve(
        &self,
        bots: &mut [BotSpec],
        outputs: &[PathBuf],
    ) -> Result<BotProcesses, PolicyError> {
        self.policy.resolve_probed(bots, outputs, &self.probed)
    }
}

#[cfg(test)]
mod tests;
