//! `referee ladder`: parses, calls the ladder library (or its server through the client), and
//! renders. See docs/ladder.md.

pub mod args;
mod class;
mod config;
mod reproduce;
mod time;
mod upload;

use crate::output::outln;
use crate::{ExitCode, Failure};
use args::{AdminCommand, LadderArgs, LadderCommand, ServerArgs};
use ladder::client::Client;
use ladder::service::Ladder;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Runs `referee ladder`.
///
/// # Errors
/// A usage failure for bad arguments or files, an internal one when the ladder fails.
pub fn run(args: LadderArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure {
            code: ExitCode::Internal,
            message: format!("cannot start the runtime: {e}"),
        })?;
    let outcome = runtime.block_on(async {
        match args.command {
            LadderCommand::Init(a) => {
                let home = a
                    .home
                    .clone()
                    .unwrap_or_else(|| ladder::server::default_home(&a.config));
                init(&a.config, &home, a.db.as_deref()).await
            }
            LadderCommand::Serve(a) => serve(a).await,
            LadderCommand::Worker(a) => worker(a).await,
            LadderCommand::Submit(a) => submit(a).await,
            LadderCommand::Standings(a) => standings(a).await,
            LadderCommand::Status(a) => status(a).await,
            LadderCommand::Admin(a) => admin(a).await,
            LadderCommand::Challenge(a) => challenge(a).await,
            LadderCommand::Matches(a) => matches(a).await,
            LadderCommand::Stderr(a) => stderr(a).await,
            LadderCommand::Reproduce(a) => reproduce::run(a).await,
            LadderCommand::Export(a) => export(a).await,
        }
    });
    drop(runtime);
    // The control groups the bots of `serve` and `worker` ran in, empty by now.
    referee::seat::cgroup::cleanup();
    outcome
}

fn failed(error: impl std::fmt::Display) -> anyhow::Error {
    Failure {
        code: ExitCode::Internal,
        message: error.to_string(),
    }
    .into()
}

/// Makes the ladder `config` describes in `home` and submits its `[[bot]]`s.
async fn init(config: &Path, home: &Path, db: Option<&str>) -> anyhow::Result<ExitCode> {
    let (settings, bots, base) = config::read(config)?;
    let made = Ladder::init(home, &settings, db).await.map_err(failed)?;
    let ladder = Ladder::open(&made.home).await.map_err(failed)?;
    let admin = ladder.admin().await.map_err(failed)?;
    for bot in &bots {
        let bytes = upload::bytes_of(&bot.lang, &bot.path, &base)?;
        let owner = bot.owner.as_deref().unwrap_or(&bot.name);
        let submitted = ladder
            .submit_for(&admin, owner, &bot.name, &bot.lang, &bytes)
            .await
            .map_err(|e| Failure::usage(format!("[[bot]] {}: {e}", bot.name)))?;
        outln!(
            "submitted {} ({}): {}",
            submitted.name,
            bot.lang,
            submitted.state
        );
    }
    ladder.store().close().await;
    outln!(
        "ladder: {} in {}; the admin's token is in {}",
        settings.game,
        made.home.display(),
        made.home.join("admin.token").display()
    );
    Ok(ExitCode::Success)
}

async fn serve(args: args::ServeArgs) -> anyhow::Result<ExitCode> {
    let home = if args.ladder.is_file() {
        let home = args
            .home
            .clone()
            .unwrap_or_else(|| ladder::server::default_home(&args.ladder));
        if !home.join(ladder::service::HOME_FILE).exists() {
            init(&args.ladder, &home, args.db.as_deref()).await?;
        }
        home
    } else {
        args.ladder.clone()
    };
    let jobs = args.jobs.unwrap_or_else(cores);
    let options = ladder::server::ServeOptions {
        home,
        listen: args.listen,
        jobs,
        keep: args.keep,
        tick: Duration::from_millis(500),
    };
    let stop = stop_signal(args.for_s);
    let served = ladder::server::serve(
        &options,
        |address| {
            outln!(
                "ladder: serving on http://{address} with {jobs} local worker slots (Ctrl-C stops)"
            );
        },
        stop,
    )
    .await
    .map_err(failed)?;
    if let Some(stats) = served.workers {
        outln!("ladder: stopped; local workers: {}", worker_line(&stats));
    }
    Ok(ExitCode::Success)
}

fn worker_line(stats: &ladder::worker::WorkerStats) -> String {
    use std::sync::atomic::Ordering::Relaxed;
    format!(
        "{} jobs done, {} given back, {} abandoned",
        stats.done.load(Relaxed),
        stats.given_back.load(Relaxed),
        stats.abandoned.load(Relaxed)
    )
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `true` on Ctrl-C or SIGTERM, or after `for_s` seconds.
fn stop_signal(for_s: Option<u64>) -> tokio::sync::watch::Receiver<bool> {
    let (tell, stop) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        let timer = async {
            match for_s {
                Some(s) => tokio::time::sleep(Duration::from_secs(s)).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending().await } } => {}
            () = timer => {}
        }
        let _ = tell.send(true);
    });
    stop
}

