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
use super::lease::{IdKind, IdLease, IdPool, LEASE_DIR};
use super::reach::{self, Access};
use super::run_as::{BotGroup, BotUsers, RunAs};
use super::setting::{BotUids, UidRange};
use super::workdir;
use crate::seat::admitted_workdir::{AdmittedWorkdir, Workdirs};
use crate::seat::notice::{Notice, SHORT_MAX, some_names};
use crate::seat::sandbox::{Sandbox, SandboxError, SandboxMode};
use crate::seat::{BotSpec, Launch};
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
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

/// Why a bot cannot have a group of its own.
enum GroupError {
    /// A process of the group could not reach the bot's files: the bot may run as root.
    Unreachable(String),
    /// Its workdir could not be handed over: the run is refused.
    Fatal(IsolationError),
}

/// Decides the sandbox of `mode` and the users of `uids` for `bots`, leasing each bot's group
/// and giving it its working directory for the run (of `workdirs`, as admitted; see the module
/// documentation).
///
/// # Errors
/// [`IsolationError`] when `--sandbox bwrap` or an explicit range cannot be had here.
pub fn isolate(
    mode: SandboxMode,
    uids: BotUids,
    bots: &[BotSpec],
    workdirs: &Workdirs,
) -> Result<Isolation, IsolationError> {
    let required = match uids {
        BotUids::Required(range) => Some(range),
        _ => None,
    };
    let refuse = |why: String| IsolationError::Uids {
        range: required.unwrap_or(UidRange::DEFAULT),
        why,
    };
    let mut notices = Vec::new();
    let mut pool = None;
    let mut probe = None;
    if let Some(range) = uids.range() {
        match pool_here(range) {
            Ok((p, user)) => (pool, probe) = (Some(p), Some(user)),
            Err(why) if required.is_some() => return Err(refuse(why)),
            // Not root: the line about the referee's user says what bots can do.
            Err(_) if !is_root() => {}
            Err(why) => notices.push(Notice::new(
                "warning: bots cannot run as uids of their own here; see docs/security.md#bot-users (--verbose: why)",
                vec![format!(
                    "warning: bots cannot run as uids of their own here ({why})"
                )],
            )),
        }
    }
    let user = probe.as_ref().map(|probe| probe.user);
    let (sandbox, fallback, as_root) = sandbox_for(mode, user, required.is_some())?;
    let sandbox_warning = fallback.map(|long| {
        Notice::new(
            "warning: bots run without a sandbox: bubblewrap is missing or does not work here; see docs/security.md#the-layers (--verbose: why)",
            vec![long],
        )
    });
    if let Sandbox::Bwrap(bwrap) = &sandbox
        && !bwrap.disables_userns
    {
        notices.push(Notice::new(
            "warning: this bubblewrap (before 0.8.0) cannot forbid user namespaces in the sandbox; see docs/security.md#the-layers (--verbose: what a bot can do)",
            vec![format!(
                "warning: {} has no --disable-userns (bubblewrap 0.8.0 and later): a bot can make a user namespace in the sandbox, mount the cgroup2 hierarchy there and read every process of the machine and its CPU use and pressure; install bubblewrap 0.8.0 or later",
                bwrap.path.display()
            )],
        ));
    }
    if let Some(why) = as_root {
        notices.push(Notice::new(
            "warning: bubblewrap cannot run as a bot's user here: bots run in it as root; see docs/security.md#bot-users (--verbose: why)",
            vec![format!(
                "warning: bubblewrap cannot run as a bot's user here ({why}): bots run in it as root"
            )],
        ));
        pool = None;
    }
    drop(probe);
    let Some(pool) = pool else {
        notices.insert(0, referee_user(&sandbox, uids));
        return Ok(Isolation {
            sandbox,
            users: BotUsers::default(),
            sandbox_warning,
            notices,
        });
    };
    notices.insert(
        0,
        Notice::plain(format!(
            "bots run as uids {} (one per bot process), without capabilities, no_new_privs",
            pool.range()
        )),
    );
    let cwd = std::env::current_dir().unwrap_or_else(|_| "/".into());
    let mut users = BTreeMap::new();
    let mut by_workdir = BTreeMap::new();
    let mut rooted = Vec::new();
    for bot in bots {
        if !matches!(bot.launch, Launch::Command(_)) {
            continue;
        }
        let run_as = match own_group(&pool, bot, workdirs.get(&bot.name), &cwd, &mut by_workdir) {
            Ok(group) => RunAs::Own(group),
            Err(GroupError::Fatal(e)) => return Err(e),
            Err(GroupError::Unreachable(why)) if required.is_some() => RunAs::Refused(format!(
                "the bot cannot run as a uid of its own (--bot-uids {}): {why}",
                pool.range()
            )),
            Err(GroupError::Unreachable(why)) => {
                rooted.push((bot.name.as_str(), why));
                RunAs::Referee
            }
        };
        users.insert(bot.name.clone(), run_as);
    }
    notices.extend(running_as_root(&rooted, &sandbox));
    Ok(Isolation {
        sandbox,
        users: BotUsers::new(users),
        sandbox_warning,
        notices,
    })
}

