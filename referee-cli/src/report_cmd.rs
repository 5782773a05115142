//! `referee report DIR --html OUT [--bot NAME]`: the library gathers the report and writes its pages
//! ([`referee::report`]); this module checks the output directory and says what was written.

use super::Failure;
use super::args::{ReplaysArg, ReportArgs};
use super::output::outln;
use protocol::ExitCode;
use referee::report::{ReplayChoice, ReportError};

/// Runs `referee report`.
pub fn run(args: ReportArgs) -> Result<ExitCode, Failure> {
    let out = &args.html;
    if out.is_file() || (!out.exists() && out.extension().is_some_and(|e| e == "html")) {
        return Err(Failure::usage(format!(
            "--html {}: give a directory, which gets index.html and a replays/ directory (e.g. --html {})",
            out.display(),
            out.with_extension("").display()
        )));
    }
    let mut report = referee::report::build(&args.dir).map_err(Failure::usage)?;
    if let Some(bot) = &args.bot {
        report = referee::report::for_bot(report, bot).map_err(Failure::usage)?;
    }
    let choice = match args.replays {
        ReplaysArg::All => ReplayChoice::All,
        ReplaysArg::Faults => ReplayChoice::Faults,
        ReplaysArg::None => ReplayChoice::None,
    };
    let written = referee::report::write(&report, &args.dir, out, choice).map_err(|e| {
        let refused = match &e {
            ReportError::Write(file) => file.is_refusal(),
            ReportError::Results(_) => true,
            _ => false,
        };
        Failure {
            code: if refused {
                ExitCode::Usage
            } else {
                ExitCode::Internal
            },
            message: e.to_string(),
        }
    })?;
    if let Some(made) = &written.made_private {
        super::private_dir::note(made);
    }
    outln!(
        "report written to {} ({} KiB; {} in all): open it in a browser",
        written.index.display(),
        written.bytes.div_ceil(1024),
        size(written.total_bytes())
    );
    outln!("grade sheet: {}", written.grades.display());
    if written.private {
        outln!(
            "note: the tournament is not finished ({} of {} matches) and the page shows its seed: the report is yours alone (700, its files 600) until it is; make it again then to publish it",
            report.board.matches,
            report.board.scheduled
        );
    }
    let replays = &written.replays;
    if !replays.pages.is_empty() {
        outln!(
            "{} replay pages in {} ({}, with the viewer they share)",
            replays.pages.len(),
            out.join("replays").display(),
            size(replays.bytes)
        );
    }
    if let Some(note) = &replays.note {
        outln!("note: {}", referee::untrusted::shown(note));
    }
    let unread: Vec<&str> = report
        .bots
        .iter()
        .flat_map(|b| &b.matches)
        .filter_map(|m| m.stderr_unread.as_deref())
        .collect();
    if let Some(first) = unread.first() {
        outln!(
            "note: the stderr of {} faulty matches was not read, as the page says at each (the first: {})",
            unread.len(),
            referee::untrusted::shown(first)
        );
    }
    Ok(ExitCode::Success)
}

/// `bytes` for a person: KiB up to 10 MiB, MiB (one decimal) above.
fn size(bytes: u64) -> String {
    if bytes < 10 << 20 {
        format!("{} KiB", bytes.div_ceil(1024))
    } else {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    }
}
