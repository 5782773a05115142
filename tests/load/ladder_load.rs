//! The ladder under load (issue 29): a field of built-in and process bots, `referee ladder
//! init` and `referee ladder serve -j J` on SQLite and on PostgreSQL until N ranked matches are
//! recorded, the API probed all the while, the database's and the artifact store's sizes after
//! the run, and `referee tournament` of the same bots, table sizes and concurrency for
//! comparison. Shared by the bench (`benches/ladder_load.rs`, the figures of
//! docs/performance.md) and its smoke test (`e2e/ladder/load_smoke.rs`), which include this
//! file with `#[path]`: the test runs this very code, small.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The ladder's and the tournaments' seed: every run plays the same deals.
const SEED: u64 = 29;

/// The game's limits and fault policy, in both the ladder's and the tournaments' files (the
/// values of `examples/ladder.toml`).
const LIMITS: &str =
    "time_limit_ms = 1000\nstartup_limit_ms = 10000\nfirst_decision_ms = 3000\nmax_faults = 3\n";

/// The smallest and the largest table.
const PLAYERS: (usize, usize) = (3, 5);

/// A kind of bot in the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The built-in `random`.
    BuiltinRandom,
    /// The built-in `heuristic`.
    BuiltinHeuristic,
    /// `sample-bots/python/vabanque_heuristic.py`.
    PythonHeuristic,
    /// `sample-bots/python/vabanque_random.py`.
    PythonRandom,
    /// `sample-bots/javascript/vabanque_random.js`.
    JavaScriptRandom,
    /// `sample-bots/go/vabanque_random.go`.
    GoRandom,
}

impl Kind {
    /// Every kind, in the field's order.
    pub const ALL: [Kind; 6] = [
        Kind::BuiltinRandom,
        Kind::BuiltinHeuristic,
        Kind::PythonHeuristic,
        Kind::PythonRandom,
        Kind::JavaScriptRandom,
        Kind::GoRandom,
    ];

    /// Its share of a field of 100.
    fn weight(self) -> usize {
        match self {
            Kind::BuiltinRandom | Kind::BuiltinHeuristic | Kind::PythonRandom => 15,
            Kind::PythonHeuristic => 20,
            Kind::JavaScriptRandom => 25,
            Kind::GoRandom => 10,
        }
    }

    /// Its bots' names: this, a dash and a number.
    pub fn prefix(self) -> &'static str {
        match self {
            Kind::BuiltinRandom => "builtin-random",
            Kind::BuiltinHeuristic => "builtin-heuristic",
            Kind::PythonHeuristic => "py-heuristic",
            Kind::PythonRandom => "py-random",
            Kind::JavaScriptRandom => "js-random",
            Kind::GoRandom => "go-random",
        }
    }

    /// Its `lang` in a ladder's file.
    fn lang(self) -> &'static str {
        match self {
            Kind::BuiltinRandom | Kind::BuiltinHeuristic => "builtin",
            Kind::PythonHeuristic | Kind::PythonRandom => "python",
            Kind::JavaScriptRandom => "javascript",
            Kind::GoRandom => "go",
        }
    }

    /// Its source under the workspace root, and the name each copy gets; `None` for a
    /// built-in.
    fn source(self) -> Option<(&'static str, &'static str)> {
        match self {
            Kind::BuiltinRandom | Kind::BuiltinHeuristic => None,
            Kind::PythonHeuristic => Some(("sample-bots/python/vabanque_heuristic.py", "bot.py")),
            Kind::PythonRandom => Some(("sample-bots/python/vabanque_random.py", "bot.py")),
            Kind::JavaScriptRandom => Some(("sample-bots/javascript/vabanque_random.js", "bot.js")),
            Kind::GoRandom => Some(("sample-bots/go/vabanque_random.go", "main.go")),
        }
    }

    /// Whether it runs as a process of its own (all but the built-ins).
    pub fn is_process(self) -> bool {
        self.source().is_some()
    }
}

/// One bot of the field.
#[derive(Clone, Debug)]
pub struct Bot {
    /// Its name, in the ladder and in the tournament.
    pub name: String,
    /// What it is.
    pub kind: Kind,
}

/// A field of `n` bots, the kinds in proportion to their weights (largest remainder), numbered
/// within each kind.
pub fn field(n: usize) -> Vec<Bot> {
    let total: usize = Kind::ALL.iter().map(|k| k.weight()).sum();
    let mut counts: Vec<usize> = Kind::ALL.iter().map(|k| k.weight() * n / total).collect();
    let mut by_remainder: Vec<usize> = (0..Kind::ALL.len()).collect();
    by_remainder.sort_by_key(|&i| std::cmp::Reverse(Kind::ALL[i].weight() * n % total));
    let missing = n - counts.iter().sum::<usize>();
    for &i in by_remainder.iter().take(missing) {
        counts[i] += 1;
    }
    let mut bots = Vec::with_capacity(n);
    for (kind, count) in Kind::ALL.into_iter().zip(counts) {
        for k in 1..=count {
            bots.push(Bot {
                name: format!("{}-{k:02}", kind.prefix()),
                kind,
            });
        }
    }
    bots
}

/// How big a run is.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Bots in the field.
    pub bots: usize,
    /// Ranked matches the ladder records before it is stopped (and about as many in the
    /// tournaments): its rate is measured from match `window_from` to this one, or over as
    /// many matches from the first answer after every version is built, if that is later.
    pub matches: u64,
    /// The match from which the ladder's rate is measured.
    pub window_from: u64,
    /// Local worker slots of the ladder, and `-j` of the tournaments.
    pub jobs: usize,
    /// How often each endpoint is probed.
    pub probe_every: Duration,
    /// Whether CPU must be counted exactly (a cgroup v1 `cpuacct` group per process under
    /// test, see `CpuGroup`); if not, where there is none, the counts are `wait4`'s, which
    /// miss most of the bots'.
    pub exact_cpu: bool,
    /// How long one ladder may take to record its matches.
    pub timeout: Duration,
    /// `referee match` runs per kind of bot, to measure what a process start costs.
    pub start_runs: usize,
    /// Longer tournaments at 4 players per match, each this many times a third of
    /// `matches` (see `run_longer`).
    pub longer: Vec<u64>,
}

/// A database a ladder runs on.
#[derive(Clone, Debug)]
pub enum Database {
    /// SQLite, in the ladder's home.
    Sqlite,
    /// A fresh PostgreSQL database made with this URL's role (one that may create databases,
    /// as `REFEREE_TEST_POSTGRES`'s) and dropped after the run.
    Postgres(String),
}

impl Database {
    /// Its name in the results.
    pub fn label(&self) -> &'static str {
        match self {
            Database::Sqlite => "sqlite",
            Database::Postgres(_) => "postgresql",
        }
    }
}

/// Where a run happens and how it starts the referee.
pub struct Env {
    /// The workspace root (for `sample-bots/`).
    pub root: PathBuf,
    /// A fresh directory for the run's files.
    pub dir: PathBuf,
    /// Makes a `referee` command (the binary under test, run from the root).
    pub referee: Box<dyn Fn() -> Command>,
}

/// Latencies of one endpoint, in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Latency {
    /// Every request's, in the order sent.
    pub samples: Vec<f64>,
    /// Requests that failed.
    pub errors: usize,
}

