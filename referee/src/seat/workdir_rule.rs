//! Which directories a bot may have as its workdir: the one place that decides, before
//! anything is changed, for every command that hands workdirs over (`match`, `tournament`,
//! `tournament --resume`, `rerun`, `check`). A workdir is writable by the bot — in the sandbox,
//! and, when the referee runs as root, by the bot's group, which then owns its whole tree — so
//! the directory must be one the user meant for that bot (`docs/security.md#bot-users`):
//!
//! - **named on this command line** (a config file given to it, or, for `rerun`, the path typed
//!   with `--workdir NAME=DIR`), or **recorded and marked**: found in a results directory's
//!   `run.json`, and holding the referee's [mark](super::workdir_marker) for that bot (its name
//!   and command), which the referee writes when it first uses a named workdir (`rerun` never
//!   writes one);
//! - **in a place of its own** ([`workdir_place`]): not `/`, a top-level directory or one of the
//!   system's, named by a path with no symbolic link on the way, and below directories no other
//!   user can change (sshd's `StrictModes` rule), so that no one else can swap it for another
//!   directory while the run goes on;
//! - **the referee's user's own**: never a directory another user owns.
//!
//! What is admitted is the directory itself, held open for the run ([`AdmittedWorkdir`]): what
//! the referee does with it later acts on that directory, not on what its name leads to then.

use super::admitted_workdir::AdmittedWorkdir;
use super::path_walk::lexical;
use super::workdir_marker::{MarkedBot, MarkerError, OpenDir};
use super::workdir_place::{self, PlaceError};
use std::path::{Path, PathBuf};

/// Where a workdir comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkdirOrigin {
    /// Named on this command line: a config file given to it, or a path typed with `rerun
    /// --workdir NAME=DIR`.
    Named,
    /// Recorded in a results directory, and not accepted on the command line: it must bear the
    /// referee's mark for the bot.
    Recorded,
}

/// A workdir that may be handed over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admitted {
    /// The directory, held open; its path is absolute, with no symbolic link on the way.
    pub dir: AdmittedWorkdir,
    /// Whether the referee's mark for the bot vouched for it (a recorded workdir).
    pub marked: bool,
}

/// A workdir refused: which bot, which directory, why.
#[derive(Debug, thiserror::Error)]
#[error("bot '{bot}': workdir {}: {kind}", path.display())]
pub struct WorkdirRefusal {
    /// The bot.
    pub bot: String,
    /// The workdir, made absolute.
    pub path: PathBuf,
    /// Why it is refused.
    pub kind: RefusalKind,
}

/// Why a workdir is refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RefusalKind {
    /// Not in a place of its own ([`workdir_place`]): a system directory, a link on the way,
    /// a directory above it that another user can change, or not a directory at all.
    #[error(transparent)]
    Place(PlaceError),
    /// Another user owns it.
    #[error(
        "it belongs to uid {owner}, not to the referee's user (uid {referee}): a bot gets no directory of another user; give the bot a directory of uid {referee}'s own, in a place no other user can change (under /srv/referee, say), and copy there what it needs"
    )]
    OtherOwner {
        /// Its owner.
        owner: u32,
        /// The referee's user.
        referee: u32,
    },
    /// Its mark cannot be written.
    #[error("the referee cannot write its mark (.referee-workdir) in it ({0})")]
    Unmarkable(std::io::Error),
    /// Recorded, without the referee's mark for the bot.
    #[error(
        "run.json records it, but the referee did not give it to this bot: {0}; a recorded workdir is handed over only when the referee's mark says it was this bot's"
    )]
    Unmarked(MarkerError),
}

impl WorkdirRefusal {
    /// Whether the user can give the bot the workdir by typing its path on the command line
    /// (`rerun --workdir NAME=DIR`): a recorded workdir without its mark. A directory of another
    /// user, of the system, or in a place another user can change is refused however named.
    pub fn accepted_when_named(&self) -> bool {
        matches!(self.kind, RefusalKind::Unmarked(_))
    }
}

