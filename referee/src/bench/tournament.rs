//! `referee bench --tournament`: the user's own command, timed. Four Rust `vabanque-random`
//! bots play a Vabanque tournament the way `referee tournament` plays it by default — the
//! sandbox where it works, control groups, bot uids, every result written — once in this process
//! through [`tournament::run`](crate::tournament::run) and once as a child `referee tournament`
//! (the same command line a user types), alternately, `runs` times each.
//!
//! Each run is timed on the wall clock and on the CPU the whole machine spent
//! (`/proc/stat`, [`super::machine_cpu::busy_ticks`]): the bots run in sandboxes and pid namespaces of their own,
//! so not all of their time reaches the referee's resource usage; the machine's count has it
//! all, and whatever else the machine ran meanwhile. The decisions are counted from the run's
//! results directory (`matches.jsonl`), the same source for both ways of running. Each figure
//! per decision is also given as a multiple of the same-core pipe round trip
//! ([`same_core_trip_us`]), the physical limit of one decision. This module computes; the
//! command line renders (docs/performance.md).

use super::machine_cpu::{CpuClock, ProcStatError};
use super::median;
use crate::policy::BotProcesses;
use crate::seat::{BotSpec, Launch};
use crate::tournament::results_error::ResultsError;
use crate::tournament::{
    FormatSpec, Outcome, Reporter, TournamentConfig, TournamentError, results,
};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The game played.
pub const GAME: engine::GameKind = engine::GameKind::Vabanque;
/// The bots' names in the field, one copy of the Rust bot each.
pub const NAMES: [&str; 4] = ["a", "b", "c", "d"];
/// Players per match.
pub const PLAYERS: usize = 4;
/// The tournament seed.
pub const SEED: u64 = 3;
/// Matches per run by default.
pub const DEFAULT_MATCHES: u64 = 2000;
/// Runs of each way by default.
pub const DEFAULT_RUNS: usize = 3;
/// Matches played at once by default (fewer where fewer cores are allowed).
pub const DEFAULT_JOBS: usize = 2;

/// [`DEFAULT_JOBS`], or the cores this process may run on if fewer.
pub fn default_jobs() -> usize {
    DEFAULT_JOBS
        .min(crate::affinity::allowed_cores().len())
        .max(1)
}

/// What the benchmark plays, and how often.
#[derive(Clone, Debug)]
pub struct TournamentBenchConfig {
    /// The bot every seat runs (the Rust `vabanque-random`, as
    /// [`machine::rust_bot`](super::machine::rust_bot) finds it); renamed a to d.
    pub bot: BotSpec,
    /// Matches per run.
    pub matches: u64,
    /// Matches played at once (`-j`).
    pub jobs: usize,
    /// Runs of each way (in this process, and out of it).
    pub runs: usize,
}

impl TournamentBenchConfig {
    /// The benchmark of `bot` with the defaults: [`DEFAULT_MATCHES`], [`default_jobs`],
    /// [`DEFAULT_RUNS`].
    pub fn new(bot: BotSpec) -> Self {
        TournamentBenchConfig {
            bot,
            matches: DEFAULT_MATCHES,
            jobs: default_jobs(),
            runs: DEFAULT_RUNS,
        }
    }

    /// The field: four copies of the bot, named after [`NAMES`].
    pub fn bots(&self) -> Vec<BotSpec> {
        NAMES
            .iter()
            .map(|name| {
                let mut spec = self.bot.clone();
                spec.name = (*name).to_string();
                spec
            })
            .collect()
    }

    /// The tournament played in this process, results in `out`: every setting the one
    /// [`command_args`](Self::command_args) gives has, as `referee tournament` settles it when
    /// no flag or file says otherwise (a round robin in duplicate, no logs, workers pinned when
    /// there are no more of them than cores, 3 faults before a bot is stopped, the default
    /// fault and process policies).
    pub fn tournament(&self, out: &Path) -> TournamentConfig {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        TournamentConfig {
            game: GAME,
            options: serde_json::Value::Object(Default::default()),
            bots: self.bots(),
            players: Some(PLAYERS),
            matches: Some(self.matches),
            seed: SEED,
            format: FormatSpec::default(),
            candidate: 0,
            duplicate: true,
            shard: None,
            resume: false,
            out: out.to_path_buf(),
            logs: false,
            jobs: self.jobs,
            pin: self.jobs <= cores,
            max_faults: 3,
            policy: Default::default(),
            process: Default::default(),
        }
    }

