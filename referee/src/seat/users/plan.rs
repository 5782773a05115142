//! The start-up decision: which sandbox the run's bots get and which user each bot runs as,
//! with the lines that say so (`docs/security.md#bot-users`).
//!
//! As root, each bot process runs as a uid of its own ([`BotUids`]) — unless the machine does
//! not allow it (the ids cannot be leased, a process cannot become another user) or a bot's
//! files are out of such a user's reach ([`reach`](super::reach)): then, by default, the bot
//! runs as root and a warning says exactly what it can do; with a range given explicitly, it
//! does not start. Bubblewrap then runs as the bot's user too, in a user namespace; where the
//! machine allows none, the default keeps bubblewrap and runs its bots as root (the sandbox
//! still hides every other process), while an explicit range keeps the uids and, with
//! `--sandbox auto`, runs bots without the sandbox.
//!
//! What it decides is said once per run, whatever the number of bots, as [`Notice`]s: one
//! short line each (all the bots that run as root in one), the long form with `--verbose`.

use super::credentials::Credentials;
use super::lease::IdPool;
use super::notices::{self, referee_user, running_as_root};
use super::own_group::assign_groups;
use super::run_as::BotUsers;
use super::setting::{BotUids, UidRange};
use super::uid_probe::{effective_uid, pool_here};
use crate::seat::BotSpec;
use crate::seat::admitted_workdir::Workdirs;
use crate::seat::notice::Notice;
use crate::seat::sandbox::{Sandbox, SandboxError, SandboxMode};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How a run's bots are isolated, and what to say about it at start-up.
#[derive(Debug, Default)]
pub struct Isolation {
    /// Their sandbox.
    pub sandbox: Sandbox,
    /// Who each runs as.
    pub users: BotUsers,
    /// The warning of a sandbox that `auto` could not have.
    pub sandbox_warning: Option<Notice>,
    /// Who bots run as and what they can do, then one warning for the bots that run as the
    /// referee's user although others do not.
    pub notices: Vec<Notice>,
}

/// Why bots cannot be isolated as asked.
#[derive(Debug, thiserror::Error)]
pub enum IsolationError {
    /// The sandbox asked for cannot be used.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// A range of uids was asked for and the referee cannot give bots uids.
    #[error("--bot-uids {range}: {why}")]
    Uids {
        /// The range asked for.
        range: UidRange,
        /// Why not.
        why: String,
    },
    /// A bot's workdir cannot be given to its group (its group or mode cannot be changed): the
    /// run is refused rather than the bot run as root.
    #[error("bot '{bot}': its workdir {} cannot be given to its group: {why}", dir.display())]
    Workdir {
        /// The bot.
        bot: String,
        /// Its workdir.
        dir: PathBuf,
        /// Why not.
        why: String,
    },
}

/// Decides the sandbox of `mode` and the users of `uids` for `bots`, leasing each bot's group
/// and giving it its working directory for the run (of `workdirs`, as admitted; a bot without
/// one runs from `from`; see the module documentation): [`probe`] then
/// [`Probed::assign`].
///
/// # Errors
/// [`IsolationError`] when `--sandbox bwrap` or an explicit range cannot be had here.
pub fn isolate(
    mode: SandboxMode,
    uids: BotUids,
    bots: &[BotSpec],
    workdirs: &Workdirs,
    from: &Path,
) -> Result<Isolation, IsolationError> {
    probe(mode, uids)?.assign(bots, workdirs, from)
}

/// What this machine gives bots under `mode` and `uids`, found by trying it (a process made a
/// bot's user, bubblewrap run as that user): the part of the decision that is the same for every
/// run, which a caller that starts processes run after run (a ladder's worker) makes once.
#[derive(Clone, Debug)]
pub struct Probed {
    sandbox: Sandbox,
    /// The pool bots' uids and groups are leased from; `None` when they run as the referee's
    /// user.
    pool: Option<Arc<IdPool>>,
    required: bool,
    sandbox_warning: Option<Notice>,
    /// The lines said whatever the bots: who they run as, user namespaces, bubblewrap as root.
    notices: Vec<Notice>,
}

/// Finds what this machine gives bots under `mode` and `uids` ([`Probed`]).
///
/// # Errors
/// [`IsolationError`] when `--sandbox bwrap` or an explicit range cannot be had here.
pub fn probe(mode: SandboxMode, uids: BotUids) -> Result<Probed, IsolationError> {
    let euid = effective_uid();
    let required = matches!(uids, BotUids::Required(_));
    let (probed, no_own_uids) = uid_pool(uids, euid == 0, pool_here)?;
    let mut notices: Vec<Notice> = no_own_uids.into_iter().collect();
    let (mut pool, probe) = probed.unzip();
    let user = probe.as_ref().map(|probe| probe.user);
    let (sandbox, fallback, as_root) = sandbox_for(mode, user, required)?;
    let sandbox_warning = fallback.map(notices::no_sandbox);
    if let Sandbox::Bwrap(bwrap) = &sandbox {
        notices.extend(notices::userns_allowed(bwrap));
    }
    if let Some(why) = as_root {
        notices.push(notices::bwrap_as_root(&why));
        pool = None;
    }
    drop(probe);
    match &pool {
        Some(pool) => notices.insert(0, notices::own_uids(pool.range())),
        None => notices.insert(0, referee_user(&sandbox, uids, euid)),
    }
    Ok(Probed {
        sandbox,
        pool,
        required,
        sandbox_warning,
        notices,
    })
}