impl Latency {
    /// The `q`-quantile (nearest rank), 0 without samples.
    pub fn quantile(&self, q: f64) -> f64 {
        let mut sorted = self.samples.clone();
        sorted.sort_by(f64::total_cmp);
        if sorted.is_empty() {
            return 0.0;
        }
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    /// The figures as JSON (for `target/ladder-load.json`).
    fn to_json(&self) -> Value {
        json!({
            "requests": self.samples.len(),
            "errors": self.errors,
            "p50_ms": self.quantile(0.50),
            "p99_ms": self.quantile(0.99),
            "max_ms": self.quantile(1.0),
        })
    }
}

/// Matches read back from a results directory's `matches.jsonl` (a tournament's, or a
/// ladder's export).
#[derive(Clone, Debug, Default)]
pub struct Played {
    /// Matches.
    pub matches: u64,
    /// Matches by table size.
    pub sizes: BTreeMap<usize, u64>,
    /// Seats held by process bots (in the ladder, one process start each).
    pub process_seats: u64,
    /// Seats by the kind of bot that held them.
    pub seats_by_kind: BTreeMap<Kind, u64>,
    /// Distinct bots that held a seat (versions of one bot count once).
    pub bots: usize,
    /// Faults of every bot.
    pub faults: u64,
    /// Decisions of every bot.
    pub decisions: u64,
    /// The mean of the matches' own wall time (`duration_ms`: from the first request to the
    /// end, without starting the bots).
    pub mean_match_ms: f64,
}

impl Played {
    /// The figures as JSON (for `target/ladder-load.json`).
    fn to_json(&self) -> Value {
        json!({
            "matches": self.matches,
            "table_sizes": self.sizes.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "process_seats": self.process_seats,
            "seats_by_kind": by_kind_json(&self.seats_by_kind),
            "bots": self.bots,
            "faults": self.faults,
            "decisions": self.decisions,
            "mean_match_ms": self.mean_match_ms,
        })
    }
}

/// One ladder's run.
#[derive(Clone, Debug)]
pub struct LadderRun {
    /// `sqlite` or `postgresql`.
    pub db: &'static str,
    /// From `serve`'s start until every version was built and checked, in seconds.
    pub builds_s: f64,
    /// Matches recorded when the window opened and when it closed.
    pub window_matches: (u64, u64),
    /// The window's length in seconds.
    pub window_s: f64,
    /// CPU seconds of the server (its own: API, matchmaker, workers, the referee's side of
    /// each match) and of everything it started and reaped (the bots, their sandbox) in the
    /// window.
    pub server_cpu: Cpu,
    /// CPU seconds of the PostgreSQL backends serving the ladder's database in the window
    /// (0 with SQLite, which works in the server's own threads).
    pub db_cpu_s: f64,
    /// CPU seconds of the whole machine in the window (every process, ours or not).
    pub machine_cpu_s: f64,
    /// The load average (1 minute) when the window opened and when it closed.
    pub load: (f64, f64),
    /// The info endpoint's latencies in the window.
    pub info: Latency,
    /// The public standings' latencies in the window.
    pub standings: Latency,
    /// The database's bytes after `init`, when the window opened, when it closed, and after
    /// the server stopped.
    pub db_bytes: [u64; 4],
    /// The artifact store's bytes at the same four points.
    pub artifact_bytes: [u64; 4],
    /// SQLite's files on disk (the database and its `-wal`) after the run; 0 for PostgreSQL.
    pub sqlite_files: u64,
    /// Each table's bytes after the run, with its indexes.
    pub tables: BTreeMap<String, u64>,
    /// The matches recorded by the end (the export of the whole ladder).
    pub played: Played,
    /// Lines of the server's stderr: its internal errors (`ladder: internal error`, `ladder:
    /// the matchmaker failed`), and results its workers could not report (`the server did
    /// not take the result`: the match is played again once its lease expires).
    pub server_errors: u64,
    /// Results the server refused (see `server_errors`).
    pub results_refused: u64,
    /// The server's stderr, every distinct line (job numbers masked) with its count.
    pub stderr_lines: BTreeMap<String, u64>,
}

impl LadderRun {
    /// Matches recorded per second in the window.
    pub fn rate(&self) -> f64 {
        (self.window_matches.1 - self.window_matches.0) as f64 / self.window_s
    }

    /// The database's growth in the window, per 10,000 matches, in bytes (the versions,
    /// builds and checks are all in before it opens).
    pub fn db_per_10k(&self) -> f64 {
        self.per_10k(&self.db_bytes)
    }

    /// The artifact store's growth in the window (matches' logs and stderr: the builds are
    /// all in before it opens), per 10,000 matches, in bytes.
    pub fn artifacts_per_10k(&self) -> f64 {
        self.per_10k(&self.artifact_bytes)
    }

    /// The growth of `bytes` (read at the four points) in the window, per 10,000 matches.
    fn per_10k(&self, bytes: &[u64; 4]) -> f64 {
        let matches = self.window_matches.1 - self.window_matches.0;
        bytes[2].saturating_sub(bytes[1]) as f64 / matches.max(1) as f64 * 10_000.0
    }

    /// CPU milliseconds per match in the window: the server's, its bots' and PostgreSQL's.
    pub fn cpu_ms_per_match(&self) -> f64 {
        1000.0 * (self.server_cpu.total() + self.db_cpu_s)
            / (self.window_matches.1 - self.window_matches.0) as f64
    }

    /// The server's own CPU milliseconds per match in the window (without its bots').
    pub fn own_cpu_ms_per_match(&self) -> f64 {
        1000.0 * self.server_cpu.own / (self.window_matches.1 - self.window_matches.0) as f64
    }

    /// The figures as JSON (for `target/ladder-load.json`).
    fn to_json(&self) -> Value {
        json!({
            "db": self.db,
            "builds_s": self.builds_s,
            "window": {
                "from_matches": self.window_matches.0,
                "to_matches": self.window_matches.1,
                "seconds": self.window_s,
                "matches_per_s": self.rate(),
                "server_cpu_s": self.server_cpu.total(),
                "server_own_cpu_s": self.server_cpu.own,
                "server_own_cpu_ms_per_match": self.own_cpu_ms_per_match(),
                "postgres_cpu_s": self.db_cpu_s,
                "server_cpu_ms_per_match": self.cpu_ms_per_match(),
                "machine_cpu_s": self.machine_cpu_s,
                "load_1min": [self.load.0, self.load.1],
            },
            "api": { "info": self.info.to_json(), "standings": self.standings.to_json() },
            "db_bytes": {
                "after_init": self.db_bytes[0],
                "window_open": self.db_bytes[1],
                "window_close": self.db_bytes[2],
                "after_run": self.db_bytes[3],
                "per_10k_matches": self.db_per_10k(),
                "sqlite_files_after_run": self.sqlite_files,
                "tables_after_run": self.tables,
            },
            "artifact_bytes": {
                "after_init": self.artifact_bytes[0],
                "window_open": self.artifact_bytes[1],
                "window_close": self.artifact_bytes[2],
                "after_run": self.artifact_bytes[3],
                "per_10k_matches": self.artifacts_per_10k(),
            },
            "played": self.played.to_json(),
            "server_errors": self.server_errors,
            "results_refused": self.results_refused,
            "server_stderr": self.stderr_lines,
        })
    }
}

/// Every distinct line of a server's stderr, job numbers masked (`job N`), with its count.
fn stderr_lines(path: &Path) -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut lines = BTreeMap::new();
    for line in text.lines() {
        let masked = match line.split_once("job ") {
            Some((head, rest)) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
                let tail = rest.trim_start_matches(|c: char| c.is_ascii_digit());
                format!("{head}job N{tail}")
            }
            _ => line.to_owned(),
        };
        *lines.entry(masked).or_insert(0) += 1;
    }
    lines
}

/// One tournament of one table size.
#[derive(Clone, Debug)]
pub struct TournamentPart {
    /// Players per match.
    pub players: usize,
    /// Wall seconds of the whole `referee tournament`.
    pub wall_s: f64,
    /// CPU seconds of it and of everything it started.
    pub cpu: Cpu,
    /// Bot processes it started (its `stderr/` files).
    pub process_starts: u64,
    /// Those by kind of bot.
    pub starts_by_kind: BTreeMap<Kind, u64>,
    /// What it played.
    pub played: Played,
}

impl TournamentPart {
    /// Matches per second.
    pub fn rate(&self) -> f64 {
        self.played.matches as f64 / self.wall_s
    }

    /// The figures as JSON (for `target/ladder-load.json`).
    fn to_json(&self) -> Value {
        json!({
            "players": self.players,
            "wall_s": self.wall_s,
            "matches_per_s": self.rate(),
            "cpu_s": self.cpu.total(),
            "own_cpu_s": self.cpu.own,
            "process_starts": self.process_starts,
            "starts_by_kind": by_kind_json(&self.starts_by_kind),
            "played": self.played.to_json(),
        })
    }
}