/// The one warning for the bots of `bots` (name, why) that run as root although others do not:
/// all of them named in a short line (or as many as fit), one line each with why, the fix and
/// what a bot can do then in the long form.
fn running_as_root(bots: &[(&str, String)], sandbox: &Sandbox) -> Option<Notice> {
    let names: Vec<&str> = bots.iter().map(|(name, _)| *name).collect();
    let (subject, files) = match names.len() {
        0 => return None,
        1 => ("bot", "its files"),
        _ => ("bots", "their files"),
    };
    let verb = if names.len() == 1 { "runs" } else { "run" };
    let place = if sandbox.is_bwrap() {
        "in bubblewrap"
    } else {
        "without a sandbox"
    };
    let line = |who: &str| {
        format!(
            "warning: {subject} {who} {verb} as root {place}: no bot uid can reach {files}; see docs/security.md#bot-users or --verbose"
        )
    };
    let budget = SHORT_MAX.saturating_sub(line("").len());
    let long = bots
        .iter()
        .map(|(name, why)| {
            format!(
                "warning: bot '{name}' runs as root, not as a uid of its own: {why}; {}",
                exposure(sandbox, true)
            )
        })
        .collect();
    Some(Notice::new(line(&some_names(&names, budget)), long))
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

/// A user of the pool for the start-up probes, leased while this lives.
struct ProbeUser {
    user: Credentials,
    _uid: IdLease,
    _gid: IdLease,
}

/// The pool of `range`, when the referee can give bots uids here: it is root, the leases can
/// be kept, and a process can become one of the range's users (the returned one, leased for
/// the other probes).
fn pool_here(range: UidRange) -> Result<(Arc<IdPool>, ProbeUser), String> {
    if !is_root() {
        return Err("the referee is not root".into());
    }
    let pool = Arc::new(IdPool::open(range, Path::new(LEASE_DIR)).map_err(|e| e.to_string())?);
    let uid = pool.lease(IdKind::User).map_err(|e| e.to_string())?;
    let gid = pool.lease(IdKind::Group).map_err(|e| e.to_string())?;
    let user = Credentials {
        uid: uid.id(),
        gid: gid.id(),
    };
    let mut command = std::process::Command::new("true");
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: assume makes system calls only, on a value copied before the fork.
    unsafe {
        command.pre_exec(move || user.assume());
    }
    match command.status() {
        Ok(status) if status.success() => Ok((
            pool,
            ProbeUser {
                user,
                _uid: uid,
                _gid: gid,
            },
        )),
        Ok(status) => Err(format!("a process made a bot's user ended with {status}")),
        Err(e) => Err(format!("a process cannot become a bot's user: {e}")),
    }
}

/// The group of `bot` for the run, when its processes can run as uids of their own: leased,
/// the bot's files checked within its reach, its working directory `workdir` (as admitted)
/// given to it — or, when an earlier bot of `by_workdir` has the same working directory, that
/// bot's group.
fn own_group(
    pool: &Arc<IdPool>,
    bot: &BotSpec,
    workdir: Option<&AdmittedWorkdir>,
    cwd: &Path,
    by_workdir: &mut BTreeMap<(u64, u64), Arc<BotGroup>>,
) -> Result<Arc<BotGroup>, GroupError> {
    let path = workdir.map(AdmittedWorkdir::path);
    if let Some(group) = workdir.and_then(|w| by_workdir.get(&w.identity())) {
        within_reach(bot, cwd, path, group.gid()).map_err(GroupError::Unreachable)?;
        return Ok(group.clone());
    }
    let gid = pool
        .lease(IdKind::Group)
        .map_err(|e| GroupError::Unreachable(e.to_string()))?;
    within_reach(bot, cwd, path, gid.id()).map_err(GroupError::Unreachable)?;
    let shared = match workdir {
        Some(dir) => Some(workdir::share(dir, gid.id()).map_err(|e| {
            GroupError::Fatal(IsolationError::Workdir {
                bot: bot.name.clone(),
                dir: dir.path().to_path_buf(),
                why: e.to_string(),
            })
        })?),
        None => None,
    };
    let group = Arc::new(BotGroup::new(pool.clone(), gid, shared));
    if let Some(dir) = workdir {
        by_workdir.insert(dir.identity(), group.clone());
    }
    Ok(group)
}

/// Whether a process of `bot` in group `gid` can reach what it needs ([`reach::needs`]); its
/// working directory `workdir` and what is in it will be the group's: only the way to it
/// counts.
fn within_reach(bot: &BotSpec, cwd: &Path, workdir: Option<&Path>, gid: u32) -> Result<(), String> {
    for (path, access) in reach::needs(bot, cwd) {
        let real = path.canonicalize().unwrap_or_else(|_| path.clone());
        let (path, access) = match workdir {
            Some(w) if real.starts_with(w) => match w.parent() {
                Some(parent) => (parent.to_path_buf(), Access::Search),
                None => continue,
            },
            _ => (path, access),
        };
        reach::check(&path, gid, access).map_err(|blocked| {
            let hint = match &bot.launch {
                // A program found on PATH: another on PATH may be within reach.
                Launch::Command(words) if access == Access::Run && !words[0].contains('/') => {
                    reach::runnable_on_path(&words[0], gid)
                        .map(|p| {
                            format!(
                                " (or name the program by a path it can reach: {})",
                                p.display()
                            )
                        })
                        .unwrap_or_default()
                }
                _ => String::new(),
            };
            format!("a uid of its own cannot reach {blocked}{hint}")
        })?;
    }
    Ok(())
}

/// The notice for bots that run as the referee's user: which, and what a bot can do then.
fn referee_user(sandbox: &Sandbox, uids: BotUids) -> Notice {
    let root = is_root();
    let who = if root {
        "root".to_string()
    } else {
        // SAFETY: geteuid only reads the caller's id.
        format!("uid {}", unsafe { libc::geteuid() })
    };
    let why = match (root, uids) {
        (_, BotUids::Off) => " (--bot-uids off)",
        (false, _) => " (bots get uids of their own only when it runs as root)",
        (true, _) => "",
    };
    let warning = if sandbox.is_bwrap() { "" } else { "warning: " };
    let short_why = if uids == BotUids::Off {
        " (--bot-uids off)"
    } else {
        ""
    };
    Notice::new(
        format!(
            "{warning}bots run as {who}, the referee's user{short_why}: {}; see docs/security.md#bot-users",
            brief_exposure(sandbox, root)
        ),
        vec![format!(
            "{warning}bots run as {who}, the referee's user{why}: {}",
            exposure(sandbox, root)
        )],
    )
}

/// [`exposure`] in a few words, for a short line.
fn brief_exposure(sandbox: &Sandbox, root: bool) -> &'static str {
    match (sandbox.is_bwrap(), root) {
        (false, true) => "without a sandbox a bot has every capability",
        (false, false) => "without a sandbox a bot can reach every process and file of this user",
        (true, true) => "in bubblewrap a bot can read every file root can",
        (true, false) => "in bubblewrap a bot can read every file this user can",
    }
}

