//! A group of its own for each bot whose processes run as uids of their own: leased from the
//! pool, the bot's files checked within its reach ([`reach`]), its working directory given to
//! it ([`workdir`]); bots that share a working directory share its group.

use super::IsolationError;
use super::lease::{IdKind, IdPool};
use super::reach::{self, Access};
use super::run_as::{BotGroup, RunAs};
use super::workdir;
use crate::seat::admitted_workdir::{AdmittedWorkdir, Workdirs};
use crate::seat::{BotSpec, Launch};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Why a bot cannot have a group of its own.
enum GroupError {
    /// A process of the group could not reach the bot's files: the bot may run as root.
    Unreachable(String),
    /// Its workdir could not be handed over: the run is refused.
    Fatal(IsolationError),
}

/// Who each bot runs as, and the bots that run as root although others do not.
pub(super) struct Assigned<'b> {
    /// Who each bot that is a command runs as, by name.
    pub users: BTreeMap<String, RunAs>,
    /// The bots (name, why) that run as root because no uid can reach their files.
    pub rooted: Vec<(&'b str, String)>,
}

/// Who each bot of `bots` that is a command runs as, with its group leased from `pool` and its
/// working directory (of `workdirs`) given to it; and the bots (name, why) that run as root
/// because no uid of the pool can reach their files — unless the range is `required`: those
/// then do not start.
///
/// # Errors
/// [`IsolationError::Workdir`] when a bot's workdir cannot be given to its group.
pub(super) fn assign_groups<'b>(
    pool: &Arc<IdPool>,
    bots: &'b [BotSpec],
    workdirs: &Workdirs,
    cwd: &Path,
    required: bool,
) -> Result<Assigned<'b>, IsolationError> {
    let mut users = BTreeMap::new();
    let mut by_workdir = BTreeMap::new();
    let mut rooted = Vec::new();
    for bot in bots {
        if !matches!(bot.launch, Launch::Command(_)) {
            continue;
        }
        let run_as = match own_group(pool, bot, workdirs.get(&bot.name), cwd, &mut by_workdir) {
            Ok(group) => RunAs::Own(group),
            Err(GroupError::Fatal(e)) => return Err(e),
            Err(GroupError::Unreachable(why)) if required => RunAs::Refused(format!(
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
    Ok(Assigned { users, rooted })
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