/// The tournaments of the field, one per table size, as many matches of each size as the
/// ladder played.
#[derive(Clone, Debug)]
pub struct TournamentRun {
    /// One per table size.
    pub parts: Vec<TournamentPart>,
    /// The load average (1 minute) before and after.
    pub load: (f64, f64),
}

impl TournamentRun {
    /// Matches played.
    pub fn matches(&self) -> u64 {
        self.parts.iter().map(|p| p.played.matches).sum()
    }

    /// Wall seconds, all sizes together.
    pub fn wall_s(&self) -> f64 {
        self.parts.iter().map(|p| p.wall_s).sum()
    }

    /// Matches per second, all sizes together.
    pub fn rate(&self) -> f64 {
        self.matches() as f64 / self.wall_s()
    }

    /// CPU milliseconds per match.
    pub fn cpu_ms_per_match(&self) -> f64 {
        1000.0 * self.parts.iter().map(|p| p.cpu.total()).sum::<f64>() / self.matches() as f64
    }

    /// The tournament process's own CPU milliseconds per match (without its bots').
    pub fn own_cpu_ms_per_match(&self) -> f64 {
        1000.0 * self.parts.iter().map(|p| p.cpu.own).sum::<f64>() / self.matches() as f64
    }

    /// Bot processes started.
    pub fn process_starts(&self) -> u64 {
        self.parts.iter().map(|p| p.process_starts).sum()
    }

    /// Faults.
    pub fn faults(&self) -> u64 {
        self.parts.iter().map(|p| p.played.faults).sum()
    }

    /// The figures as JSON (for `target/ladder-load.json`).
    fn to_json(&self) -> Value {
        json!({
            "matches": self.matches(),
            "wall_s": self.wall_s(),
            "matches_per_s": self.rate(),
            "cpu_ms_per_match": self.cpu_ms_per_match(),
            "own_cpu_ms_per_match": self.own_cpu_ms_per_match(),
            "process_starts": self.process_starts(),
            "faults": self.faults(),
            "load_1min": [self.load.0, self.load.1],
            "parts": self.parts.iter().map(TournamentPart::to_json).collect::<Vec<_>>(),
        })
    }
}

/// What one sandboxed bot process start costs: `referee match` of three bots of a kind
/// against three built-ins, the difference divided by three.
#[derive(Clone, Debug)]
pub struct StartCost {
    /// The bots' kind.
    pub kind: Kind,
    /// Median CPU milliseconds of a whole `referee match` of three of them.
    pub match_cpu_ms: f64,
    /// Median wall milliseconds of it.
    pub match_wall_ms: f64,
    /// CPU milliseconds per start: the match's minus that of three built-ins, over three.
    pub cpu_ms_per_start: f64,
}

/// Everything a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// The plan it followed.
    pub plan: Plan,
    /// The field's bots by kind.
    pub field: BTreeMap<Kind, usize>,
    /// One per database.
    pub ladders: Vec<LadderRun>,
    /// The tournaments.
    pub tournament: TournamentRun,
    /// The start costs (the built-ins' first, their `cpu_ms_per_start` 0).
    pub starts: Vec<StartCost>,
    /// The longer tournaments.
    pub longer: Vec<TournamentPart>,
    /// The machine's cores.
    pub cores: usize,
    /// The load average when the run began.
    pub load_before: f64,
    /// Whether CPU was counted by `cpuacct` groups (else by `wait4`, a lower bound).
    pub cpu_by_cgroup: bool,
}

/// Runs the whole benchmark: the ladder on each of `dbs` (the first's table sizes then give
/// the tournaments'), the tournaments after the first ladder, and the start costs.
pub fn run(env: &Env, plan: &Plan, dbs: &[Database]) -> Report {
    assert!(!dbs.is_empty(), "a ladder needs a database");
    let load_before = load_average();
    let cpu_by_cgroup = CpuGroup::create("probe").is_some();
    let bots = field(plan.bots);
    let sources = write_sources(env, &bots);
    let mut ladders = Vec::new();
    let mut tournament = None;
    for db in dbs {
        ladders.push(run_ladder(env, plan, &bots, &sources, db));
        if tournament.is_none() {
            tournament = Some(run_tournaments(
                env,
                plan,
                &bots,
                &sources,
                &ladders[0].played.sizes,
            ));
        }
    }
    let longer = run_longer(env, plan, &bots, &sources);
    let starts = start_costs(env, plan, &sources);
    let mut by_kind = BTreeMap::new();
    for bot in &bots {
        *by_kind.entry(bot.kind).or_insert(0) += 1;
    }
    Report {
        plan: plan.clone(),
        field: by_kind,
        ladders,
        tournament: tournament.expect("at least one database"),
        starts,
        longer,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        load_before,
        cpu_by_cgroup,
    }
}

/// Each bot's own files: for a process bot, a copy of its sample's source in a directory of
/// its own (the ladder's upload) and the command that runs it (the tournament's).
struct Sources {
    /// The ladder's `path` of each bot (a file; a built-in's name).
    paths: BTreeMap<String, String>,
    /// The tournament's `command` of each bot (a command line: the paths have no spaces).
    commands: BTreeMap<String, String>,
    /// One bot of each kind's command (for the start costs).
    by_kind: BTreeMap<Kind, String>,
}

/// Writes each process bot's copy of its sample (and builds the Go binary once).
fn write_sources(env: &Env, bots: &[Bot]) -> Sources {
    let dir = env.dir.join("bots");
    let mut go_binary: Option<PathBuf> = None;
    let mut sources = Sources {
        paths: BTreeMap::new(),
        commands: BTreeMap::new(),
        by_kind: BTreeMap::new(),
    };
    for bot in bots {
        let (path, command) = match bot.kind.source() {
            None => {
                let name = match bot.kind {
                    Kind::BuiltinRandom => "random",
                    _ => "heuristic",
                };
                (name.to_owned(), format!("builtin:{name}"))
            }
            Some((sample, file)) => {
                let own = dir.join(&bot.name);
                std::fs::create_dir_all(&own).unwrap();
                let copy = own.join(file);
                std::fs::copy(env.root.join(sample), &copy).unwrap();
                let copy_text = copy.display().to_string();
                let command = match bot.kind {
                    Kind::JavaScriptRandom => format!("node {copy_text}"),
                    Kind::GoRandom => {
                        // The tournament runs the binary the ladder's recipe builds (`go build
                        // -o bot .`); the copies have the same source, so it is built once.
                        let built = go_binary.get_or_insert_with(|| go_build(&copy, &dir));
                        let binary = own.join("bot");
                        std::fs::copy(&*built, &binary).unwrap();
                        binary.display().to_string()
                    }
                    _ => format!("python3 {copy_text}"),
                };
                (copy_text, command)
            }
        };
        sources
            .by_kind
            .entry(bot.kind)
            .or_insert_with(|| command.clone());
        sources.paths.insert(bot.name.clone(), path);
        sources.commands.insert(bot.name.clone(), command);
    }
    sources
}