fn client(server: &ServerArgs) -> anyhow::Result<Client> {
    let token = token(&server.token)?;
    Ok(Client::new(&server.server, token.as_deref()))
}

/// The caller's token: given, or read from a file.
fn token(args: &args::TokenArgs) -> anyhow::Result<Option<String>> {
    Ok(match (args.token.as_deref(), args.token_file.as_deref()) {
        (Some(token), _) => Some(token.trim().to_owned()),
        (None, Some(file)) => Some(
            std::fs::read_to_string(file)
                .map_err(|e| Failure::usage(format!("{}: {e}", file.display())))?
                .trim()
                .to_owned(),
        ),
        (None, None) => None,
    })
}

async fn worker(args: args::WorkerArgs) -> anyhow::Result<ExitCode> {
    let client = client(&args.server)?;
    let jobs = args.jobs.unwrap_or_else(cores);
    let options = ladder::worker::WorkerOptions {
        jobs,
        dir: args.dir.clone(),
        idle: Duration::from_secs(1),
        keep: args.keep,
        hide: Vec::new(),
    };
    outln!(
        "worker: {jobs} slots for {} (Ctrl-C stops after the jobs in hand)",
        args.server.server
    );
    let stats = ladder::worker::run(client, options, stop_signal(None))
        .await
        .map_err(failed)?;
    outln!("worker: stopped; {}", worker_line(&stats));
    Ok(ExitCode::Success)
}

async fn submit(args: args::SubmitArgs) -> anyhow::Result<ExitCode> {
    let client = client(&args.server)?;
    let bytes = upload::bytes_of(&args.lang, &args.path.to_string_lossy(), Path::new("."))?;
    // Refused here rather than half sent: the server would stop reading at its cap.
    let cap = client.info().await.map_err(failed)?.upload_bytes;
    if bytes.len() as u64 > cap {
        return Err(Failure::usage(format!(
            "{}: {} bytes to send, over the ladder's cap of {cap} bytes",
            args.path.display(),
            bytes.len()
        ))
        .into());
    }
    let submitted = client
        .submit(&args.name, &args.lang, bytes)
        .await
        .map_err(failed)?;
    let what = if submitted.new {
        "a new version"
    } else {
        "the same source as before"
    };
    outln!(
        "{}: {what} ({}), {}",
        submitted.name,
        &submitted.source[..12],
        submitted.state
    );
    if args.wait {
        loop {
            let status = client
                .version(&args.name, submitted.number)
                .await
                .map_err(failed)?;
            if status.state != "building" {
                render_status(&status);
                return Ok(if status.state == "ready" {
                    ExitCode::Success
                } else {
                    ExitCode::CheckFailed
                });
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
    Ok(ExitCode::Success)
}

fn render_status(status: &ladder::service::VersionStatus) {
    outln!(
        "{}: {} (μ {:.2}, σ {:.2}, {} ranked matches)",
        status.name,
        status.state,
        status.mu,
        status.sigma,
        status.matches
    );
    if let Some(log) = &status.build_log {
        outln!("build log:");
        for line in log.lines() {
            outln!("  {}", referee::untrusted::shown(line));
        }
    }
    if let Some(check) = &status.check {
        outln!(
            "checklist: {}",
            referee::untrusted::shown(&check.to_string())
        );
    }
}

async fn standings(args: args::StandingsArgs) -> anyhow::Result<ExitCode> {
    let rows = Client::new(&args.server, None)
        .standings_in(args.group.as_deref())
        .await
        .map_err(failed)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::Success);
    }
    outln!(
        "{:>4}  {:<24} {:<16} {:>7} {:>6} {:>8}  {:>7}",
        "rank",
        "version",
        "owner",
        "μ",
        "σ",
        "μ−3σ",
        "matches"
    );
    for r in rows {
        outln!(
            "{:>4}  {:<24} {:<16} {:>7.2} {:>6.2} {:>8.2}  {:>7}",
            r.rank,
            r.name,
            r.owner,
            r.mu,
            r.sigma,
            r.conservative,
            r.matches
        );
    }
    Ok(ExitCode::Success)
}

async fn status(args: args::StatusArgs) -> anyhow::Result<ExitCode> {
    let status = client(&args.server)?
        .version(&args.bot, args.number)
        .await
        .map_err(failed)?;
    render_status(&status);
    Ok(ExitCode::Success)
}

async fn admin(args: args::AdminArgs) -> anyhow::Result<ExitCode> {
    let client = client(&args.server)?;
    match args.command {
        AdminCommand::AddAccount { name, role } => {
            let made = client.add_account(&name, &role).await.map_err(failed)?;
            outln!("{} ({}): {}", made.name, made.role, made.token);
        }
        AdminCommand::Pause => client.set_paused(true).await.map_err(failed)?,
        AdminCommand::Resume => client.set_paused(false).await.map_err(failed)?,
        AdminCommand::Freeze => client.set_frozen(true).await.map_err(failed)?,
        AdminCommand::Thaw => client.set_frozen(false).await.map_err(failed)?,
        AdminCommand::Remove { bot } => client.remove(&bot).await.map_err(failed)?,
        other => {
            return class::run(&client, &args.server.server, other)
                .await
                .map(|done| done.unwrap_or(ExitCode::Success));
        }
    }
    Ok(ExitCode::Success)
}

async fn challenge(args: args::ChallengeArgs) -> anyhow::Result<ExitCode> {
    let request = ladder::service::ChallengeRequest {
        bot: args.bot.clone(),
        version: args.number,
        opponents: args.against.clone(),
        matches: args.matches,
    };
    let queued = client(&args.server)?
        .challenge(&request)
        .await
        .map_err(failed)?;
    outln!(
        "challenge: {} unranked matches queued (jobs {}…{}), first table {}",
        queued.jobs.len(),
        queued.jobs.first().copied().unwrap_or_default(),
        queued.jobs.last().copied().unwrap_or_default(),
        queued.table.join(", ")
    );
    outln!(
        "their results: referee ladder matches --server {} {}",
        args.server.server,
        args.bot
    );
    Ok(ExitCode::Success)
}

async fn matches(args: args::MatchesArgs) -> anyhow::Result<ExitCode> {
    let client = Client::new(&args.server, None);
    let views = match args.what.parse::<i64>() {
        Ok(id) => vec![client.match_view(id).await.map_err(failed)?],
        Err(_) => client
            .matches_of(&args.what, args.limit)
            .await
            .map_err(failed)?,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&views)?);
        return Ok(ExitCode::Success);
    }
    for view in views {
        let kind = match (view.ranked, view.challenge) {
            (true, _) => "ranked",
            (false, true) => "challenge",
            (false, false) => "unranked",
        };
        let seats: Vec<String> = view
            .seats
            .iter()
            .map(|s| {
                let faults = if s.faults > 0 {
                    format!(", {} faults", s.faults)
                } else {
                    String::new()
                };
                format!("#{} {} {}{faults}", s.rank, s.name, s.score)
            })
            .collect();
        outln!("match {} ({kind}): {}", view.id, seats.join("; "));
    }
    Ok(ExitCode::Success)
}

