//! Where a rerun's bots run from: the directory the tournament ran in, as its `run.json`
//! records it, without the referee moving there (a library never changes the process's
//! directory): the bots are started there and the relative paths of the run (commands,
//! workdirs, hidden paths) are found from there.

use super::rerun_trust::same_dir;
use super::run_record::RunRecord;
use crate::policy::{BotProcesses, PolicyError, ProcessPolicy};
use crate::seat::notice::Notice;
use crate::seat::{BotSpec, BotSpecError};
use crate::untrusted::shown;
use engine::Game;
use std::path::PathBuf;

/// Where a rerun's bots run from, and what to say of it.
#[derive(Clone, Debug, Default)]
pub struct RunFrom {
    /// The directory the tournament ran in, when it is not the current one and is one here;
    /// `None`: the current directory.
    pub dir: Option<PathBuf>,
    /// What to tell before the bots start: that they run from the tournament's directory, or
    /// that it cannot be entered here and they run from the current one.
    pub notice: Option<Notice>,
}

impl RunFrom {
    /// Where the bots of a tournament that ran as `run` records run from now.
    pub fn of(run: Option<&RunRecord>) -> Self {
        let Some(run) = run else {
            return RunFrom::default();
        };
        // The one test of "the same directory" the review applies ([`same_dir`]).
        let here = std::env::current_dir().ok();
        if here.is_some_and(|here| same_dir(&run.cwd, &here)) {
            return RunFrom::default();
        }
        let cwd = run.cwd.to_string_lossy();
        let recorded = shown(&cwd);
        match enterable(&run.cwd) {
            Ok(()) => RunFrom {
                dir: Some(run.cwd.clone()),
                notice: Some(Notice::plain(format!(
                    "bots run from {recorded}, where the tournament ran"
                ))),
            },
            Err(e) => RunFrom {
                dir: None,
                notice: Some(Notice::plain(format!(
                    "note: the tournament ran in {recorded}, which cannot be entered here ({e}): bots run from the current directory"
                ))),
            },
        }
    }
}

impl RunFrom {
    /// Checks, before any bot starts, that each of `bots` can be run in game `G` from where
    /// they run from.
    ///
    /// # Errors
    /// [`BotSpecError`] for a command not found there, or a built-in the game does not have.
    pub fn check_bots<G: Game>(&self, bots: &[BotSpec]) -> Result<(), BotSpecError> {
        let from = self.dir.clone().unwrap_or_default();
        bots.iter().try_for_each(|bot| bot.check_in::<G>(&from))
    }

    /// Resolves `policy` for `bots`, with `outputs` hidden from them, the bots run from here
    /// unless the policy says where (which then becomes where they run from).
    ///
    /// # Errors
    /// [`PolicyError`] when the policy refuses.
    pub fn resolve(
        &mut self,
        policy: &ProcessPolicy,
        bots: &mut [BotSpec],
        outputs: &[PathBuf],
    ) -> Result<BotProcesses, Box<PolicyError>> {
        if let Some(dir) = &policy.from {
            self.dir = Some(dir.clone());
        }
        let policy = ProcessPolicy {
            from: self.dir.clone(),
            ..policy.clone()
        };
        policy.resolve(bots, outputs).map_err(Box::new)
    }
}

/// Whether `dir` is a directory a process could be started in (it exists and is one).
fn enterable(dir: &std::path::Path) -> std::io::Result<()> {
    if std::fs::metadata(dir)?.is_dir() {
        Ok(())
    } else {
        Err(std::io::Error::from_raw_os_error(libc::ENOTDIR))
    }
}
