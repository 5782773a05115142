//! The check of a built bot: `referee check`'s checklist ([`referee::check::check`]), on the
//! bot's run command in its built directory, held to the limits of its matches
//! ([`BuildSpec::bot`]), in the ladder's sandbox.

use super::BuildError;
use super::outcome::CheckOutcome;
use super::sandboxed::BuildSandbox;
use crate::spec::BuildSpec;
use engine::{Game, GameKind};
use referee::check::CheckConfig;
use referee::policy::ProcessPolicy;
use referee::runner::FaultPolicy;
use referee::seat::{RunAs, SandboxMode};
use std::path::Path;

/// The seed of a version's check: checks are repeatable.
pub const CHECK_SEED: u64 = 1;

/// Faults after which the check stops the bot for the rest of a match (`referee check`'s).
pub const CHECK_MAX_FAULTS: u32 = 3;

/// Checks the bot of `spec` built at `dir`, run by `run_command`.
///
/// # Errors
/// [`BuildError`] when the game or its options are unknown, the sandbox cannot be had, or the
/// referee fails; the bot's failures are in the report.
pub async fn check_built(
    spec: &BuildSpec,
    dir: &Path,
    run_command: &str,
    sandbox: &BuildSandbox,
) -> Result<CheckOutcome, BuildError> {
    let kind = GameKind::from_name(&spec.game).map_err(|e| BuildError::Spec(e.to_string()))?;
    engine::with_game!(kind, G => check_game::<G>(spec, dir, run_command, sandbox).await)
}

async fn check_game<G: Game>(
    spec: &BuildSpec,
    dir: &Path,
    run_command: &str,
    sandbox: &BuildSandbox,
) -> Result<CheckOutcome, BuildError> {
    let options = engine::shared_rules::options_from_json::<G>(&spec.options)
        .map_err(|e| BuildError::Spec(e.to_string()))?;
    let mut meta = spec.bot.clone();
    meta.command = run_command.to_string();
    let mut bot = meta
        .spec(None)
        .map_err(|e| BuildError::Spec(e.to_string()))?;
    // Run as the bot's matches will be ([`crate::bot_users`]), in its built directory as its
    // workdir (the artifact is packed already: what the check writes there is not in it).
    let root = crate::bot_users::root();
    crate::bot_users::runnable_program(&mut bot, root);
    bot.settings.workdir = Some(dir.to_path_buf());
    let policy = ProcessPolicy {
        bot_uids: crate::bot_users::bot_uids(root),
        sandbox: if sandbox.sandbox.is_bwrap() {
            SandboxMode::Bwrap
        } else {
            SandboxMode::None
        },
        hide: sandbox.hidden.clone(),
        from: Some(dir.to_path_buf()),
        ..ProcessPolicy::default()
    };
    let process = policy
        .resolve(std::slice::from_mut(&mut bot), &[])
        .map_err(|e| BuildError::Platform(e.to_string()))?;
    // A bot that cannot have a uid of its own here is the worker's failure, not the bot's.
    if let RunAs::Refused(why) = process.options.users.run_as(&bot.name) {
        return Err(BuildError::Platform(why.clone()));
    }
    let config = CheckConfig {
        bot,
        process: process.options,
        seed: CHECK_SEED,
        max_faults: CHECK_MAX_FAULTS,
        policy: FaultPolicy::default(),
        stderr_dir: None,
    };
    let report = referee::check::check::<G>(&config, &options)
        .await
        .map_err(|e| BuildError::Check(e.to_string()))?;
    Ok(CheckOutcome {
        passed: report.passed,
        report: serde_json::to_value(&report).map_err(|e| BuildError::Check(e.to_string()))?,
    })
}
