//! `referee bench --tournament`: the user's own command timed, in this process and out of it
//! ([`referee::bench::tournament`] plays and computes), rendered as one table beside the
//! same-core pipe round trip.

use super::Failure;
use super::args::BenchArgs;
use super::output::{errln, outln};
use protocol::ExitCode;
use referee::bench::machine;
use referee::bench::tournament::{
    self, Mode, ModeFigures, PLAYERS, Run, SEED, Spread, TournamentBench, TournamentBenchConfig,
};
use referee::numbers::grouped;

/// Runs `referee bench --tournament`.
pub fn run(args: BenchArgs) -> Result<ExitCode, Failure> {
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(std::path::Path::to_path_buf));
    let bot = exe_dir.as_deref().and_then(machine::rust_bot).ok_or_else(|| Failure {
        code: ExitCode::Usage,
        message: "bench --tournament: vabanque-random is not next to this binary; build the sample bots (cargo build --release --workspace)".into(),
    })?;
    let mut config = TournamentBenchConfig::new(bot);
    config.matches = args
        .matches
        .unwrap_or(if args.quick { 100 } else { config.matches });
    config.jobs = args.jobs.map_or(config.jobs, |j| j as usize);
    config.runs = args.runs.map_or(config.runs, |r| r as usize);
    outln!(
        "tournament: {}, {} Rust random bots, {PLAYERS} per match, {} matches, seed {SEED}, -j {}, default settings",
        tournament::GAME.name(),
        tournament::NAMES.len(),
        grouped(config.matches as i64),
        config.jobs
    );
    let (runs, trips) = if args.quick || config.matches < 1000 {
        (3, 2_000)
    } else {
        (5, 20_000)
    };
    let trip = tournament::same_core_trip_us(runs, trips).map_err(internal)?;
    outln!(
        "pipe round trip, same core: {trip:.2} µs (median of {runs} runs of {} trips)",
        grouped(trips as i64)
    );
    let total = config.runs;
    let bench = tournament::run(&config, trip, &mut |run| progress(run, total));
    referee::seat::cgroup::cleanup();
    let bench = bench.map_err(internal)?;
    outln!("{}", render(&bench, config.runs));
    Ok(ExitCode::Success)
}

/// A failure of the benchmark, with each of its causes.
fn internal(error: tournament::TournamentBenchError) -> Failure {
    let mut message = format!("bench --tournament: {error}");
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        message += &format!(": {cause}");
        source = cause.source();
    }
    Failure {
        code: ExitCode::Internal,
        message,
    }
}

/// One line on stderr as each run ends.
fn progress(run: &Run, total: usize) {
    errln!(
        "referee: bench: run {} of {total} {}: {} decisions in {:.2} s",
        run.number,
        label(run.mode),
        grouped(run.decisions as i64),
        run.wall_s
    );
}

fn label(mode: Mode) -> &'static str {
    match mode {
        Mode::InProcess => "in-process",
        Mode::OutOfProcess => "out of process",
    }
}

/// The table's columns: label, decisions, wall, decisions/s, wall per decision per worker,
/// CPU per decision (97 characters in all).
fn columns(cells: [&str; 6]) -> String {
    let [label, decisions, wall, rate, wall_us, cpu_us] = cells;
    format!("{label:<14}  {decisions:>9}  {wall:>11}  {rate:>15}  {wall_us:>20}  {cpu_us:>18}")
        .trim_end()
        .to_string()
}

