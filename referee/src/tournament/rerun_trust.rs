//! What `referee rerun` takes from a results directory, and what it refuses unless the user
//! accepts it on the command line. A results directory is input like any other: someone may
//! hand you one, or edit it. Its bot commands are what `rerun` is for (it says them before it
//! runs them), and its game settings (options, seed, seats, time control, fault policy) only
//! change the match; but a recorded setting never widens what a bot may reach by itself:
//!
//! | recorded | refused unless accepted (`--trust-recorded NAME`) |
//! |---|---|
//! | `sandbox` (run.json) | `"none"`, unless `--sandbox` is given (`bwrap` is kept) or every bot is built in |
//! | `env` (run.json) | any variable (`LD_PRELOAD`, `PYTHONPATH` change what a command runs) |
//! | limits (tournament.json) | a resource limit off, or above this referee's default |
//! | `cwd` (run.json) | a directory other than the current one (relative commands are found there) |
//!
//! Bot uids are never recorded (`--bot-uids` or its default), and the hidden paths are taken as
//! recorded: they only hide more from the bots. See `docs/tournament.md` (rerun) and
//! `docs/security.md#bot-users`.

use super::rerun::RerunPlan;
use super::run_record::RunRecord;
use crate::seat::BotSpec;
use crate::seat::SandboxMode;
use crate::seat::workdir_marker::MarkedBot;
use crate::seat::workdir_rule::{self, Admitted, WorkdirOrigin, WorkdirRefusal};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A recorded setting that can widen what a bot may reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RecordedSetting {
    /// The sandbox (`run.json`'s `sandbox`).
    Sandbox,
    /// Each bot's environment (`run.json`).
    Env,
    /// Each bot's resource limits (`tournament.json`).
    Limits,
    /// The directory the bots run from (`run.json`'s `cwd`).
    Cwd,
}

impl RecordedSetting {
    /// Every recorded setting.
    pub const ALL: [RecordedSetting; 4] = [
        RecordedSetting::Sandbox,
        RecordedSetting::Env,
        RecordedSetting::Limits,
        RecordedSetting::Cwd,
    ];

    /// Its name on the command line (`--trust-recorded NAME`).
    pub fn name(self) -> &'static str {
        match self {
            RecordedSetting::Sandbox => "sandbox",
            RecordedSetting::Env => "env",
            RecordedSetting::Limits => "limits",
            RecordedSetting::Cwd => "cwd",
        }
    }
}

/// The recorded settings the user accepted on the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trust(BTreeSet<RecordedSetting>);

impl Trust {
    /// Trust in `settings`.
    pub fn new(settings: impl IntoIterator<Item = RecordedSetting>) -> Self {
        Trust(settings.into_iter().collect())
    }

    /// Whether the user accepted `setting`.
    pub fn accepts(&self, setting: RecordedSetting) -> bool {
        self.0.contains(&setting)
    }
}

/// A recorded setting refused: which, its value, why, and the flag that accepts it.
#[derive(Debug, thiserror::Error)]
pub enum Untrusted {
    /// A setting of `run.json` or `tournament.json`.
    #[error(
        "{file} records {what}: {why}; to accept it, add --trust-recorded {}{alternative}",
        setting.name()
    )]
    Setting {
        /// Which.
        setting: RecordedSetting,
        /// The file that records it.
        file: &'static str,
        /// The setting and its value.
        what: String,
        /// Why it is refused.
        why: String,
        /// Another way to accept it, with its leading space (`" (or --sandbox none)"`).
        alternative: String,
    },
    /// A workdir refused: for want of its mark (typing its path, `--workdir NAME=DIR`, accepts
    /// it), or whatever the command line says (another user's directory, a system directory, a
    /// place another user can change, a symbolic link on the way).
    #[error("{refusal}{}", crate::policy::typed_hint(refusal))]
    Workdir {
        /// Why.
        refusal: WorkdirRefusal,
    },
}

/// What a rerun will take from the directory, looked at before anything runs.
#[derive(Debug, Default)]
pub struct Review {
    /// The workdir of each bot (in seat order) that has one, as it will be handed over.
    pub workdirs: Vec<Option<Admitted>>,
    /// The recorded settings refused.
    pub refusals: Vec<Untrusted>,
}

