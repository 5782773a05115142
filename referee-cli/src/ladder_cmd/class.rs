//! `referee ladder admin class|token|deadline|remove-version|again|final-*`: a class's
//! teacher's commands. The ladder's client calls the server; this module reads the files,
//! renders the answers, and writes the final's report with the tournament's own code.

use super::args::AdminCommand;
use super::{failed, time};
use crate::Failure;
use crate::output::outln;
use ladder::client::Client;
use ladder::service::{FinalRequest, FinalView, Handed, Handout, read_class_csv};
use protocol::ExitCode;
use referee::report::ReplayChoice;

/// Runs one of the teacher's commands; `None` for a command not of these.
pub async fn run(
    client: &Client,
    server: &str,
    command: AdminCommand,
) -> anyhow::Result<Option<ExitCode>> {
    match command {
        AdminCommand::Class { file, links } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| Failure::usage(format!("{}: {e}", file.display())))?;
            let members = read_class_csv(&text).map_err(|e| Failure::usage(e.to_string()))?;
            let handout = if links { Handout::Link } else { Handout::Token };
            let handed = client
                .import_class(members, handout)
                .await
                .map_err(failed)?;
            print_handed(&handed, server)?;
        }
        AdminCommand::Token { name, link } => {
            let handout = if link { Handout::Link } else { Handout::Token };
            let handed = client.reset_token(&name, handout).await.map_err(failed)?;
            print_handed(&[handed], server)?;
        }
        AdminCommand::Deadline { time: when } => {
            let at = if when == "none" {
                None
            } else {
                Some(time::parse(&when)?)
            };
            client.set_deadline(at).await.map_err(failed)?;
            match at {
                Some(at) => outln!("submissions close at {}", ladder::utc::show(at)),
                None => outln!("the deadline is lifted"),
            }
        }
        AdminCommand::RemoveVersion { version } => {
            let Some((bot, Some(number))) = ladder::spec::parse_seat_name(&version) else {
                return Err(
                    Failure::usage(format!("{version:?} is not a version: give BOT.vN")).into(),
                );
            };
            client.remove_version(bot, number).await.map_err(failed)?;
            outln!("{version} plays no more");
        }
        AdminCommand::Again { id, job: false } => {
            let job = client.play_again(id).await.map_err(failed)?;
            outln!("match {id} queued again (job {job})");
        }
        AdminCommand::Again { id, job: true } => {
            let again = client.retry_job(id).await.map_err(failed)?;
            outln!("job {id} queued again (job {again})");
        }
        AdminCommand::FinalStart {
            schedule,
            players,
            matches,
            no_duplicate,
        } => {
            let request = FinalRequest {
                schedule: Some(schedule),
                players,
                matches,
                duplicate: no_duplicate.then_some(false),
            };
            let started = client.start_final(&request).await.map_err(failed)?;
            outln!(
                "final {} started: {} matches among {} versions ({})",
                started.id,
                started.matches,
                started.field.len(),
                started.field.join(", ")
            );
        }
        AdminCommand::FinalStatus { json } => {
            let view = client.final_view().await.map_err(failed)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&view)?);
            } else {
                print_final(&view);
            }
        }
        AdminCommand::FinalExport { out } => {
            let packed = client.final_export().await.map_err(failed)?;
            ladder::artifacts::unpack_results(&packed, &out).map_err(failed)?;
            let report = referee::report::build(&out).map_err(Failure::usage)?;
            let written =
                referee::report::write(&report, &out, &out.join("report"), ReplayChoice::Faults)
                    .map_err(failed)?;
            outln!(
                "final exported to {} ({} of {} matches); report {}; grade sheet {}",
                out.display(),
                report.board.matches,
                report.board.scheduled,
                written.index.display(),
                written.grades.display()
            );
        }
        _ => return Ok(None),
    }
    Ok(Some(ExitCode::Success))
}

/// Each account's token or link, as CSV (name, group, contact, token, link).
fn print_handed(handed: &[Handed], server: &str) -> anyhow::Result<()> {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record(["name", "group", "contact", "token", "link"])?;
    let base = server.trim_end_matches('/');
    for h in handed {
        let link = h
            .link_code
            .as_ref()
            .map(|code| format!("{base}/welcome/{code}"));
        out.write_record([
            h.name.as_str(),
            h.group.as_deref().unwrap_or(""),
            h.contact.as_deref().unwrap_or(""),
            h.token.as_deref().unwrap_or(""),
            link.as_deref().unwrap_or(""),
        ])?;
    }
    let bytes = out
        .into_inner()
        .map_err(|e| anyhow::anyhow!(e.to_string()))?;
    for line in String::from_utf8_lossy(&bytes).lines() {
        outln!("{}", referee::untrusted::shown(line));
    }
    Ok(())
}

fn print_final(view: &FinalView) {
    outln!(
        "final {}: {}, {} per match, {} versions; {} of {} matches played{}{}",
        view.id,
        view.schedule,
        view.players,
        view.field.len(),
        view.played,
        view.matches,
        if view.failed > 0 {
            format!(", {} failed", view.failed)
        } else {
            String::new()
        },
        if view.done { " (done)" } else { "" }
    );
    for s in &view.standings {
        outln!(
            "{:>3}. {:<24} μ−3σ {:>7.2}  μ {:>6.2} ± {:<5.2} {} matches, {} faults",
            s.rank,
            s.version,
            s.conservative,
            s.mu,
            s.sigma,
            s.matches,
            s.faults
        );
    }
}
