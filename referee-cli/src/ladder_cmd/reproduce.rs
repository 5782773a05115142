//! `referee ladder reproduce SERVER/ID`: the bundle the caller may have, the artifacts of its
//! own seats, the match played again here, and what differs.

use super::args::ReproduceArgs;
use super::{failed, token};
use crate::output::outln;
use crate::{ExitCode, Failure};
use ladder::client::Client;
use ladder::reproduce::{Played, SeatSource, artifact_dir, reproduce_dir};
use referee::tournament::rerun_diff::LogComparison;
use std::path::{Path, PathBuf};

/// Runs `referee ladder reproduce`.
pub(super) async fn run(args: ReproduceArgs) -> anyhow::Result<ExitCode> {
    let (server, id) = target(&args)?;
    let token = token(&args.token)?;
    let client = Client::new(&server, token.as_deref());
    let bundle = client.match_bundle(id).await.map_err(failed)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("ladder-match-{id}")));
    prepare(&dir)?;
    bundle.write(&dir).map_err(failed)?;
    for seat in &bundle.seats {
        if let SeatSource::Artifact { hash } = seat {
            let hash: &str = hash.as_str();
            let bytes = client.artifact(hash).await.map_err(failed)?;
            ladder::artifacts::verify(hash, &bytes).map_err(failed)?;
            ladder::artifacts::unpack_artifact(
                &bytes,
                &artifact_dir(&dir, hash),
                &ladder::config::BuildSettings::default(),
            )
            .map_err(failed)?;
        }
    }
    let reproduction = reproduce_dir(&dir).await.map_err(failed)?;
    let seats: Vec<String> = bundle
        .spec
        .seats
        .iter()
        .zip(&reproduction.seats)
        .map(|(seat, played)| {
            let how = match played {
                Played::Artifact => "its code",
                Played::Builtin => "built-in",
                Played::StandIn => "a stand-in replaying its logged actions",
            };
            format!("{} ({how})", referee::untrusted::shown(&seat.bot.name))
        })
        .collect();
    outln!(
        "match {id} played again in {} ({})",
        dir.display(),
        reproduction.sandbox
    );
    outln!("seats: {}", seats.join(", "));
    if let Some(other) = &reproduction.other_referee {
        outln!(
            "note: the match was recorded by referee {}, this is {}: a difference may be the referee's",
            referee::untrusted::shown(other),
            ladder::spec::REFEREE_VERSION
        );
    }
    let record = &reproduction.record;
    outln!(
        "scores {:?}, ranks {:?}: {}",
        record.scores,
        record.ranks,
        if reproduction.same_result {
            "the recorded result"
        } else {
            "NOT the recorded result"
        }
    );
    if let Some(first) = &reproduction.first_difference {
        let words = crate::rerun_difference::log_lines(
            &LogComparison::Differs(Box::new(first.clone())),
            id as u64,
            reproduction.same_result,
        );
        for line in words.lines() {
            outln!("{line}");
        }
    }
    Ok(
        if reproduction.same_result && reproduction.first_difference.is_none() {
            ExitCode::Success
        } else {
            ExitCode::RerunDiffers
        },
    )
}

/// The server and the match's id.
fn target(args: &ReproduceArgs) -> Result<(String, i64), Failure> {
    let bad = || {
        Failure::usage(format!(
            "{:?}: give SERVER/ID (http://HOST:PORT/ID), or an id with --server",
            args.what
        ))
    };
    match (&args.server, args.what.rsplit_once('/')) {
        (_, Some((server, id))) if server.contains("://") => {
            Ok((server.to_owned(), id.parse().map_err(|_| bad())?))
        }
        (Some(server), None) => Ok((server.clone(), args.what.parse().map_err(|_| bad())?)),
        _ => Err(bad()),
    }
}

/// Makes `dir` ready for a bundle: new, empty, or a bundle written before (replaced).
fn prepare(dir: &Path) -> Result<(), Failure> {
    let holds_other = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some())
        && !dir.join("spec.json").is_file();
    if holds_other {
        return Err(Failure::usage(format!(
            "{} holds files that are not a match's bundle: give another --dir",
            dir.display()
        )));
    }
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::usage(format!("cannot make {}: {e}", dir.display())))
}