impl RerunPlan {
    /// Looks at what the plan takes from its directory (see the module documentation) with
    /// the settings `trust` accepts, `--sandbox` given or not, the workdirs of the bots in
    /// `typed` named on the command line, run from `here`. Changes nothing.
    pub fn review(
        &self,
        trust: &Trust,
        sandbox_given: bool,
        typed: &BTreeSet<String>,
        here: &Path,
    ) -> Review {
        review(
            self.run.as_ref(),
            &self.bots,
            trust,
            sandbox_given,
            typed,
            here,
        )
    }
}

/// Looks at what a replay of recorded matches takes from a results directory: its run record
/// `run` and its `bots` (as [`MetaBot::spec`](super::meta::MetaBot::spec) made them), with the
/// settings `trust` accepts, `--sandbox` given or not, the workdirs of the bots in `typed`
/// named on the command line, run from `here` (see the module documentation). Changes
/// nothing.
pub fn review(
    run: Option<&RunRecord>,
    bots: &[BotSpec],
    trust: &Trust,
    sandbox_given: bool,
    typed: &BTreeSet<String>,
    here: &Path,
) -> Review {
    let mut review = Review::default();
    let setting =
        |setting, file, what: String, why: &str, alternative: String| Untrusted::Setting {
            setting,
            file,
            what,
            why: why.to_string(),
            alternative,
        };
    let accepts = |s| trust.accepts(s);
    // Built-in bots run inside the referee: without a bot process, no sandbox is missed (a
    // tournament of built-in bots only records "none").
    let processes = bots
        .iter()
        .any(|b| !matches!(b.launch, crate::seat::Launch::Builtin(_)));
    if let Some(run) = run {
        if run.sandbox == SandboxMode::None
            && processes
            && !sandbox_given
            && !accepts(RecordedSetting::Sandbox)
        {
            review.refusals.push(setting(
                    RecordedSetting::Sandbox,
                    "run.json",
                    "sandbox \"none\"".into(),
                    "the bots would run without a sandbox, and a recorded setting never widens what a bot may reach",
                    " (or --sandbox none)".into(),
                ));
        }
        if !same_dir(&run.cwd, here) && !accepts(RecordedSetting::Cwd) {
            review.refusals.push(setting(
                RecordedSetting::Cwd,
                "run.json",
                format!("cwd {}, not the current directory", run.cwd.display()),
                "rerun would start the bots there and find their commands and workdirs from it",
                format!(" (or run rerun from {})", run.cwd.display()),
            ));
        }
    }
    for bot in bots {
        let names: Vec<&str> = bot.settings.env.keys().map(String::as_str).collect();
        if !names.is_empty() && !accepts(RecordedSetting::Env) {
            review.refusals.push(setting(
                    RecordedSetting::Env,
                    "run.json",
                    format!("environment variables {} for bot '{}'", names.join(", "), bot.name),
                    "they would be passed to its command, and can change what it runs (LD_PRELOAD, PYTHONPATH)",
                    String::new(),
                ));
        }
        if !accepts(RecordedSetting::Limits) {
            for (key, value, default) in bot.settings.limits.loosened() {
                let shown = if value == 0 {
                    "0 (no limit)".to_string()
                } else {
                    value.to_string()
                };
                review.refusals.push(setting(
                        RecordedSetting::Limits,
                        "tournament.json",
                        format!("{key} = {shown} for bot '{}'", bot.name),
                        &format!("looser than this referee's default of {default}, and a recorded setting never widens what a bot may take"),
                        String::new(),
                    ));
            }
        }
    }
    let base = run.map_or_else(|| here.to_path_buf(), |r| r.cwd.clone());
    for bot in bots {
        let origin = if typed.contains(&bot.name) {
            WorkdirOrigin::Named
        } else {
            WorkdirOrigin::Recorded
        };
        let admitted = bot.settings.workdir.as_deref().and_then(|workdir| {
            let marked = MarkedBot {
                name: bot.name.clone(),
                command: bot.describe(),
            };
            workdir_rule::admit(&marked, workdir, &base, origin)
                .map_err(|refusal| review.refusals.push(Untrusted::Workdir { refusal }))
                .ok()
        });
        review.workdirs.push(admitted);
    }
    review
}

/// Whether `a` and `b` are one directory (by their paths, links resolved where they exist).
pub(super) fn same_dir(a: &Path, b: &Path) -> bool {
    let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| PathBuf::from(p));
    a == b || real(a) == real(b)
}