/// `go build` of one file, as the ladder's recipe builds it (the local toolchain, no module).
fn go_build(file: &Path, dir: &Path) -> PathBuf {
    let out = dir.join("go-random.bin");
    let built = Command::new("go")
        .arg("build")
        .arg("-o")
        .arg(&out)
        .arg(file)
        .env("GOTOOLCHAIN", "local")
        .env("GO111MODULE", "off")
        .output()
        .expect("go runs");
    assert!(
        built.status.success(),
        "go build: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    out
}

/// A PostgreSQL database made for one ladder, dropped with this.
struct PgDatabase {
    admin: String,
    name: String,
    url: String,
}

impl PgDatabase {
    /// Makes the database `ladder_load_LABEL_PID` with `admin`'s role (dropping one left by a
    /// run of the same process id first).
    fn create(admin: &str, label: &str) -> PgDatabase {
        let name = format!("ladder_load_{label}_{}", std::process::id());
        let _ = psql(
            admin,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        );
        psql(admin, &format!("CREATE DATABASE {name}"));
        let base = admin.rsplit_once('/').map_or(admin, |(base, _)| base);
        PgDatabase {
            admin: admin.to_owned(),
            url: format!("{base}/{name}"),
            name,
        }
    }

    /// The CPU seconds so far of each backend serving this database (but the caller's).
    fn backends(&self) -> BTreeMap<u32, f64> {
        psql(
            &self.url,
            "SELECT pid FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .map(|pid| (pid, process_cpu(pid).total()))
        .collect()
    }

    /// Its `pg_database_size`.
    fn size(&self) -> u64 {
        psql(&self.url, "SELECT pg_database_size(current_database())")
            .trim()
            .parse()
            .expect("pg_database_size is a number")
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        let _ = Command::new("psql")
            .args([
                &self.admin,
                "-qc",
                &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
            ])
            .output();
    }
}

/// Runs `sql` with Debian's `psql` on `url`; its output, unaligned and without headers.
fn psql(url: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .args([url, "-qAtc", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A process this run started, stopped with SIGTERM (then SIGKILL after `grace`) if it is
/// still running when this is dropped, so that a failed run leaves nothing behind.
struct Guard {
    child: Child,
    reaped: bool,
    grace: Duration,
    /// The process's own CPU seconds when last seen running.
    own_cpu_s: f64,
}

impl Guard {
    /// Guards `child`, giving it `grace` to end after SIGTERM.
    fn new(child: Child, grace: Duration) -> Guard {
        Guard {
            child,
            reaped: false,
            grace,
            own_cpu_s: 0.0,
        }
    }

    /// Waits at most `within` for the process to end, reaping it; its status and the CPU
    /// seconds it and the descendants it reaped used, or `None` if it still runs. Its own
    /// CPU seconds, read every 5 ms while it runs, are kept in `own_cpu_s`.
    fn wait(&mut self, within: Duration) -> Option<(ExitStatus, f64)> {
        use std::os::unix::process::ExitStatusExt;
        assert!(!self.reaped, "the process was reaped already");
        let deadline = Instant::now() + within;
        loop {
            let mut status = 0;
            // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: wait4 on our own child's pid, with valid pointers.
            let pid = unsafe {
                libc::wait4(
                    self.child.id() as i32,
                    &mut status,
                    libc::WNOHANG,
                    &mut usage,
                )
            };
            if pid > 0 {
                self.reaped = true;
                let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
                return Some((
                    ExitStatus::from_raw(status),
                    seconds(usage.ru_utime) + seconds(usage.ru_stime),
                ));
            }
            assert!(pid == 0, "wait4: {}", std::io::Error::last_os_error());
            let seen = process_cpu(self.child.id()).own;
            self.own_cpu_s = self.own_cpu_s.max(seen);
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends it SIGTERM and waits for it: its status and CPU seconds (see [`Guard::wait`]).
    fn stop(&mut self) -> (ExitStatus, f64) {
        signal(&self.child, libc::SIGTERM);
        match self.wait(self.grace) {
            Some(done) => done,
            None => {
                let _ = self.child.kill();
                self.wait(Duration::from_secs(10))
                    .expect("a killed process ends")
            }
        }
    }

    /// The process's id.
    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.reaped {
            signal(&self.child, libc::SIGTERM);
            if self.wait(self.grace).is_none() {
                let _ = self.child.kill();
                let _ = self.wait(Duration::from_secs(10));
            }
        }
    }
}

/// Sends `signal` to `child`, which must not have been reaped.
fn signal(child: &Child, signal: i32) {
    // SAFETY: kill with the pid of a child not reaped yet and a signal number.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
}

/// Runs `command` to its end (at most `within`) in a [`CpuGroup`] of its own where it can:
/// its status, wall seconds and CPU seconds (its own as last seen running, within 5 ms of its
/// end; the rest its children's), and whether the CPU was counted by a group.
fn run_timed(mut command: Command, within: Duration, tag: &str) -> (ExitStatus, f64, Cpu, bool) {
    let group = CpuGroup::create(tag);
    if let Some(group) = &group {
        group.enter(&mut command);
    }
    let started = Instant::now();
    let mut guard = Guard::new(command.spawn().unwrap(), Duration::from_secs(10));
    let (status, reaped) = guard
        .wait(within)
        .unwrap_or_else(|| panic!("{command:?} did not end within {within:?}"));
    let wall = started.elapsed().as_secs_f64();
    let total = group.as_ref().map_or(reaped, CpuGroup::usage_s);
    let own = guard.own_cpu_s.min(total);
    let cpu = Cpu {
        own,
        children: total - own,
    };
    (status, wall, cpu, group.is_some())
}

/// A `referee` command of `env`, whose `PATH` (which its bots inherit) looks in `/usr/bin` and
/// `/bin` first: the system's interpreters, as a server would have them, rather than a
/// version manager's shim (pyenv's `python3` is a shell script that starts the interpreter,
/// and costs a Python start about twice its own CPU).
fn referee(env: &Env) -> Command {
    let mut command = (env.referee)();
    let inherited = std::env::var("PATH").unwrap_or_default();
    command.env("PATH", format!("/usr/bin:/bin:{inherited}"));
    command
}

/// The ladder's file of `bots`.
fn ladder_toml(dir: &Path, bots: &[Bot], sources: &Sources) -> PathBuf {
    let mut text = format!(
        "game = \"vabanque\"\nplayers = [{}, {}]\nseed = {SEED}\n{LIMITS}\n[matchmaking]\nqueue = 8\n\n",
        PLAYERS.0, PLAYERS.1
    );
    for bot in bots {
        text += &format!(
            "[[bot]]\nname = {:?}\nlang = {:?}\npath = {:?}\n\n",
            bot.name,
            bot.kind.lang(),
            sources.paths[&bot.name]
        );
    }
    let path = dir.join("ladder.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// A tournament's file of `bots` at `players` per match, `matches` matches, into `out`.
fn tournament_toml(
    dir: &Path,
    bots: &[Bot],
    sources: &Sources,
    players: usize,
    matches: u64,
    jobs: usize,
    out: &Path,
) -> PathBuf {
    let mut text = format!(
        "game = \"vabanque\"\nplayers = {players}\nmatches = {matches}\nseed = {SEED}\njobs = {jobs}\nout = {:?}\nschedule = \"sampled\"\n{LIMITS}\n",
        out.display().to_string()
    );
    for bot in bots {
        text += &format!(
            "[[bot]]\nname = {:?}\ncommand = {:?}\n\n",
            bot.name, sources.commands[&bot.name]
        );
    }
    let path = dir.join(format!("tournament-{players}x{matches}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The bytes of every file under `path` (a file: its own).
fn bytes_under(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if meta.is_dir() {
        std::fs::read_dir(path)
            .unwrap()
            .map(|e| bytes_under(&e.unwrap().path()))
            .sum()
    } else {
        meta.len()
    }
}

/// The database's bytes: SQLite's pages (`page_count` × `page_size`, read through the WAL:
/// what the file holds once checkpointed; the `-wal` file itself stays at its largest size
/// whatever it holds), or PostgreSQL's `pg_database_size`.
fn db_bytes(home: &Path, pg: Option<&PgDatabase>) -> u64 {
    match pg {
        Some(pg) => pg.size(),
        None => sqlite(
            &home.join("ladder.sqlite"),
            "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
        )
        .trim()
        .parse()
        .expect("a number of bytes"),
    }
}

/// SQLite's files on disk: the database and its `-wal`.
fn sqlite_files(home: &Path) -> u64 {
    bytes_under(&home.join("ladder.sqlite")) + bytes_under(&home.join("ladder.sqlite-wal"))
}

/// The bytes of each table of the database, with its indexes (and PostgreSQL's TOAST).
fn table_bytes(home: &Path, pg: Option<&PgDatabase>) -> BTreeMap<String, u64> {
    let text = match pg {
        Some(pg) => psql(
            &pg.url,
            "SELECT c.relname || '|' || pg_total_relation_size(c.oid) FROM pg_class c \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = current_schema() AND c.relkind = 'r'",
        ),
        None => sqlite(
            &home.join("ladder.sqlite"),
            "SELECT s.tbl_name || '|' || SUM(d.pgsize) FROM dbstat d \
             JOIN sqlite_schema s ON s.name = d.name GROUP BY s.tbl_name",
        ),
    };
    text.lines()
        .filter_map(|line| {
            let (name, bytes) = line.split_once('|')?;
            Some((name.to_owned(), bytes.trim().parse().ok()?))
        })
        .collect()
}

/// Runs `sql` on the SQLite database `file` with the `sqlite3` shell, read-only.
fn sqlite(file: &Path, sql: &str) -> String {
    let out = Command::new("sqlite3")
        .arg("-readonly")
        .arg(file)
        .arg(sql)
        .output()
        .expect("sqlite3 runs");
    assert!(
        out.status.success(),
        "sqlite3 {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The 1-minute load average.
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN)
}

/// Clock ticks per second of `/proc`'s times.
fn ticks() -> f64 {
    // SAFETY: sysconf with a valid name.
    (unsafe { libc::sysconf(libc::_SC_CLK_TCK) }) as f64
}

/// CPU seconds of a process: its own (all its threads) and its children's (those it reaped,
/// with the children they reaped: here, the bot processes and their sandbox).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cpu {
    /// The process's own.
    pub own: f64,
    /// Its reaped children's.
    pub children: f64,
}

impl Cpu {
    /// Both.
    pub fn total(self) -> f64 {
        self.own + self.children
    }

    /// What was spent since `before`.
    fn minus(self, before: Cpu) -> Cpu {
        Cpu {
            own: self.own - before.own,
            children: self.children - before.children,
        }
    }
}

/// A cgroup v1 `cpuacct` group of its own, made for one process and everything it starts, so
/// that their CPU is counted whoever reaps them. `wait4`'s counts miss most of a bot's: a
/// sandboxed bot runs in bubblewrap's PID namespace, and what is still in it when the
/// sandbox is torn down is reaped by no one of ours. The referee makes its bots' groups under
/// its own (`referee/src/seat/cgroup/hierarchy.rs`), so they are counted here too: a group's
/// `cpuacct.usage` includes its descendants', also once they are removed. Removed when
/// dropped (once empty).
struct CpuGroup {
    dir: PathBuf,
    procs: std::fs::File,
}

impl CpuGroup {
    /// A new group beside this process's own in the `cpuacct` hierarchy; `None` where there
    /// is no such hierarchy (cgroup v2 only) or it cannot be written.
    fn create(tag: &str) -> Option<CpuGroup> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        let (root, mount) = mountinfo.lines().find_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let fields: Vec<&str> = left.split(' ').collect();
            let mut right = right.split(' ');
            let is_cpuacct =
                right.next()? == "cgroup" && right.nth(1)?.split(',').any(|o| o == "cpuacct");
            is_cpuacct.then(|| Some((fields.get(3)?.to_string(), fields.get(4)?.to_string())))?
        })?;
        let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let own = groups.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers
                .split(',')
                .any(|c| c == "cpuacct")
                .then(|| path.to_owned())
        })?;
        let relative = own.strip_prefix(root.as_str()).unwrap_or(&own);
        let dir = Path::new(&mount)
            .join(relative.trim_start_matches('/'))
            .join(format!("ladder-load-{}-{n}-{tag}", std::process::id()));
        std::fs::create_dir(&dir).ok()?;
        match std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join("cgroup.procs"))
        {
            Ok(procs) => Some(CpuGroup { dir, procs }),
            Err(_) => {
                let _ = std::fs::remove_dir(&dir);
                None
            }
        }
    }

    /// Makes `command`'s process enter the group before it runs anything.
    fn enter(&self, command: &mut Command) {
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        let fd = self.procs.as_raw_fd();
        // SAFETY: between fork and exec the closure makes one system call, write(2) of a
        // constant to a descriptor open in the parent ("0": the writing process).
        unsafe {
            command.pre_exec(move || {
                if libc::write(fd, b"0".as_ptr().cast(), 1) == 1 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }

    /// The CPU seconds of every process that has been in it or below it.
    fn usage_s(&self) -> f64 {
        std::fs::read_to_string(self.dir.join("cpuacct.usage"))
            .ok()
            .and_then(|t| t.trim().parse::<f64>().ok())
            .map_or(0.0, |ns| ns / 1e9)
    }
}

impl Drop for CpuGroup {
    fn drop(&mut self) {
        // Its processes are gone, but groups the referee made below it may be left (`referee
        // ladder serve` leaves its own, empty): a group is removed with rmdir, which refuses
        // one with a process in it.
        /// Removes `dir` and the groups below it, deepest first; whether `dir` is gone.
        fn remove_empty(dir: &Path) -> bool {
            if let Ok(entries) = std::fs::read_dir(dir) {
                for entry in entries.flatten() {
                    if entry.file_type().is_ok_and(|t| t.is_dir()) {
                        remove_empty(&entry.path());
                    }
                }
            }
            std::fs::remove_dir(dir).is_ok() || !dir.exists()
        }
        for _ in 0..100 {
            if remove_empty(&self.dir) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        eprintln!("ladder load: {} could not be removed", self.dir.display());
    }
}

/// How a process's CPU, and that of everything it starts, is counted: its own from `/proc`,
/// the rest from its [`CpuGroup`] where there is one, else from the children it reaped (a
/// lower bound).
struct Meter<'a> {
    pid: u32,
    group: Option<&'a CpuGroup>,
}

impl Meter<'_> {
    /// The CPU seconds so far.
    fn read(&self) -> Cpu {
        let seen = process_cpu(self.pid);
        match self.group {
            Some(group) => Cpu {
                own: seen.own,
                children: (group.usage_s() - seen.own).max(0.0),
            },
            None => seen,
        }
    }
}

/// The CPU seconds of process `pid` so far (0 once it is gone), its children's those it reaped.
fn process_cpu(pid: u32) -> Cpu {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = text.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<f64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    // utime, stime, cutime, cstime: the stat's fields 14 to 17 (state is 3).
    let field = |i: usize| fields.get(i).copied().unwrap_or(0.0) / ticks();
    Cpu {
        own: field(11) + field(12),
        children: field(13) + field(14),
    }
}

/// CPU seconds the whole machine has spent busy (all but idle and iowait) since it booted.
fn machine_cpu_s() -> f64 {
    let text = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let line = text.lines().next().unwrap_or_default();
    let fields: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    let total: f64 = fields.iter().take(8).sum();
    let idle = fields.get(3).copied().unwrap_or(0.0) + fields.get(4).copied().unwrap_or(0.0);
    (total - idle) / ticks()
}

/// Counts by kind of bot as a JSON object.
fn by_kind_json(counts: &BTreeMap<Kind, u64>) -> Value {
    counts
        .iter()
        .map(|(k, n)| (k.prefix().to_owned(), json!(n)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The kind of the bot a player name (a bot's name, or a ladder's `BOT.vN`) or a stderr file
/// name (`NAME.wW.K.stderr`) is of.
fn kind_of(bots: &[Bot], name: &str) -> Option<Kind> {
    let bot = name.split_once(".v").map_or(name, |(bot, _)| bot);
    let bot = bot.split_once(".w").map_or(bot, |(bot, _)| bot);
    bots.iter().find(|b| b.name == bot).map(|b| b.kind)
}

/// What a results directory's `matches.jsonl` (a tournament's, or a ladder's export) of
/// `bots` holds.
fn played(dir: &Path, bots: &[Bot]) -> Played {
    let text = std::fs::read_to_string(dir.join("matches.jsonl"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join("matches.jsonl").display()));
    let mut played = Played::default();
    let mut total_ms = 0.0;
    let mut seen = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).unwrap();
        let players = record["players"].as_array().expect("players");
        played.matches += 1;
        *played.sizes.entry(players.len()).or_insert(0) += 1;
        for player in players {
            let name = player.as_str().unwrap_or_default();
            let kind = kind_of(bots, name).expect("a bot of the field");
            seen.insert(
                name.split_once(".v")
                    .map_or(name, |(bot, _)| bot)
                    .to_owned(),
            );
            *played.seats_by_kind.entry(kind).or_insert(0) += 1;
            played.process_seats += u64::from(kind.is_process());
        }
        played.faults += record["faults"].as_array().map_or(0, Vec::len) as u64;
        played.decisions += record["stats"].as_array().map_or(0, |s| {
            s.iter().map(|s| s["decisions"].as_u64().unwrap_or(0)).sum()
        });
        total_ms += record["duration_ms"].as_f64().unwrap_or(0.0);
    }
    if played.matches > 0 {
        played.mean_match_ms = total_ms / played.matches as f64;
    }
    played.bots = seen.len();
    played
}

/// A ladder of `bots` on `db`: `init`, then `serve -j J` until `plan.matches` are recorded,
/// the API probed all the while; stopped, measured and exported.
fn run_ladder(env: &Env, plan: &Plan, bots: &[Bot], sources: &Sources, db: &Database) -> LadderRun {
    let dir = env.dir.join(format!("ladder-{}", db.label()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = ladder_toml(&dir, bots, sources);
    let home = dir.join("home");
    let pg = match db {
        Database::Sqlite => None,
        Database::Postgres(admin) => Some(PgDatabase::create(admin, db.label())),
    };
    let mut init = referee(env);
    init.args(["ladder", "init"])
        .arg(&file)
        .arg("--home")
        .arg(&home);
    if let Some(pg) = &pg {
        init.args(["--db", &pg.url]);
    }
    let made = init.output().unwrap();
    assert!(
        made.status.success(),
        "referee ladder init: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let sizes = || Stores {
        db_bytes: db_bytes(&home, pg.as_ref()),
        artifact_bytes: bytes_under(&home.join("artifacts")),
        backends: pg.as_ref().map(PgDatabase::backends).unwrap_or_default(),
    };
    let after_init = sizes();

    let stderr = dir.join("serve.stderr");
    let mut serve = referee(env);
    serve
        .args(["ladder", "serve"])
        .arg(&home)
        .args(["--listen", "127.0.0.1:0", "-j", &plan.jobs.to_string()])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr).unwrap());
    let group = CpuGroup::create(db.label());
    assert!(
        group.is_some() || !plan.exact_cpu,
        "no cpuacct group for the server"
    );
    if let Some(group) = &group {
        group.enter(&mut serve);
    }
    let started = Instant::now();
    let mut child = serve.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut server = Guard::new(child, Duration::from_secs(60));
    let (tell, told) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("ladder: serving on ") {
                let _ = tell.send(
                    rest.split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                );
            }
        }
    });
    let url = told
        .recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| {
            panic!(
                "the server says where it listens (see {})",
                stderr.display()
            )
        });

    let meter = Meter {
        pid: server.pid(),
        group: group.as_ref(),
    };
    let window = probe(
        &url,
        plan,
        bots.len(),
        Running {
            server: &mut server,
            meter: &meter,
            stderr: &stderr,
            started,
        },
        &sizes,
    );

    let (status, _) = server.stop();
    assert!(
        status.success(),
        "the server ended with {status} (see {})",
        stderr.display()
    );
    let after_run = sizes();
    let tables = table_bytes(&home, pg.as_ref());
    let sqlite_files = if pg.is_none() { sqlite_files(&home) } else { 0 };
    let export = dir.join("export");
    let exported = referee(env)
        .args(["ladder", "export", "--ladder"])
        .arg(&home)
        .arg(&export)
        .output()
        .unwrap();
    assert!(
        exported.status.success(),
        "referee ladder export: {}",
        String::from_utf8_lossy(&exported.stderr)
    );
    let played = played(&export, bots);
    let lines = stderr_lines(&stderr);
    let count = |what: &[&str]| {
        lines
            .iter()
            .filter(|(line, _)| what.iter().any(|w| line.contains(w)))
            .map(|(_, n)| n)
            .sum::<u64>()
    };
    let server_errors = count(&["ladder: internal error", "ladder: the matchmaker failed"]);
    let results_refused = count(&["did not take the result"]);
    drop(pg);
    LadderRun {
        db: db.label(),
        builds_s: window.builds_s,
        window_matches: window.matches,
        window_s: window.seconds,
        server_cpu: window.server_cpu,
        machine_cpu_s: window.machine_cpu_s,
        load: window.load,
        info: window.info,
        standings: window.standings,
        db_bytes: [
            after_init.db_bytes,
            window.sizes.0.db_bytes,
            window.sizes.1.db_bytes,
            after_run.db_bytes,
        ],
        db_cpu_s: window.sizes.1.backend_cpu_since(&window.sizes.0),
        artifact_bytes: [
            after_init.artifact_bytes,
            window.sizes.0.artifact_bytes,
            window.sizes.1.artifact_bytes,
            after_run.artifact_bytes,
        ],
        sqlite_files,
        tables,
        played,
        server_errors,
        results_refused,
        stderr_lines: lines,
    }
}

/// What the probe saw of a ladder's run.
struct Window {
    builds_s: f64,
    matches: (u64, u64),
    seconds: f64,
    server_cpu: Cpu,
    machine_cpu_s: f64,
    load: (f64, f64),
    info: Latency,
    standings: Latency,
    /// The database and the artifact store when it opened and when it closed.
    sizes: (Stores, Stores),
}

/// The database and the artifact store at one moment.
#[derive(Clone, Debug, Default)]
struct Stores {
    db_bytes: u64,
    artifact_bytes: u64,
    /// The CPU seconds of each PostgreSQL backend serving the ladder's database, by pid.
    backends: BTreeMap<u32, f64>,
}

impl Stores {
    /// The CPU seconds the PostgreSQL backends seen in `self` spent since `before`.
    fn backend_cpu_since(&self, before: &Stores) -> f64 {
        self.backends
            .iter()
            .map(|(pid, cpu)| cpu - before.backends.get(pid).copied().unwrap_or(0.0))
            .sum()
    }
}

/// A ladder's server as the probe watches it.
struct Running<'a> {
    server: &'a mut Guard,
    meter: &'a Meter<'a>,
    /// Where its stderr goes (named when it fails).
    stderr: &'a Path,
    /// When it was started.
    started: Instant,
}

/// A reading taken when the window opens or closes.
struct Mark {
    at: Instant,
    matches: u64,
    server_cpu: Cpu,
    machine_cpu_s: f64,
    load: f64,
    sizes: Stores,
}

/// Probes the ladder at `url` every `plan.probe_every` (the info endpoint, then the public
/// standings); the window opens at the first answer that shows every version built and at
/// least `plan.window_from` matches, and closes once `plan.matches - plan.window_from` more
/// are recorded. Latencies are kept from the window only.
fn probe(
    url: &str,
    plan: &Plan,
    bots: usize,
    running: Running<'_>,
    sizes: &dyn Fn() -> Stores,
) -> Window {
    let Running {
        server,
        meter,
        stderr,
        started,
    } = running;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = ladder::client::Client::new(url, None);
    let deadline = Instant::now() + plan.timeout;
    let mut builds_s = None;
    let mut open: Option<Mark> = None;
    let mut info = Latency::default();
    let mut standings = Latency::default();
    let mark = |at: Instant, matches: u64| Mark {
        at,
        matches,
        server_cpu: meter.read(),
        machine_cpu_s: machine_cpu_s(),
        load: load_average(),
        sizes: sizes(),
    };
    loop {
        let tick = Instant::now();
        let (answer, info_ms) = runtime.block_on(async {
            let sent = Instant::now();
            let answer = client.info().await;
            (answer, sent.elapsed().as_secs_f64() * 1000.0)
        });
        let answered = Instant::now();
        let (rows, standings_ms) = runtime.block_on(async {
            let sent = Instant::now();
            let rows = client.standings().await;
            (rows, sent.elapsed().as_secs_f64() * 1000.0)
        });
        let matches = answer.as_ref().ok().map(|i| i.matches.max(0) as u64);
        if open.is_some() {
            match matches {
                Some(_) => info.samples.push(info_ms),
                None => info.errors += 1,
            }
            match &rows {
                Ok(_) => standings.samples.push(standings_ms),
                Err(_) => standings.errors += 1,
            }
        }
        let built = rows.as_ref().is_ok_and(|r| r.len() == bots);
        if built && builds_s.is_none() {
            builds_s = Some(started.elapsed().as_secs_f64());
        }
        if let Some(matches) = matches {
            if let Some(first) = &open {
                if matches >= first.matches + plan.matches.saturating_sub(plan.window_from) {
                    let last = mark(answered, matches);
                    return Window {
                        builds_s: builds_s.unwrap_or(f64::NAN),
                        matches: (first.matches, last.matches),
                        seconds: (last.at - first.at).as_secs_f64(),
                        server_cpu: last.server_cpu.minus(first.server_cpu),
                        machine_cpu_s: last.machine_cpu_s - first.machine_cpu_s,
                        load: (first.load, last.load),
                        info,
                        standings,
                        sizes: (first.sizes.clone(), last.sizes),
                    };
                }
            } else if builds_s.is_some() && matches >= plan.window_from {
                open = Some(mark(answered, matches));
            }
        }
        if let Some((status, _)) = server.wait(Duration::ZERO) {
            panic!("the server ended with {status} (see {})", stderr.display());
        }
        assert!(
            Instant::now() < deadline,
            "the ladder recorded {matches:?} of {} matches within {:?} (see {})",
            plan.matches,
            plan.timeout,
            stderr.display()
        );
        std::thread::sleep((tick + plan.probe_every).saturating_duration_since(Instant::now()));
    }
}

/// The tournaments of `bots`: one per table size the ladder played, of as many matches (a
/// whole number of groups) as it played at that size.
fn run_tournaments(
    env: &Env,
    plan: &Plan,
    bots: &[Bot],
    sources: &Sources,
    sizes: &BTreeMap<usize, u64>,
) -> TournamentRun {
    let dir = env.dir.join("tournament");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let played_total: u64 = sizes.values().sum();
    let load_before = load_average();
    let mut parts = Vec::new();
    for (&players, &count) in sizes {
        // As many matches of this size as the ladder's share of it, of `plan.matches`.
        let share = plan.matches as f64 * count as f64 / played_total as f64;
        let matches = ((share / players as f64).round() as u64).max(1) * players as u64;
        parts.push(tournament(env, plan, bots, sources, &dir, players, matches));
    }
    TournamentRun {
        parts,
        load: (load_before, load_average()),
    }
}

/// Longer tournaments of the field at 4 players per match: `plan.longer` times as many
/// matches as a third of `plan.matches` each, to show how a tournament's rate grows as its
/// bot processes are reused.
fn run_longer(env: &Env, plan: &Plan, bots: &[Bot], sources: &Sources) -> Vec<TournamentPart> {
    let dir = env.dir.join("tournament-longer");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let base = (plan.matches / 3 / 4).max(1) * 4;
    plan.longer
        .iter()
        .map(|&factor| tournament(env, plan, bots, sources, &dir, 4, base * factor))
        .collect()
}

/// `referee tournament` of `bots` at `players` per match, `matches` matches, sampled, in
/// `dir`, timed, with the processes it started.
fn tournament(
    env: &Env,
    plan: &Plan,
    bots: &[Bot],
    sources: &Sources,
    dir: &Path,
    players: usize,
    matches: u64,
) -> TournamentPart {
    let tag = format!("{players}x{matches}");
    let out = dir.join(format!("out-{tag}"));
    let file = tournament_toml(dir, bots, sources, players, matches, plan.jobs, &out);
    let mut command = referee(env);
    command
        .arg("tournament")
        .arg(&file)
        .args(["--quiet", "--format", "json"])
        .stdout(std::fs::File::create(dir.join(format!("tournament-{tag}.out"))).unwrap())
        .stderr(std::fs::File::create(dir.join(format!("tournament-{tag}.err"))).unwrap());
    let (status, wall_s, cpu, exact) = run_timed(command, plan.timeout, &tag);
    assert!(
        exact || !plan.exact_cpu,
        "no cpuacct group for the tournament"
    );
    assert!(
        status.success(),
        "referee tournament {}: {status}",
        file.display()
    );
    let played = played(&out, bots);
    assert_eq!(played.matches, matches, "{}", out.display());
    // One stderr file per process started (`NAME.wW.K.stderr`).
    let mut starts_by_kind = BTreeMap::new();
    for entry in std::fs::read_dir(out.join("stderr")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = kind_of(bots, &name).unwrap_or_else(|| panic!("stderr/{name}"));
        *starts_by_kind.entry(kind).or_insert(0) += 1;
    }
    TournamentPart {
        players,
        wall_s,
        cpu,
        process_starts: starts_by_kind.values().sum(),
        starts_by_kind,
        played,
    }
}

/// What a sandboxed start of each process bot kind costs, from `referee match` of three of
/// them against the same of three built-ins, `plan.start_runs` times each (medians).
fn start_costs(env: &Env, plan: &Plan, sources: &Sources) -> Vec<StartCost> {
    let mut kinds: Vec<Kind> = vec![Kind::BuiltinRandom];
    kinds.extend(
        [Kind::PythonRandom, Kind::JavaScriptRandom, Kind::GoRandom]
            .into_iter()
            .filter(|k| sources.by_kind.contains_key(k)),
    );
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut costs: Vec<StartCost> = Vec::new();
    for kind in kinds {
        let command = match kind {
            Kind::BuiltinRandom => "builtin:random",
            _ => &sources.by_kind[&kind],
        };
        let mut cpu = Vec::new();
        let mut wall = Vec::new();
        for run in 0..plan.start_runs.max(1) {
            let mut match_cmd = referee(env);
            match_cmd.args([
                "match",
                "--game",
                "vabanque",
                "--seed",
                &(run as u64 + 1).to_string(),
            ]);
            for seat in ["a", "b", "c"] {
                match_cmd.arg("--bot").arg(format!("{seat}={command}"));
            }
            match_cmd.stdout(Stdio::null()).stderr(Stdio::null());
            let (status, wall_s, used, exact) =
                run_timed(match_cmd, Duration::from_secs(120), "match");
            assert!(
                exact || !plan.exact_cpu,
                "no cpuacct group for referee match"
            );
            assert!(status.success(), "referee match of {kind:?}: {status}");
            cpu.push(used.total() * 1000.0);
            wall.push(wall_s * 1000.0);
        }
        let match_cpu_ms = median(cpu);
        let base = costs.first().map_or(match_cpu_ms, |b| b.match_cpu_ms);
        costs.push(StartCost {
            kind,
            match_cpu_ms,
            match_wall_ms: median(wall),
            cpu_ms_per_start: (match_cpu_ms - base) / 3.0,
        });
    }
    costs
}

impl Report {
    /// The figures as a table for people.
    pub fn table(&self) -> String {
        let mib = |b: f64| b / (1024.0 * 1024.0);
        let t = &self.tournament;
        let mut out = String::new();
        let field: Vec<String> = self
            .field
            .iter()
            .map(|(k, n)| format!("{n} {}", k.prefix()))
            .collect();
        out += &format!(
            "ladder load: {} bots ({}), tables of {}-{}, -j {}, {} matches (window from {}), {} cores, load {:.2} at the start\n",
            self.plan.bots,
            field.join(", "),
            PLAYERS.0,
            PLAYERS.1,
            self.plan.jobs,
            self.plan.matches,
            self.plan.window_from,
            self.cores,
            self.load_before
        );
        if !self.cpu_by_cgroup {
            out += "CPU counted by wait4 (no cpuacct group could be made): bots' CPU is missing\n";
        }
        out += &format!(
            "{:<42}{}\n",
            "",
            self.ladders
                .iter()
                .map(|l| format!("{:>14}", l.db))
                .collect::<String>()
        );
        let row = |name: &str, f: &dyn Fn(&LadderRun) -> String| {
            format!(
                "{name:<42}{}\n",
                self.ladders
                    .iter()
                    .map(|l| format!("{:>14}", f(l)))
                    .collect::<String>()
            )
        };
        out += &row("builds done after (s)", &|l| format!("{:.1}", l.builds_s));
        out += &row("window (matches)", &|l| {
            format!("{}-{}", l.window_matches.0, l.window_matches.1)
        });
        out += &row("ladder matches/s", &|l| format!("{:.2}", l.rate()));
        out += &row("tournament matches/s", &|_| format!("{:.2}", t.rate()));
        out += &row("ladder / tournament", &|l| {
            format!("{:.0}%", 100.0 * l.rate() / t.rate())
        });
        out += &row("CPU ms/match, ladder: all (referee's)", &|l| {
            format!(
                "{:.0} ({:.0})",
                l.cpu_ms_per_match(),
                l.own_cpu_ms_per_match()
            )
        });
        out += &row("CPU ms/match, ladder: PostgreSQL's", &|l| match l.db {
            "sqlite" => "-".to_owned(),
            _ => format!(
                "{:.0}",
                1000.0 * l.db_cpu_s / (l.window_matches.1 - l.window_matches.0).max(1) as f64
            ),
        });
        out += &row("CPU ms/match, tournament: all (referee's)", &|_| {
            format!(
                "{:.0} ({:.0})",
                t.cpu_ms_per_match(),
                t.own_cpu_ms_per_match()
            )
        });
        out += &row("machine busy in the window", &|l| {
            format!(
                "{:.0}%",
                100.0 * l.machine_cpu_s / l.window_s / self.cores as f64
            )
        });
        out += &row("load (1 min) in the window", &|l| {
            format!("{:.1}-{:.1}", l.load.0, l.load.1)
        });
        out += &row("API info p50 / p99 (ms)", &|l| {
            format!("{:.1} / {:.1}", l.info.quantile(0.5), l.info.quantile(0.99))
        });
        out += &row("API standings p50 / p99 (ms)", &|l| {
            format!(
                "{:.1} / {:.1}",
                l.standings.quantile(0.5),
                l.standings.quantile(0.99)
            )
        });
        out += &row("API requests (errors)", &|l| {
            format!(
                "{} ({})",
                l.info.samples.len() + l.standings.samples.len(),
                l.info.errors + l.standings.errors
            )
        });
        out += &row("matches recorded", &|l| l.played.matches.to_string());
        out += &row("DB per 10k matches (MiB)", &|l| {
            format!("{:.1}", mib(l.db_per_10k()))
        });
        out += &row("artifacts per 10k matches (MiB)", &|l| {
            format!("{:.1}", mib(l.artifacts_per_10k()))
        });
        out += &row("DB after init / after run (MiB)", &|l| {
            format!(
                "{:.1} / {:.1}",
                mib(l.db_bytes[0] as f64),
                mib(l.db_bytes[3] as f64)
            )
        });
        out += &row("artifacts after init / run (MiB)", &|l| {
            format!(
                "{:.1} / {:.1}",
                mib(l.artifact_bytes[0] as f64),
                mib(l.artifact_bytes[3] as f64)
            )
        });
        out += &row("process seats per match", &|l| {
            format!(
                "{:.2}",
                l.played.process_seats as f64 / l.played.matches.max(1) as f64
            )
        });
        out += &row("faults", &|l| l.played.faults.to_string());
        out += &row("server errors (results refused)", &|l| {
            format!("{} ({})", l.server_errors, l.results_refused)
        });
        out += &row("mean match (ms, without starts)", &|l| {
            format!("{:.0}", l.played.mean_match_ms)
        });
        for l in &self.ladders {
            let mut tables: Vec<(&String, &u64)> = l.tables.iter().collect();
            tables.sort_by_key(|(_, bytes)| std::cmp::Reverse(**bytes));
            let shown: Vec<String> = tables
                .iter()
                .take(4)
                .map(|(name, bytes)| {
                    format!(
                        "{name} {:.0}",
                        **bytes as f64 / l.played.matches.max(1) as f64
                    )
                })
                .collect();
            out += &format!(
                "{} after the run, bytes per match recorded: {}\n",
                l.db,
                shown.join(", ")
            );
        }
        let sizes: Vec<String> = t
            .parts
            .iter()
            .map(|p| format!("{}x{}p", p.played.matches, p.players))
            .collect();
        out += &format!(
            "tournament: {} matches ({}) in {:.1} s, {} process starts ({:.2} per match), {} faults, mean match {:.0} ms, load {:.1}-{:.1}\n",
            t.matches(),
            sizes.join(" + "),
            t.wall_s(),
            t.process_starts(),
            t.process_starts() as f64 / t.matches().max(1) as f64,
            t.faults(),
            t.parts
                .iter()
                .map(|p| p.played.mean_match_ms * p.played.matches as f64)
                .sum::<f64>()
                / t.matches().max(1) as f64,
            t.load.0,
            t.load.1
        );
        let per_match = |counts: &BTreeMap<Kind, u64>, matches: u64| {
            counts
                .iter()
                .map(|(k, n)| format!("{} {:.2}", k.prefix(), *n as f64 / matches.max(1) as f64))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for l in &self.ladders {
            out += &format!(
                "{} seats per match: {}\n",
                l.db,
                per_match(&l.played.seats_by_kind, l.played.matches)
            );
        }
        for l in &self.ladders {
            for (line, n) in &l.stderr_lines {
                out += &format!("{} server stderr, {n} x: {line}\n", l.db);
            }
        }
        let mut seats = BTreeMap::new();
        let mut starts = BTreeMap::new();
        for p in &t.parts {
            for (k, n) in &p.played.seats_by_kind {
                *seats.entry(*k).or_insert(0) += n;
            }
            for (k, n) in &p.starts_by_kind {
                *starts.entry(*k).or_insert(0) += n;
            }
        }
        out += &format!(
            "tournament seats per match: {}\ntournament process starts per match: {}\n",
            per_match(&seats, t.matches()),
            per_match(&starts, t.matches())
        );
        for p in &self.longer {
            out += &format!(
                "tournament of {} matches at {} players: {:.2} matches/s, {} process starts ({:.2} per match), CPU {:.0} ms per match\n",
                p.played.matches,
                p.players,
                p.rate(),
                p.process_starts,
                p.process_starts as f64 / p.played.matches.max(1) as f64,
                1000.0 * p.cpu.total() / p.played.matches.max(1) as f64
            );
        }
        for s in &self.starts {
            out += &format!(
                "referee match of 3 {:<18} CPU {:6.1} ms, wall {:6.1} ms; CPU per start {:5.1} ms\n",
                s.kind.prefix(),
                s.match_cpu_ms,
                s.match_wall_ms,
                s.cpu_ms_per_start
            );
        }
        out
    }

    /// The figures as JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "plan": {
                "bots": self.plan.bots,
                "matches": self.plan.matches,
                "window_from": self.plan.window_from,
                "jobs": self.plan.jobs,
                "probe_every_ms": self.plan.probe_every.as_millis() as u64,
                "players": [PLAYERS.0, PLAYERS.1],
                "seed": SEED,
            },
            "field": self.field.iter().map(|(k, n)| (k.prefix().to_owned(), json!(n))).collect::<serde_json::Map<_, _>>(),
            "cores": self.cores,
            "load_before": self.load_before,
            "cpu_by_cgroup": self.cpu_by_cgroup,
            "ladders": self.ladders.iter().map(LadderRun::to_json).collect::<Vec<_>>(),
            "tournament": self.tournament.to_json(),
            "ratios": self.ladders.iter().map(|l| (l.db.to_owned(), json!(l.rate() / self.tournament.rate()))).collect::<serde_json::Map<_, _>>(),
            "process_start": self.starts.iter().map(|s| json!({
                "kind": s.kind.prefix(),
                "match_cpu_ms": s.match_cpu_ms,
                "match_wall_ms": s.match_wall_ms,
                "cpu_ms_per_start": s.cpu_ms_per_start,
            })).collect::<Vec<_>>(),
            "longer_tournaments": self.longer.iter().map(TournamentPart::to_json).collect::<Vec<_>>(),
        })
    }
}
