//! `referee tournament`: the schedule is played by a pool of workers; one coordinator appends
//! each result to `matches.jsonl` as it arrives and draws the progress bar; the leaderboard is
//! computed from the directory at the end.

use super::Failure;
use super::args::TournamentArgs;
use super::board_render;
use super::checks::{check_bots, game_options};
use super::output::{out, outln};
use super::tournament_config::{self, TournamentConfig};
use crate::tournament::results::{MetaBot, read_results};
use crate::tournament::{
    MatchResult, PoolSettings, ResultsFile, ScheduleSpec, TournamentMeta, compute, run_pool,
    schedule,
};
use engine::Game;
use indicatif::{ProgressBar, ProgressStyle};
use protocol::ExitCode;
use std::collections::BTreeMap;
use std::io::IsTerminal;

/// Runs `referee tournament`.
pub fn run(args: TournamentArgs) -> Result<ExitCode, Failure> {
    let config = tournament_config::from_args(args)?;
    engine::with_game!(config.game, G => run_game::<G>(config))
}

/// The player count: as given, or the game's smallest count that the field fills, at most 4.
fn players<G: Game>(config: &TournamentConfig) -> Result<usize, Failure> {
    let counts = G::player_counts();
    let n = config.bots.len();
    let players = config
        .players
        .unwrap_or_else(|| n.clamp(*counts.start(), (*counts.end()).min(4)));
    if !counts.contains(&players) {
        return Err(Failure::usage(format!(
            "{} is played by {} to {} players, not {players} (--players)",
            G::NAME,
            counts.start(),
            counts.end()
        )));
    }
    if n < players {
        return Err(Failure::usage(format!(
            "{players} players per match need at least {players} bots; {n} were given (--bot NAME=COMMAND, once per bot)"
        )));
    }
    Ok(players)
}