/// Decides whether bot `bot` may have `workdir` (relative to `base`) as its workdir (see the
/// module documentation). Changes nothing.
///
/// # Errors
/// [`WorkdirRefusal`] saying why not.
pub fn admit(
    bot: &MarkedBot,
    workdir: &Path,
    base: &Path,
    origin: WorkdirOrigin,
) -> Result<Admitted, WorkdirRefusal> {
    let named = lexical(&base.join(workdir));
    let refuse = |kind| WorkdirRefusal {
        bot: bot.name.clone(),
        path: named.clone(),
        kind,
    };
    let referee = rustix::process::geteuid().as_raw();
    let walked =
        workdir_place::open_workdir(&named, referee).map_err(|e| refuse(RefusalKind::Place(e)))?;
    let dir = OpenDir::from_walked(walked, &named);
    if dir.owner() != referee {
        return Err(refuse(RefusalKind::OtherOwner {
            owner: dir.owner(),
            referee,
        }));
    }
    let marked = match origin {
        WorkdirOrigin::Named => false,
        WorkdirOrigin::Recorded => {
            dir.verify(Some(bot))
                .map_err(|e| refuse(RefusalKind::Unmarked(e)))?;
            true
        }
    };
    Ok(Admitted {
        dir: AdmittedWorkdir::new(dir),
        marked,
    })
}

/// Marks every workdir of `admitted` that no mark vouched for (a named one) as the workdir of
/// the bots given it in this run: bots that share a directory share its mark. Call it once
/// every workdir of the run is admitted, since it changes the directories.
///
/// # Errors
/// [`RefusalKind::Unmarkable`] when a mark cannot be written.
pub fn mark(admitted: &[(MarkedBot, Admitted)]) -> Result<(), WorkdirRefusal> {
    let mut by_dir: std::collections::BTreeMap<(u64, u64), (&AdmittedWorkdir, Vec<MarkedBot>)> =
        Default::default();
    for (bot, workdir) in admitted.iter().filter(|(_, w)| !w.marked) {
        by_dir
            .entry(workdir.dir.identity())
            .or_insert((&workdir.dir, Vec::new()))
            .1
            .push(bot.clone());
    }
    for (dir, bots) in by_dir.into_values() {
        dir.dir().mark(&bots).map_err(|e| WorkdirRefusal {
            bot: bots[0].name.clone(),
            path: dir.path().to_path_buf(),
            kind: RefusalKind::Unmarkable(e),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot() -> MarkedBot {
        MarkedBot {
            name: "a".into(),
            command: "python3 a.py".into(),
        }
    }

    #[test]
    fn a_named_directory_is_admitted_as_the_kernel_finds_it() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("w/sub")).unwrap();
        let admitted = admit(&bot(), Path::new("w/sub/../."), &base, WorkdirOrigin::Named);
        let admitted = admitted.unwrap();
        assert_eq!(admitted.dir.path(), base.join("w"));
        assert!(!admitted.marked);
    }

    #[test]
    fn a_link_on_the_way_or_a_missing_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir(base.join("real")).unwrap();
        std::os::unix::fs::symlink(base.join("real"), base.join("link")).unwrap();
        let err = admit(&bot(), Path::new("link"), &base, WorkdirOrigin::Named).unwrap_err();
        assert!(
            matches!(err.kind, RefusalKind::Place(PlaceError::Redirected { .. })),
            "{err}"
        );
        assert!(!err.accepted_when_named());
        let err = admit(&bot(), Path::new("none"), &base, WorkdirOrigin::Named).unwrap_err();
        assert!(
            matches!(err.kind, RefusalKind::Place(PlaceError::Unusable(_))),
            "{err}"
        );
        for system in ["/etc", "/usr/lib", "/"] {
            let err = admit(&bot(), Path::new(system), &base, WorkdirOrigin::Named).unwrap_err();
            assert!(
                matches!(err.kind, RefusalKind::Place(PlaceError::System(_))),
                "{err}"
            );
        }
    }

    #[test]
    fn a_recorded_directory_needs_the_referees_mark_for_the_bot() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let err = admit(&bot(), &base, &base, WorkdirOrigin::Recorded).unwrap_err();
        assert!(matches!(err.kind, RefusalKind::Unmarked(_)), "{err}");
        assert!(err.accepted_when_named());
        OpenDir::open(&base).unwrap().mark(&[bot()]).unwrap();
        let admitted = admit(&bot(), &base, &base, WorkdirOrigin::Recorded).unwrap();
        assert!(admitted.marked);
    }
}