    /// The arguments of the `referee tournament` run out of process, results in `out`, without
    /// the program's name: `tournament --game vabanque --players 4 --matches N --seed 3 -j J
    /// --out OUT -q --bot a=COMMAND …`.
    pub fn command_args(&self, out: &Path) -> Vec<OsString> {
        let mut args: Vec<OsString> = [
            "tournament".to_string(),
            "--game".into(),
            GAME.name().into(),
            "--players".into(),
            PLAYERS.to_string(),
            "--matches".into(),
            self.matches.to_string(),
            "--seed".into(),
            SEED.to_string(),
            "-j".into(),
            self.jobs.to_string(),
        ]
        .into_iter()
        .map(OsString::from)
        .collect();
        args.push("--out".into());
        args.push(out.into());
        args.push("-q".into());
        for bot in self.bots() {
            args.push("--bot".into());
            args.push(format!("{}={}", bot.name, command_line(&bot.launch)).into());
        }
        args
    }
}

/// A bot's launch as the command line takes it after `NAME=`.
fn command_line(launch: &Launch) -> String {
    match launch {
        Launch::Builtin(name) => format!("builtin:{name}"),
        Launch::Command(words) => {
            shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
        }
    }
}

/// How a run played the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Through [`tournament::run`](crate::tournament::run), in this process.
    InProcess,
    /// As a child process: `referee tournament …` ([`TournamentBenchConfig::command_args`]).
    OutOfProcess,
}

/// One run of the tournament.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// How it was played.
    pub mode: Mode,
    /// Its 1-based number among the runs of its mode.
    pub number: usize,
    /// Wall-clock seconds, from the call (or the spawn) to its return (or the child's exit).
    pub wall_s: f64,
    /// CPU seconds the whole machine spent meanwhile (`/proc/stat`: user, nice, system, irq,
    /// softirq and steal).
    pub cpu_s: f64,
    /// Matches in the results directory.
    pub matches: u64,
    /// Decisions those matches took, summed over their seats.
    pub decisions: u64,
    /// Of those, decisions the referee took for a bot (its faults).
    pub substituted: u64,
}

impl Run {
    /// Decisions per second of wall-clock time.
    pub fn decisions_per_second(&self) -> f64 {
        self.decisions as f64 / self.wall_s
    }

    /// Microseconds of wall-clock time per decision, per worker (`wall × jobs / decisions`).
    pub fn wall_us_per_decision(&self, jobs: usize) -> f64 {
        self.wall_s * 1e6 * jobs as f64 / self.decisions as f64
    }

    /// Microseconds of the machine's CPU time per decision.
    pub fn cpu_us_per_decision(&self) -> f64 {
        self.cpu_s * 1e6 / self.decisions as f64
    }
}

/// The median of a figure over runs, with its smallest and largest value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The median (of an even count, the upper one, as [`median`]).
    pub median: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
}

impl Spread {
    /// The spread of `values`; all 0 when there are none.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Self {
        let mut values: Vec<f64> = values.into_iter().collect();
        let median = median(&mut values);
        Spread {
            median,
            min: values.first().copied().unwrap_or(0.0),
            max: values.last().copied().unwrap_or(0.0),
        }
    }

    /// Each value divided by `unit`.
    pub fn per(self, unit: f64) -> Self {
        Spread {
            median: self.median / unit,
            min: self.min / unit,
            max: self.max / unit,
        }
    }
}

/// The figures of one mode over its runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ModeFigures {
    /// Its runs, in order.
    pub runs: Vec<Run>,
    /// Decisions per run (the same at every run of a seeded tournament of deterministic bots).
    pub decisions: Spread,
    /// Wall-clock seconds per run.
    pub wall_s: Spread,
    /// Decisions per second.
    pub per_second: Spread,
    /// Microseconds of wall-clock time per decision per worker ([`Run::wall_us_per_decision`]).
    pub wall_us: Spread,
    /// The same, as a multiple of the same-core pipe round trip.
    pub wall_trips: Spread,
    /// Microseconds of the machine's CPU per decision ([`Run::cpu_us_per_decision`]).
    pub cpu_us: Spread,
    /// The same, as a multiple of the same-core pipe round trip.
    pub cpu_trips: Spread,
    /// Decisions the referee took for a bot, over every run.
    pub substituted: u64,
}

impl ModeFigures {
    /// The figures of `runs` at `jobs` workers, beside a pipe round trip of `trip_us`.
    pub fn of(runs: Vec<Run>, jobs: usize, trip_us: f64) -> Self {
        let spread = |f: &dyn Fn(&Run) -> f64| Spread::of(runs.iter().map(f));
        let wall_us = spread(&|r| r.wall_us_per_decision(jobs));
        let cpu_us = spread(&|r| r.cpu_us_per_decision());
        ModeFigures {
            decisions: spread(&|r| r.decisions as f64),
            wall_s: spread(&|r| r.wall_s),
            per_second: spread(&|r| r.decisions_per_second()),
            wall_us,
            wall_trips: wall_us.per(trip_us),
            cpu_us,
            cpu_trips: cpu_us.per(trip_us),
            substituted: runs.iter().map(|r| r.substituted).sum(),
            runs,
        }
    }
}