/// What a bot that runs as the referee's user can do, in `sandbox`, when that user is root or
/// not (`docs/security.md#bot-users`).
pub fn exposure(sandbox: &Sandbox, root: bool) -> &'static str {
    match (sandbox.is_bwrap(), root) {
        (false, true) => {
            "without a sandbox a bot has every capability: it can signal, ptrace and read the memory of the referee and of every bot, move itself out of its control group, and read and change every file of the machine"
        }
        (false, false) => {
            "without a sandbox a bot can signal, ptrace and read the memory of the referee and of every bot (they share its uid), and read and change every file this user can"
        }
        (true, true) => {
            "in bubblewrap a bot has no capability and sees no other process, but it can read every file root owns in the sandbox's read-only view of the file system (such as /root and /etc/shadow)"
        }
        (true, false) => {
            "in bubblewrap a bot sees no other process (it cannot signal, ptrace or read the referee or another bot), but it can read every file this user can in the sandbox's read-only view of the file system"
        }
    }
}

/// Whether the referee runs as root (effective uid 0).
fn is_root() -> bool {
    // SAFETY: geteuid only reads the caller's id.
    unsafe { libc::geteuid() == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bots() -> Vec<BotSpec> {
        vec![BotSpec::parse("a=true").unwrap()]
    }

    #[test]
    fn with_uids_off_one_line_says_who_bots_run_as_and_what_they_can_do() {
        let isolation = isolate(
            SandboxMode::None,
            BotUids::Off,
            &bots(),
            &Workdirs::default(),
        )
        .unwrap();
        assert_eq!(isolation.sandbox, Sandbox::None);
        assert!(matches!(isolation.users.run_as("a"), RunAs::Referee));
        let who = if is_root() {
            "root".to_string()
        } else {
            // SAFETY: geteuid only reads the caller's id.
            format!("uid {}", unsafe { libc::geteuid() })
        };
        let [notice] = isolation.notices.as_slice() else {
            panic!("one notice: {:?}", isolation.notices)
        };
        assert_eq!(
            notice.lines(true),
            [format!(
                "warning: bots run as {who}, the referee's user (--bot-uids off): {}",
                exposure(&Sandbox::None, is_root())
            )]
        );
        assert_eq!(
            notice.lines(false),
            [format!(
                "warning: bots run as {who}, the referee's user (--bot-uids off): {}; see docs/security.md#bot-users",
                brief_exposure(&Sandbox::None, is_root())
            )]
        );
        assert!(notice.short().len() <= SHORT_MAX);
    }

    #[test]
    fn the_bots_that_run_as_root_are_one_short_warning_and_one_long_line_each() {
        let names = ["ada", "brian", "chen", "dana", "emil"];
        let bots: Vec<(&str, String)> = names.iter().map(|n| (*n, "why".to_string())).collect();
        for sandbox in [
            Sandbox::None,
            Sandbox::Bwrap(crate::seat::Bubblewrap::at("/usr/bin/bwrap")),
        ] {
            let notice = running_as_root(&bots, &sandbox).unwrap();
            assert!(notice.short().len() <= SHORT_MAX, "{}", notice.short());
            assert!(
                notice.short().starts_with("warning: bots 'ada', 'brian'"),
                "{}",
                notice.short()
            );
            let long = notice.lines(true);
            assert_eq!(long.len(), 5);
            assert!(
                long[4].starts_with(
                    "warning: bot 'emil' runs as root, not as a uid of its own: why; "
                )
            );
            for root in [true, false] {
                let line = referee_user(&sandbox, BotUids::Off);
                assert!(line.short().len() <= SHORT_MAX, "{root}: {}", line.short());
                assert!(brief_exposure(&sandbox, root).len() < exposure(&sandbox, root).len());
            }
        }
        let long = ["x".repeat(64), "y".repeat(64)];
        let bots: Vec<(&str, String)> = long.iter().map(|n| (n.as_str(), String::new())).collect();
        let notice = running_as_root(&bots, &Sandbox::None).unwrap();
        assert!(notice.short().len() <= SHORT_MAX + 64, "{}", notice.short());
        assert!(running_as_root(&[], &Sandbox::None).is_none());
    }

    #[test]
    fn a_range_given_without_root_is_refused() {
        if is_root() {
            eprintln!("SKIPPED a_range_given_without_root_is_refused: runs as root");
            return;
        }
        let range = UidRange {
            first: 70_000,
            last: 70_099,
        };
        let err = isolate(
            SandboxMode::None,
            BotUids::Required(range),
            &bots(),
            &Workdirs::default(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--bot-uids 70000-70099: the referee is not root"
        );
    }
}