impl Probed {
    /// The sandbox bots get.
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Whether bots run as uids of their own here (then one that runs as the referee's user
    /// does because no uid of the range could reach its files or be leased).
    pub fn own_uids(&self) -> bool {
        self.pool.is_some()
    }

    /// The users of `bots` for one run: each bot's group leased and its working directory
    /// (of `workdirs`, as admitted) given to it; a bot without one runs from `from`.
    ///
    /// # Errors
    /// [`IsolationError::Workdir`] when a bot's workdir cannot be given to its group.
    pub fn assign(
        &self,
        bots: &[BotSpec],
        workdirs: &Workdirs,
        from: &Path,
    ) -> Result<Isolation, IsolationError> {
        let mut notices = self.notices.clone();
        let users = match &self.pool {
            Some(pool) => {
                let assigned = assign_groups(pool, bots, workdirs, from, self.required)?;
                notices.extend(running_as_root(&assigned.rooted, &self.sandbox));
                BotUsers::new(assigned.users)
            }
            None => BotUsers::default(),
        };
        Ok(Isolation {
            sandbox: self.sandbox.clone(),
            users,
            sandbox_warning: self.sandbox_warning.clone(),
            notices,
        })
    }
}

/// Whether bots get uids of their own under `uids`, decided from whether the referee runs as
/// `root` and, when it does, from `probe` of the range (which tells whether this machine lets
/// bots have them, [`pool_here`]): what the probe found, or nothing with the warning that says
/// why bots get none (none when the referee is not root: the line about the referee's user
/// says it).
///
/// # Errors
/// [`IsolationError::Uids`] when the range was given explicitly and cannot be had.
fn uid_pool<P>(
    uids: BotUids,
    root: bool,
    probe: impl FnOnce(UidRange) -> Result<P, String>,
) -> Result<(Option<P>, Option<Notice>), IsolationError> {
    let Some(range) = uids.range() else {
        return Ok((None, None));
    };
    let probed = if root {
        probe(range)
    } else {
        Err("the referee is not root".to_string())
    };
    match probed {
        Ok(found) => Ok((Some(found), None)),
        Err(why) if matches!(uids, BotUids::Required(_)) => {
            Err(IsolationError::Uids { range, why })
        }
        Err(_) if !root => Ok((None, None)),
        Err(why) => Ok((None, Some(notices::no_own_uids(&why)))),
    }
}

/// The sandbox of `mode` for bots that run as `user`, with the warning of `auto` when it
/// falls back to none; and, when bubblewrap works as root but not as `user` and the uids may
/// go (`keep_uids` is false), bubblewrap as root with the reason it cannot run as `user`.
fn sandbox_for(
    mode: SandboxMode,
    user: Option<Credentials>,
    keep_uids: bool,
) -> Result<(Sandbox, Option<String>, Option<String>), SandboxError> {
    if mode != SandboxMode::None && user.is_some() && !keep_uids {
        match Sandbox::usable(user) {
            Ok(bwrap) => return Ok((Sandbox::Bwrap(bwrap), None, None)),
            Err(why) => {
                if let Ok(bwrap) = Sandbox::usable(None) {
                    return Ok((Sandbox::Bwrap(bwrap), None, Some(why)));
                }
            }
        }
    }
    let (sandbox, warning) = Sandbox::resolve_as(mode, user)?;
    Ok((sandbox, warning, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::RunAs;

    fn bots() -> Vec<BotSpec> {
        vec![BotSpec::parse("a=true").unwrap()]
    }

    #[test]
    fn with_uids_off_bots_run_as_the_referees_user_and_one_line_says_so() {
        let isolation = isolate(
            SandboxMode::None,
            BotUids::Off,
            &bots(),
            &Workdirs::default(),
            Path::new("/"),
        )
        .unwrap();
        assert_eq!(isolation.sandbox, Sandbox::None);
        assert!(matches!(isolation.users.run_as("a"), RunAs::Referee));
        assert_eq!(
            isolation.notices,
            [referee_user(&Sandbox::None, BotUids::Off, effective_uid())]
        );
        assert!(isolation.notices[0].short().len() <= crate::seat::notice::SHORT_MAX);
    }

    const RANGE: UidRange = UidRange {
        first: 70_000,
        last: 70_099,
    };

    /// A probe that must not be made.
    fn not_probed(range: UidRange) -> Result<UidRange, String> {
        panic!("{range} probed")
    }

    #[test]
    fn a_range_given_without_root_is_refused_and_as_root_it_is_probed() {
        let err = uid_pool(BotUids::Required(RANGE), false, not_probed).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--bot-uids 70000-70099: the referee is not root"
        );
        let (pool, warning) = uid_pool(BotUids::Required(RANGE), true, Ok).unwrap();
        assert_eq!((pool, warning), (Some(RANGE), None));
        let refused = uid_pool(BotUids::Required(RANGE), true, |_| {
            Err::<UidRange, _>("no leases".to_string())
        });
        assert_eq!(
            refused.unwrap_err().to_string(),
            "--bot-uids 70000-70099: no leases"
        );
    }

    #[test]
    fn by_default_bots_without_uids_of_their_own_are_a_warning_as_root_only() {
        let (pool, warning) = uid_pool(BotUids::Auto, false, not_probed).unwrap();
        assert_eq!((pool, warning), (None, None));
        let (pool, warning) = uid_pool(BotUids::Auto, true, Ok).unwrap();
        assert_eq!((pool, warning), (Some(UidRange::DEFAULT), None));
        let (pool, warning) = uid_pool(BotUids::Auto, true, |_| {
            Err::<UidRange, _>("no leases".to_string())
        })
        .unwrap();
        assert_eq!(pool, None);
        assert_eq!(
            warning.unwrap().lines(true),
            ["warning: bots cannot run as uids of their own here (no leases)"]
        );
        for root in [true, false] {
            let (pool, warning) = uid_pool(BotUids::Off, root, not_probed).unwrap();
            assert_eq!((pool, warning), (None, None));
        }
    }
}