/// What the benchmark found.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentBench {
    /// Matches per run.
    pub matches: u64,
    /// Matches played at once.
    pub jobs: usize,
    /// The same-core pipe round trip the figures are measured against, in microseconds.
    pub trip_us: f64,
    /// How the bot processes ran, as the first run in this process resolved it: which sandbox
    /// ([`BotProcesses::sandbox`]), then what the referee says at start-up (the control groups,
    /// who the bots run as), each a short line.
    pub processes: Vec<String>,
    /// The runs in this process.
    pub in_process: ModeFigures,
    /// The runs of `referee tournament` as a child process.
    pub out_of_process: ModeFigures,
}

/// Why the benchmark could not finish.
#[derive(Debug, thiserror::Error)]
pub enum TournamentBenchError {
    /// The pipe round trip could not be measured.
    #[error("the pipe round trip cannot be measured")]
    Pipe(#[source] std::io::Error),
    /// A run's temporary results directory could not be made.
    #[error("cannot make a temporary results directory in {}", .dir.display())]
    TempDir {
        /// Where it was to be made.
        dir: PathBuf,
        /// Why not.
        #[source]
        source: std::io::Error,
    },
    /// The runtime of the run in this process could not be started.
    #[error("cannot start the runtime")]
    Runtime(#[source] std::io::Error),
    /// The tournament in this process failed.
    #[error("the tournament in this process failed")]
    Tournament(#[source] TournamentError),
    /// The tournament in this process stopped before its end.
    #[error("the tournament in this process was interrupted")]
    Interrupted,
    /// This program could not be found to run it again.
    #[error("cannot find this program to run `referee tournament`")]
    CurrentExe(#[source] std::io::Error),
    /// `referee tournament` could not be started.
    #[error("cannot start `{}`", .program.display())]
    Spawn {
        /// The program.
        program: PathBuf,
        /// Why not.
        #[source]
        source: std::io::Error,
    },
    /// `referee tournament` failed.
    #[error("`referee tournament` failed ({status}): {stderr}")]
    Command {
        /// Its exit status.
        status: std::process::ExitStatus,
        /// The last lines of its standard error.
        stderr: String,
    },
    /// A run's results could not be read back.
    #[error("the results of a run cannot be read back")]
    Results(#[source] ResultsError),
    /// A run's results hold another number of matches than it was to play.
    #[error("a run's results hold {found} matches, not {expected}")]
    Incomplete {
        /// Matches asked for.
        expected: u64,
        /// Matches found.
        found: u64,
    },
    /// A run took no decision: there is nothing to divide by.
    #[error("a run took no decision")]
    NoDecisions,
    /// The machine's CPU time could not be read.
    #[error(transparent)]
    ProcStat(#[from] ProcStatError),
}

/// The same-core pipe round trip in microseconds: `referee bench`'s section 1, both ends on
/// the first core this process may run on, the median of `runs` runs of `trips` trips.
///
/// # Errors
/// [`TournamentBenchError::Pipe`] when the other end cannot be started or the pipes fail.
pub fn same_core_trip_us(runs: usize, trips: usize) -> Result<f64, TournamentBenchError> {
    let first = crate::affinity::allowed_cores().first().copied();
    super::pipe::round_trip_us(first, first, runs, trips).map_err(TournamentBenchError::Pipe)
}

/// Plays the benchmark: `config.runs` rounds of one run in this process then one out of it,
/// each in a fresh temporary results directory removed afterwards; `progress` is told of
/// each run as it ends. The figures per decision are measured against `trip_us` (see
/// [`same_core_trip_us`]).
///
/// The control groups the runs in this process made are left for the caller to remove once,
/// at its end, as after any run ([`seat::cgroup::cleanup`](crate::seat::cgroup::cleanup)).
///
/// # Errors
/// [`TournamentBenchError`]: a run that could not be played, or whose results or CPU time
/// could not be read.
pub fn run(
    config: &TournamentBenchConfig,
    trip_us: f64,
    progress: &mut dyn FnMut(&Run),
) -> Result<TournamentBench, TournamentBenchError> {
    let clock = CpuClock::new()?;
    let program = std::env::current_exe().map_err(TournamentBenchError::CurrentExe)?;
    let mut processes = None;
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for number in 1..=config.runs {
        let run = in_process(config, &clock, number, &mut processes)?;
        progress(&run);
        inside.push(run);
        let run = out_of_process(config, &clock, &program, number)?;
        progress(&run);
        outside.push(run);
    }
    Ok(TournamentBench {
        matches: config.matches,
        jobs: config.jobs,
        trip_us,
        processes: processes.unwrap_or_default(),
        in_process: ModeFigures::of(inside, config.jobs, trip_us),
        out_of_process: ModeFigures::of(outside, config.jobs, trip_us),
    })
}

/// A reporter that keeps what is said about the bot processes, and nothing else.
struct Processes<'a>(&'a mut Option<Vec<String>>);

impl Reporter for Processes<'_> {
    fn processes(&mut self, processes: &BotProcesses) {
        if self.0.is_none() {
            let mut lines = vec![processes.sandbox()];
            lines.extend(processes.notices.iter().map(|n| n.short().to_string()));
            *self.0 = Some(lines);
        }
    }
}

/// One run through [`tournament::run`](crate::tournament::run), on a runtime of one thread as
/// the command line's (the matches run on worker threads of their own).
fn in_process(
    config: &TournamentBenchConfig,
    clock: &CpuClock,
    number: usize,
    processes: &mut Option<Vec<String>>,
) -> Result<Run, TournamentBenchError> {
    let dir = TempDir::new()?;
    let tournament = config.tournament(&dir.out());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(TournamentBenchError::Runtime)?;
    let mut reporter = Processes(processes);
    let (cpu, started) = (clock.now()?, Instant::now());
    let outcome = runtime.block_on(crate::tournament::run(
        &tournament,
        &mut reporter,
        std::future::pending(),
    ));
    let (wall_s, cpu_s) = (started.elapsed().as_secs_f64(), clock.since(cpu)?);
    drop(runtime);
    match outcome.map_err(TournamentBenchError::Tournament)? {
        Outcome::Finished(_) => {}
        Outcome::Interrupted { .. } => return Err(TournamentBenchError::Interrupted),
    }
    finished(config, &dir, Mode::InProcess, number, wall_s, cpu_s)
}

/// One run of `program tournament …`, its standard output discarded.
fn out_of_process(
    config: &TournamentBenchConfig,
    clock: &CpuClock,
    program: &Path,
    number: usize,
) -> Result<Run, TournamentBenchError> {
    let dir = TempDir::new()?;
    let mut command = Command::new(program);
    command
        .args(config.command_args(&dir.out()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let (cpu, started) = (clock.now()?, Instant::now());
    let output = command
        .output()
        .map_err(|source| TournamentBenchError::Spawn {
            program: program.to_path_buf(),
            source,
        })?;
    let (wall_s, cpu_s) = (started.elapsed().as_secs_f64(), clock.since(cpu)?);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        return Err(TournamentBenchError::Command {
            status: output.status,
            stderr: lines[lines.len().saturating_sub(3)..].join(" / "),
        });
    }
    finished(config, &dir, Mode::OutOfProcess, number, wall_s, cpu_s)
}

/// The run whose results are in `dir`, its decisions counted there.
fn finished(
    config: &TournamentBenchConfig,
    dir: &TempDir,
    mode: Mode,
    number: usize,
    wall_s: f64,
    cpu_s: f64,
) -> Result<Run, TournamentBenchError> {
    let back = results::read_back(&dir.out()).map_err(TournamentBenchError::Results)?;
    let matches = back.results.len() as u64;
    if matches != config.matches {
        return Err(TournamentBenchError::Incomplete {
            expected: config.matches,
            found: matches,
        });
    }
    let seats = back.results.values().flat_map(|r| &r.record.stats);
    let (decisions, substituted) = seats.fold((0, 0), |(d, s), seat| {
        (d + seat.decisions, s + seat.substituted)
    });
    if decisions == 0 {
        return Err(TournamentBenchError::NoDecisions);
    }
    Ok(Run {
        mode,
        number,
        wall_s,
        cpu_s,
        matches,
        decisions,
        substituted,
    })
}

/// A fresh directory of this user's only, under the system's temporary directory, removed with
/// everything in it when dropped; the run's results go to `results` in it.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<Self, TournamentBenchError> {
        use std::os::unix::fs::DirBuilderExt;
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let parent = std::env::temp_dir();
        let mut builder = std::fs::DirBuilder::new();
        builder.mode(0o700);
        loop {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = parent.join(format!("referee-bench-{}-{n}-{nanos}", std::process::id()));
            match builder.create(&dir) {
                Ok(()) => return Ok(TempDir(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(source) => {
                    return Err(TournamentBenchError::TempDir {
                        dir: parent,
                        source,
                    });
                }
            }
        }
    }

    fn out(&self) -> PathBuf {
        self.0.join("results")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::Spread;

    #[test]
    fn a_spread_is_the_median_and_the_extremes() {
        let s = Spread::of([3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        let s = s.per(2.0);
        assert_eq!((s.median, s.min, s.max), (1.0, 0.5, 1.5));
        assert_eq!(Spread::of([]).median, 0.0);
    }
}