/// The figures, the median of each mode's runs with their min–max under it, and what they
/// are.
fn render(bench: &TournamentBench, runs: usize) -> String {
    let mut lines = vec!["how the bots ran (the first run in this process):".to_string()];
    lines.extend(bench.processes.iter().map(|l| format!("  {l}")));
    lines.push(String::new());
    lines.push(columns([
        "",
        "decisions",
        "wall",
        "decisions/s",
        "µs/decision/worker",
        "CPU µs/decision",
    ]));
    for (mode, figures) in [
        (Mode::InProcess, &bench.in_process),
        (Mode::OutOfProcess, &bench.out_of_process),
    ] {
        lines.push(median_row(label(mode), figures));
        if runs > 1 {
            lines.push(range_row(figures));
        }
    }
    lines.push(String::new());
    let each = if runs == 1 {
        "1 run of each".to_string()
    } else {
        format!("the median of {runs} runs of each, min–max under it")
    };
    lines.push(format!(
        "({each}; in-process and out of process alternated)"
    ));
    lines.push(format!(
        "µs/decision/worker: wall × {} workers / decisions. CPU: the whole machine's (/proc/stat),",
        bench.jobs
    ));
    lines.push(
        "the sandboxed bots' included, and anything else it ran meanwhile. × trip: in same-core trips."
            .into(),
    );
    let (inside, outside) = (&bench.in_process, &bench.out_of_process);
    lines.push(format!(
        "out of process / in-process: {:.2}× the wall per decision, {:.2}× the CPU per decision",
        outside.wall_us.median / inside.wall_us.median,
        outside.cpu_us.median / inside.cpu_us.median
    ));
    let decisions = |f: &ModeFigures| f.runs.iter().map(|r| r.decisions).collect::<Vec<_>>();
    let all: Vec<u64> = [decisions(inside), decisions(outside)].concat();
    if all.iter().any(|&d| d != all[0]) {
        lines.push(format!(
            "note: the runs took different numbers of decisions (in-process {:?}, out of process {:?})",
            decisions(inside),
            decisions(outside)
        ));
    }
    let substituted = inside.substituted + outside.substituted;
    if substituted > 0 {
        lines.push(format!(
            "note: the referee took {} of the decisions for a bot that faulted (see a run's results with referee tournament)",
            grouped(substituted as i64)
        ));
    }
    lines.join("\n")
}

/// A mode's medians, each per-decision figure with its multiple of the pipe round trip.
fn median_row(label: &str, f: &ModeFigures) -> String {
    columns([
        label,
        &grouped(f.decisions.median as i64),
        &format!("{:.2} s", f.wall_s.median),
        &grouped(f.per_second.median.round() as i64),
        &format!("{:.1} ({:.1}× trip)", f.wall_us.median, f.wall_trips.median),
        &format!("{:.1} ({:.1}× trip)", f.cpu_us.median, f.cpu_trips.median),
    ])
}

/// A mode's smallest and largest values, under its medians.
fn range_row(f: &ModeFigures) -> String {
    let range = |s: Spread, show: &dyn Fn(f64) -> String| -> String {
        format!("{}–{}", show(s.min), show(s.max))
    };
    let one = |x: f64| format!("{x:.1}");
    let rate = |x: f64| grouped(x.round() as i64);
    columns([
        "  min–max",
        "",
        &range(f.wall_s, &|x| format!("{x:.2}")),
        &range(f.per_second, &rate),
        &range(f.wall_us, &one),
        &range(f.cpu_us, &one),
    ])
}

#[cfg(test)]
mod tests {
    use crate::args::{Cli, Command};
    use clap::Parser;
    use referee::bench::tournament::TournamentBenchConfig;
    use referee::seat::BotSpec;

    /// The tournament played in this process is the one the child's command line gives, as
    /// `referee tournament` settles it: every setting, the bots' included.
    #[test]
    fn in_process_and_out_of_process_play_the_same_tournament() {
        let bot = BotSpec::parse("rust=/opt/the bots/vabanque-random").unwrap();
        let mut config = TournamentBenchConfig::new(bot);
        config.matches = 40;
        config.jobs = 3;
        let out = std::path::Path::new("/nonexistent/bench-out");
        let argv = std::iter::once("referee".into()).chain(config.command_args(out));
        let cli = Cli::try_parse_from(argv).unwrap();
        let Command::Tournament(args) = cli.command else {
            unreachable!("a tournament was parsed")
        };
        let settings = crate::tournament_config::from_args(args).unwrap();
        assert!(settings.quiet);
        let mut child = settings.config;
        let inside = config.tournament(out);
        // The grace after a decision's limit while a bot has overruns left: the command line's
        // default is a tenth of the limit, the library's none; no bot has any overrun to use.
        for (a, b) in child.bots.iter_mut().zip(&inside.bots) {
            assert_eq!((a.settings.time.overruns, b.settings.time.overruns), (0, 0));
            a.settings.time.overrun_ms = b.settings.time.overrun_ms;
        }
        assert_eq!(format!("{child:#?}"), format!("{inside:#?}"));
        assert_eq!(inside.bots.len(), 4);
    }
}
