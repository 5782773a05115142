//! `referee replay`: re-check a match log; with `--text`, tell it as a narrative; with `--html`,
//! draw it as a page.

use super::Failure;
use super::args::ReplayArgs;
use super::output::{out, outln};
use protocol::ExitCode;
use referee::narrative::{Perspective, tell};
use referee::replay::{ReplayError, read_match, replay_file};
use referee::runner::LOG_VERSION;
use referee::untrusted::shown;
use std::path::Path;

/// The columns the narrative is wrapped to.
const TEXT_WIDTH: usize = 80;

/// Runs `referee replay`.
pub fn run(args: ReplayArgs) -> Result<ExitCode, Failure> {
    if args.text {
        return narrate(&args);
    }
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
                shown(&summary.internal_error.unwrap_or_default())
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
                    "  seat {seat} {}: score {}, rank {}",
                    shown(name),
                    summary.scores[seat],
                    summary.ranks[seat]
                );
            }
            if let Some(out) = &args.html {
                super::replay_html::write(&records, out)?;
            }
            Ok(ExitCode::Success)
        }
        Err(err) => Err(refused(&args.file, err)),
    }
}

/// `--text` (and `--seat`): the checked log told as a narrative.
fn narrate(args: &ReplayArgs) -> Result<ExitCode, Failure> {
    let checked = read_match(&args.file).map_err(|err| refused(&args.file, err))?;
    let perspective = args.seat.map_or(Perspective::Everything, Perspective::Seat);
    let narrative = tell(&checked.records, perspective).map_err(|e| {
        Failure::usage(format_args!(
            "{}: cannot tell the match: {e}",
            args.file.display()
        ))
    })?;
    if checked.log_version < LOG_VERSION {
        outln!(
            "(A log of version {}: its events were made again from its actions; it recorded no stderr.)\n",
            checked.log_version
        );
    }
    out!("{}", narrative.to_text(TEXT_WIDTH));
    if let Some(out) = &args.html {
        super::replay_html::write(&checked.records, out)?;
    }
    Ok(ExitCode::Success)
}

/// The failure of a log that cannot be read or does not hold.
fn refused(path: &Path, err: ReplayError) -> Failure {
    match err {
        ReplayError::Io { .. } => Failure::usage(err),
        ReplayError::Mismatch { .. } => Failure {
            code: ExitCode::ReplayMismatch,
            message: format!("{}: {err}", path.display()),
        },
    }
}