async fn stderr(args: args::StderrArgs) -> anyhow::Result<ExitCode> {
    let bytes = client(&args.server)?
        .match_stderr(args.id, args.seat)
        .await
        .map_err(failed)?;
    for line in String::from_utf8_lossy(&bytes).lines() {
        outln!("{}", referee::untrusted::shown(line));
    }
    Ok(ExitCode::Success)
}

/// The home of the ladder `path` names: a TOML file's (beside it) or the directory itself.
fn home_of(path: &Path) -> PathBuf {
    if path.is_file() {
        ladder::server::default_home(path)
    } else {
        path.to_path_buf()
    }
}

async fn export(args: args::ExportArgs) -> anyhow::Result<ExitCode> {
    let from = args
        .from
        .as_deref()
        .map(time::parse)
        .transpose()?
        .unwrap_or(0);
    let to = args
        .to
        .as_deref()
        .map(time::parse)
        .transpose()?
        .unwrap_or(i64::MAX);
    if let (Some(server), None) = (&args.server, &args.ladder) {
        let token = token(&args.token)?;
        let packed = Client::new(server, token.as_deref())
            .export(from, to)
            .await
            .map_err(failed)?;
        // A results directory, unpacked with an upload's checks (no link, no `..`).
        ladder::artifacts::unpack_results(&packed, &args.out).map_err(failed)?;
        outln!(
            "exported to {}; `referee leaderboard {}` ranks it",
            args.out.display(),
            args.out.display()
        );
        return Ok(ExitCode::Success);
    }
    let home = home_of(args.ladder.as_deref().unwrap_or(Path::new(".")));
    let ladder = Ladder::open(&home).await.map_err(failed)?;
    let exported = ladder
        .export_window(from, to, &args.out)
        .await
        .map_err(|e| Failure::usage(e.to_string()))?;
    ladder.store().close().await;
    outln!(
        "exported {} matches of {} versions ({} logs, {} stderr files) to {}; `referee leaderboard {}` ranks them",
        exported.matches,
        exported.bots,
        exported.logs,
        exported.stderr_files,
        args.out.display(),
        args.out.display()
    );
    Ok(ExitCode::Success)
}