fn run_game<G: Game>(config: TournamentConfig) -> Result<ExitCode, Failure> {
    let players = players::<G>(&config)?;
    check_bots::<G>(&config.bots)?;
    let options = game_options::<G>(&config.options)?;
    let cycle = schedule::cycle_length(config.format, config.bots.len(), players);
    let matches = config.matches.unwrap_or(cycle);
    // Seats are balanced by whole cycles (whole groups for a sampled schedule).
    let unit = if config.format == crate::tournament::Format::Sampled {
        players as u64
    } else {
        cycle
    };
    if matches % unit != 0 {
        eprintln!(
            "referee: note: {matches} matches is not a whole number of cycles ({unit} each): seats are not exactly balanced"
        );
    }
    let meta = TournamentMeta {
        game: G::NAME.to_string(),
        options: config.options.clone(),
        bots: config
            .bots
            .iter()
            .map(|b| MetaBot {
                name: b.name.clone(),
                command: b.describe(),
                limits: b.settings.time.limits,
                overruns: b.settings.time.overruns,
                overrun_ms: b.settings.time.overrun_ms,
                resources: b.settings.limits,
            })
            .collect(),
        players,
        format: config.format,
        candidate: (config.format == crate::tournament::Format::Gauntlet)
            .then(|| config.bots[config.candidate].name.clone()),
        matches,
        seed: config.seed,
        duplicate: config.duplicate,
        max_faults: config.refereeing.max_faults,
        policy: config.refereeing.policy,
    };
    let mut scheduled = schedule::build(&ScheduleSpec {
        format: config.format,
        bots: config.bots.len(),
        players,
        matches,
        seed: config.seed,
        duplicate: config.duplicate,
    });
    if config.candidate != 0 {
        for m in &mut scheduled {
            for b in &mut m.seats {
                *b = if *b == 0 {
                    config.candidate
                } else if *b == config.candidate {
                    0
                } else {
                    *b
                };
            }
        }
    }
    if let Some((k, n)) = config.shard {
        scheduled.retain(|m| m.id % n == k);
    }
    let share = scheduled.len() as u64;
    let (mut file, done) =
        ResultsFile::open(&config.out, &meta, config.resume).map_err(Failure::usage)?;
    scheduled.retain(|m| !done.contains_key(&m.id));
    let stderr_dir = config.out.join("stderr");
    let logs_dir = config.out.join("logs");
    for dir in std::iter::once(&stderr_dir).chain(config.logs.then_some(&logs_dir)) {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::usage(format!("cannot create {}: {e}", dir.display())))?;
    }
    if config.seed_drawn {
        eprintln!(
            "referee: no seed given: drew seed {} (kept in {}; --resume reuses it, --seed {} repeats the tournament)",
            config.seed,
            config.out.display(),
            config.seed
        );
    }
    eprintln!(
        "referee: {} — {} bots, {players} per match, {share} matches{} ({} already done), -j {}, seed {}, results in {}",
        G::NAME,
        config.bots.len(),
        config
            .shard
            .map(|(k, n)| format!(" in shard {}/{n}", k + 1))
            .unwrap_or_default(),
        done.len(),
        config.jobs,
        config.seed,
        config.out.display()
    );
    let settings = PoolSettings::<G> {
        specs: config.bots.clone(),
        options,
        max_faults: config.refereeing.max_faults,
        policy: config.refereeing.policy,
        process: super::bot_settings::process_options(
            config.refereeing.sandbox,
            std::iter::once(config.out.clone())
                .chain(config.refereeing.hide.iter().cloned())
                .collect(),
            &config.bots,
        )?,
        stderr_dir: Some(stderr_dir),
        logs_dir: config.logs.then_some(logs_dir),
        duplicate: config.duplicate,
        jobs: config.jobs,
        pin: config.pin,
    };
    let settings = std::sync::Arc::new(settings);
    let progress = (!config.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(share);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} matches · {per_sec} · ETA {eta} · {msg}",
            )
            .expect("a valid template"),
        );
        bar.set_position(done.len() as u64);
        bar
    });
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let runtime = super::runtime()?;
    let mut written = 0u64;
    let mut wins: BTreeMap<String, f64> = BTreeMap::new();
    let outcome = runtime.block_on(async {
        let mut interrupt = super::match_cmd::Interrupt::catch();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<MatchResult>();
        let pool = run_pool(settings.clone(), scheduled, tx);
        let coordinator = async {
            while let Some(result) = rx.recv().await {
                file.append(&result).map_err(|e| Failure {
                    code: ExitCode::Internal,
                    message: e.to_string(),
                })?;
                written += 1;
                if let Some(bar) = &progress {
                    let firsts = result.record.ranks.iter().filter(|&&r| r == 1).count() as f64;
                    for (seat, name) in result.record.players.iter().enumerate() {
                        *wins.entry(name.clone()).or_default() += if result.record.ranks[seat] == 1
                        {
                            1.0 / firsts
                        } else {
                            0.0
                        };
                    }
                    let mut top: Vec<(&String, &f64)> = wins.iter().collect();
                    top.sort_by(|a, b| b.1.total_cmp(a.1));
                    let shown: Vec<String> = top
                        .iter()
                        .take(3)
                        .map(|(n, w)| format!("{n} {w:.0}"))
                        .collect();
                    bar.set_message(format!("wins: {}", shown.join(", ")));
                    bar.inc(1);
                }
            }
            Ok::<(), Failure>(())
        };
        tokio::pin!(pool, coordinator);
        let mut pool_done = None;
        // The coordinator ends when the pool has sent its last result, or at its first failure,
        // which stops the pool (its bots are stopped as it is dropped).
        loop {
            tokio::select! {
                finished = &mut pool, if pool_done.is_none() => pool_done = Some(finished),
                written = &mut coordinator => break Some((pool_done, written)),
                () = interrupt.wait() => break None,
            }
        }
    });
    drop(runtime); // stops every bot process still running
    crate::seat::cgroup::cleanup();
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    match outcome {
        None => {
            let mut resume: Vec<String> = std::env::args().collect();
            if !resume.iter().any(|a| a == "--resume") {
                resume.push("--resume".into());
            }
            let line = shlex::try_join(resume.iter().map(String::as_str))
                .unwrap_or_else(|_| resume.join(" "));
            eprintln!(
                "referee: interrupted after {written} new matches; every result written is kept and every bot process was stopped"
            );
            eprintln!("referee: resume with: {line}");
            return Ok(ExitCode::Interrupted);
        }
        Some((pool, coordinator)) => {
            coordinator?;
            if let Some(Err(e)) = pool {
                return Err(Failure {
                    code: ExitCode::Internal,
                    message: e.to_string(),
                });
            }
        }
    }
    let (results, _) = read_results(&config.out).map_err(Failure::usage)?;
    let refs: Vec<&MatchResult> = results.values().collect();
    let board = compute(G::NAME, G::SCORE_NAME, &names, &refs, matches);
    out!("{}", board_render::render(&board, config.board));
    if config.board == super::args::BoardFormat::Table {
        outln!("results: {}", config.out.display());
    }
    if let Some(kib) = crate::bench::peak_rss_kib() {
        eprintln!(
            "referee: peak memory of the referee (RSS): {:.1} MiB",
            kib as f64 / 1024.0
        );
    }
    Ok(ExitCode::Success)
}
