//! The workdirs of a run, before it starts: each admitted ([`workdir_rule::admit`]), none inside
//! a path the bots must not see, none over its quota already.
//!
//! During a run, a bot that fills its workdir past its quota is stopped with a `resource_limit`
//! fault, and each later start of it is refused with the same fault: the run goes on. Before a
//! run, the organiser is there to decide, and a bot that would forfeit every match is a run
//! wasted, so the referee refuses to start instead, saying which workdir and by how much. The
//! referee never deletes what a bot wrote: emptying the workdir, or raising its quota, is the
//! organiser's call (docs/security.md#the-workdir-quota).

use super::{PolicyError, WorkdirSource};
use crate::seat::workdir_marker::MarkedBot;
use crate::seat::workdir_quota::WorkdirQuota;
use crate::seat::workdir_rule::{self, Admitted};
use crate::seat::{BotSpec, Launch, Workdirs};
use std::path::{Path, PathBuf};

/// Admits the workdir of each bot that runs as a process (a relative one from `base`, from
/// `source`) and makes the bot's path the directory's; returns each with its bot.
///
/// # Errors
/// [`PolicyError::Workdir`] naming the first workdir refused and why.
pub(super) fn admit(
    bots: &mut [BotSpec],
    source: &WorkdirSource,
    base: &Path,
) -> Result<Vec<(MarkedBot, Admitted)>, PolicyError> {
    let mut admitted = Vec::new();
    for bot in bots.iter_mut() {
        let Launch::Command(_) = &bot.launch else {
            continue;
        };
        let Some(workdir) = &bot.settings.workdir else {
            continue;
        };
        let marked = MarkedBot {
            name: bot.name.clone(),
            command: bot.describe(),
        };
        let dir = workdir_rule::admit(&marked, workdir, base, source.origin(&bot.name))
            .map_err(|refusal| PolicyError::Workdir { refusal })?;
        bot.settings.workdir = Some(dir.dir.path().to_path_buf());
        admitted.push((marked, dir));
    }
    Ok(admitted)
}

/// Refuses a workdir inside one of `hidden`: it would be hidden from its bot itself.
///
/// # Errors
/// [`PolicyError::InsideHidden`] for the first such workdir.
pub(super) fn refuse_inside_hidden(
    admitted: &[(MarkedBot, Admitted)],
    hidden: &[PathBuf],
) -> Result<(), PolicyError> {
    for (bot, workdir) in admitted {
        let workdir = workdir.dir.path();
        for path in hidden {
            // An output may not exist yet (the results directory is made later).
            let resolved = path.canonicalize().or_else(|_| std::path::absolute(path));
            if resolved.is_ok_and(|p| workdir.starts_with(&p)) {
                return Err(PolicyError::InsideHidden {
                    bot: bot.name.clone(),
                    workdir: workdir.to_path_buf(),
                    hidden: path.clone(),
                });
            }
        }
    }
    Ok(())
}

/// Refuses the run if a bot process's workdir (of `workdirs`, as admitted) breaks its quota now.
///
/// # Errors
/// [`PolicyError::OverQuota`] naming the first such bot and its workdir's usage.
pub(super) fn refuse_over_quota(bots: &[BotSpec], workdirs: &Workdirs) -> Result<(), PolicyError> {
    for bot in bots {
        if !matches!(bot.launch, Launch::Command(_)) {
            continue;
        }
        let Some(quota) =
            WorkdirQuota::new(workdirs.get(&bot.name), bot.settings.limits.workdir_bytes())
        else {
            continue;
        };
        if let Err(breach) = quota.look() {
            return Err(PolicyError::OverQuota {
                bot: bot.name.clone(),
                breach,
            });
        }
    }
    Ok(())
}
