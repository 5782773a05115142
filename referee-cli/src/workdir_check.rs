//! Before a run: no bot may start with its workdir over its quota already.
//!
//! During a run, a bot that fills its workdir past its quota is stopped with a `resource_limit`
//! fault, and each later start of it is refused with the same fault: the run goes on. Before a
//! run, the organiser is there to decide, and a bot that would forfeit every match is a run
//! wasted, so the referee refuses to start instead, saying which workdir and by how much. The
//! referee never deletes what a bot wrote: emptying the workdir, or raising its quota, is the
//! organiser's call (docs/security.md#the-workdir-quota).

use super::Failure;
use referee::seat::workdir_quota::WorkdirQuota;
use referee::seat::{BotSpec, Launch, Workdirs};

/// Refuses the run if a bot process's workdir (of `workdirs`, as admitted) breaks its quota now.
///
/// # Errors
/// A usage failure naming the first such bot and its workdir's usage.
pub(super) fn refuse_over_quota(bots: &[BotSpec], workdirs: &Workdirs) -> Result<(), Failure> {
    for bot in bots {
        if !matches!(bot.launch, Launch::Command(_)) {
            continue;
        }
        let settings = &bot.settings;
        let Some(quota) =
            WorkdirQuota::new(workdirs.get(&bot.name), settings.limits.workdir_bytes())
        else {
            continue;
        };
        if let Err(breach) = quota.look() {
            return Err(Failure::usage(format!(
                "bot '{}': {breach}: empty it or raise its quota (workdir_mb) before the run; the referee never deletes a bot's files",
                bot.name
            )));
        }
    }
    Ok(())
}
