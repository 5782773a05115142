//! `referee replay`: re-check a match log.

use super::Failure;
use super::args::ReplayArgs;
use super::output::outln;
use crate::replay::{ReplayError, read_match, replay_file};
use protocol::ExitCode;

/// Runs `referee replay`.
pub fn run(args: ReplayArgs) -> Result<ExitCode, Failure> {
    // The page needs the checked records; the check alone keeps none.
    let checked = match &args.html {
        Some(_) => read_match(&args.file).map(|checked| (checked.summary, checked.records)),
        None => replay_file(&args.file).map(|summary| (summary, Vec::new())),
    };
    match checked {
        Ok((summary, records)) if summary.internal_error.is_some() => {
            outln!(
                "ok: {} decisions of {} replayed ({} substituted by the referee, {} faults recorded); every action legal up to the game's own failure, which the replay reproduces: the match is void",
                summary.decisions,
                summary.game,
                summary.substituted,
                summary.faults
            );
            outln!(
                "  internal error: {}",
                summary.internal_error.unwrap_or_default()
            );
            if let Some(out) = &args.html {
                super::replay_html::write(&records, out)?;
            }
            Ok(ExitCode::Success)
        }
        Ok((summary, records)) => {
            outln!(
                "ok: {} decisions of {} replayed ({} substituted by the referee, {} faults recorded); every action legal, result confirmed",
                summary.decisions,
                summary.game,
                summary.substituted,
                summary.faults
            );
            for (seat, name) in summary.players.iter().enumerate() {
                outln!(
                    "  seat {seat} {name}: score {}, rank {}",
                    summary.scores[seat],
                    summary.ranks[seat]
                );
            }
            if let Some(out) = &args.html {
                super::replay_html::write(&records, out)?;
            }
            Ok(ExitCode::Success)
        }
        Err(err @ ReplayError::Io { .. }) => Err(Failure::usage(err)),
        Err(err @ ReplayError::Mismatch { .. }) => Err(Failure {
            code: ExitCode::ReplayMismatch,
            message: format!("{}: {err}", args.file.display()),
        }),
    }
}
