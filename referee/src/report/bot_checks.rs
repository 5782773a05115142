//! `referee tournament --check` (`check = true`): each bot run as a process goes through
//! `referee check` ([`crate::check`]) before the first match, with its command, time control and
//! limits, the tournament's process policy, fault limit and fault policy, and check's own seed
//! (`referee check`'s default, so that its author gets the same verdict by running it); the
//! reports are kept in the results directory as `checks/NAME.json`, the JSON
//! `referee check --format json` prints, where the grade sheet reads them back
//! ([`super::grades`]). A failed check stops nothing: the verdict is data for the teacher.

use super::grades::CHECKS_DIR;
use crate::check::{CheckConfig, Report, check};
use crate::policy::PolicyError;
use crate::runner::RunError;
use crate::safe_fs::{FileError, SafeDir};
use crate::seat::{BotSpec, Launch};
use crate::tournament::TournamentConfig;
use engine::Game;

/// The seed of the checks' matches: `referee check`'s default.
pub const CHECK_SEED: u64 = 1;

/// Why the bots could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum BotChecksError {
    /// The process policy cannot be had here.
    #[error(transparent)]
    Policy(#[from] Box<PolicyError>),
    /// The referee itself failed during a check.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// Checks each bot of `config` that runs as a process, in the order given, with the game's
/// `options`; `each` is told each bot's name and report as it comes.
///
/// # Errors
/// [`BotChecksError`] when the process policy cannot be had or the referee fails; a bot's
/// misbehaviour is in its report.
pub async fn check_bots<G: Game>(
    config: &TournamentConfig,
    options: &G::Options,
    mut each: impl FnMut(&str, &Report),
) -> Result<Vec<(String, Report)>, BotChecksError> {
    let mut bots: Vec<BotSpec> = config
        .bots
        .iter()
        .filter(|b| matches!(b.launch, Launch::Command(_)))
        .cloned()
        .collect();
    if bots.is_empty() {
        return Ok(Vec::new());
    }
    let process = config
        .process
        .resolve(&mut bots, std::slice::from_ref(&config.out))
        .map_err(Box::new)?
        .options;
    let mut reports = Vec::new();
    for bot in bots {
        let name = bot.name.clone();
        let checked = CheckConfig {
            bot,
            process: process.clone(),
            seed: CHECK_SEED,
            max_faults: config.max_faults,
            policy: config.policy,
            // The verdict, with the last stderr lines under each failed item, is kept; the
            // whole stderr is not.
            stderr_dir: None,
        };
        let report = check::<G>(&checked, options).await?;
        each(&name, &report);
        reports.push((name, report));
    }
    Ok(reports)
}

/// Keeps `reports` in the results directory `dir`, as `checks/NAME.json` (each replaced, never
/// written through a link).
///
/// # Errors
/// [`FileError`] when a file cannot be written.
pub fn keep(dir: &SafeDir, reports: &[(String, Report)]) -> Result<(), FileError> {
    if reports.is_empty() {
        return Ok(());
    }
    let checks = dir.make_subdir(CHECKS_DIR)?;
    for (name, report) in reports {
        let json = crate::untrusted::json::to_string_pretty(report).unwrap_or_default() + "\n";
        checks.replace_file(&format!("{name}.json"), json.as_bytes(), false)?;
    }
    Ok(())
}
