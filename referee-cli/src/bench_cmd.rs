//! `referee bench`: measures this machine and prints the figures side by side, each with its
//! ratio to the pipe round trip measured first (the physical limit); with `--tournament`, only
//! the user's own command ([`super::bench_tournament`]).

use super::Failure;
use super::args::BenchArgs;
use super::output::outln;
use engine::Game;
use engine::vabanque::Vabanque;
use protocol::ExitCode;
use referee::affinity::allowed_cores;
use referee::bench::{self, BotRun, machine, pipe};
use referee::seat::BotSpec;
use std::time::Duration;

/// Runs `referee bench`.
pub fn run(args: BenchArgs) -> Result<ExitCode, Failure> {
    if args.tournament {
        return super::bench_tournament::run(args);
    }
    let quick = args.quick;
    let matches = args.matches.unwrap_or(if quick { 100 } else { 2000 });
    let budget = Duration::from_millis(if quick { 200 } else { 2000 });
    let cores = allowed_cores();
    let jobs = cores.len().max(1);
    outln!(
        "machine: {} cores allowed ({:?}), {}",
        cores.len(),
        cores,
        machine::cpu_model()
    );
    outln!("");
    let trips = pipe_round_trips(&cores, quick)?;
    outln!("");

    outln!("2. in-process games (4 players, each game's baseline built-in bots)");
    for kind in engine::GameKind::ALL {
        engine::with_game!(kind, G => in_process_games::<G>(budget, jobs));
    }
    outln!("");

    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(std::path::Path::to_path_buf));
    let rust = exe_dir.as_deref().and_then(machine::rust_bot);
    let python = machine::python_bot();
    bot_decisions(rust.as_ref(), python.as_ref(), &trips, matches, jobs);
    outln!("");

    outln!("4. starting a bot process (spawn to hello reply)");
    if let Some(spec) = &rust {
        let ms = bench::spawn_cost::<Vabanque>(spec, if quick { 5 } else { 20 });
        outln!(
            "   Rust:   {ms:7.2} ms per start ({:.0} decisions' worth at -j 1)",
            ms * 1e3 / trips.same
        );
    }
    if let Some(spec) = &python {
        let ms = bench::spawn_cost::<Vabanque>(spec, if quick { 2 } else { 5 });
        outln!(
            "   Python: {ms:7.2} ms per start; kept alive across matches, a bot starts once per worker, not once per match"
        );
    }
    outln!("");
    referee::seat::cgroup::cleanup();
    if let Some(kib) = bench::peak_rss_kib() {
        outln!(
            "5. peak memory of the referee (RSS) over the whole run: {:.1} MiB",
            kib as f64 / 1024.0
        );
    }
    Ok(ExitCode::Success)
}

/// The pipe round trips of section 1, in µs.
struct Trips {
    /// Both ends on the first allowed core.
    same: f64,
    /// Each end on its own core, where two are allowed.
    cross: Option<f64>,
}

/// Section 1: the pipe round trip on one core, across two, and unpinned.
fn pipe_round_trips(cores: &[usize], quick: bool) -> Result<Trips, Failure> {
    let internal = |e: std::io::Error| Failure {
        code: ExitCode::Internal,
        message: format!("the pipe benchmark failed: {e}"),
    };
    outln!(
        "1. pipe round trip ({} B request, {} B reply), median of 5 runs",
        pipe::REQUEST_BYTES,
        pipe::REPLY_BYTES
    );
    let (runs, trips) = if quick { (3, 2_000) } else { (5, 20_000) };
    let first = cores.first().copied();
    let same = pipe::round_trip_us(first, first, runs, trips).map_err(internal)?;
    outln!("   same core:        {same:8.2} µs");
    let cross = match cores.get(1) {
        Some(&other) => {
            let us = pipe::round_trip_us(first, Some(other), runs, trips).map_err(internal)?;
            outln!("   across cores:     {us:8.2} µs");
            Some(us)
        }
        None => None,
    };
    let free = pipe::round_trip_us(None, None, runs, trips).map_err(internal)?;
    outln!("   unpinned:         {free:8.2} µs");
    Ok(Trips { same, cross })
}

/// Section 3: decisions per second of four real Rust bots and four Python bots, each beside
/// the pipe round trips.
fn bot_decisions(
    rust: Option<&BotSpec>,
    python: Option<&BotSpec>,
    trips: &Trips,
    matches: u64,
    jobs: usize,
) {
    outln!(
        "3. decisions with real bot processes (vabanque, 4 bots, {matches} matches per run, no sandbox)"
    );
    let limit = trips.cross.unwrap_or(trips.same);
    let row = |label: &str, run: BotRun, jobs: usize| {
        let us = run.us_per_decision(jobs);
        outln!(
            "   {label:<28} {:9.0} decisions/s  {us:7.2} µs/decision/worker  {:5.1}× same-core trip  {:5.1}× cross-core trip",
            run.per_second(),
            us / trips.same,
            us / limit
        );
    };
    match rust {
        Some(spec) => {
            let specs = machine::four(spec);
            row(
                "Rust, -j 1 (pinned)",
                bench::decisions_per_second::<Vabanque>(&specs, matches, 1, true),
                1,
            );
            row(
                &format!("Rust, -j {jobs} (pinned)"),
                bench::decisions_per_second::<Vabanque>(&specs, matches, jobs, true),
                jobs,
            );
            row(
                &format!("Rust, -j {jobs} (unpinned)"),
                bench::decisions_per_second::<Vabanque>(&specs, matches, jobs, false),
                jobs,
            );
        }
        None => outln!(
            "   Rust: skipped (vabanque-random is not next to this binary; build the workspace)"
        ),
    }
    match python {
        Some(spec) => {
            let specs = machine::four(spec);
            let m = (matches / 4).max(10);
            row(
                "Python, -j 1 (pinned)",
                bench::decisions_per_second::<Vabanque>(&specs, m, 1, true),
                1,
            );
            row(
                &format!("Python, -j {jobs} (pinned)"),
                bench::decisions_per_second::<Vabanque>(&specs, m, jobs, true),
                jobs,
            );
        }
        None => outln!("   Python: skipped (run from the repository root, with python3 installed)"),
    }
}

/// Section 2 for one game: the engine alone, then the match runner at -j 1 and -j `jobs`.
fn in_process_games<G: Game>(budget: Duration, jobs: usize) {
    outln!("   {}", G::NAME);
    let engine = bench::engine_games_per_second::<G>(4, budget);
    outln!("     engine alone (default actions): {engine:10.0} games/s per core");
    let one = bench::builtin_games_per_second::<G>(4, budget);
    outln!("     match runner, -j 1:             {one:10.0} games/s");
    let many = bench::builtin_games_per_second_parallel::<G>(4, budget, jobs, true);
    outln!(
        "     match runner, -j {jobs} (pinned):    {many:10.0} games/s ({:.2}× -j 1)",
        many / one
    );
}
