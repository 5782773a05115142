//! The ladder under load (issue 29): a field of built-in and process bots, `referee ladder
//! init` and `referee ladder serve -j J` on SQLite and on PostgreSQL until N ranked matches are
//! recorded, the API probed all the while, the database's and the artifact store's sizes after
//! the run, and `referee tournament` of the same bots, table sizes and concurrency for
//! comparison. Shared by the bench (`benches/ladder_load.rs`, the figures of
//! docs/performance.md) and its smoke test (`e2e/ladder/load_smoke.rs`), which include this
//! module (`load/ladder_load/mod.rs`) with `#[path]`: the test runs this very code, small.
//!
//! This file holds the run's plan, its environment and [`run`]; the rest is in one file per
//! job: the field of bots and their sources (`field`), the databases and their sizes
//! (`database`), the processes it starts (`process`), CPU accounting (`cpu`), a ladder's run
//! (`ladder_run`) and the probe of its API (`probe`), the matches read back (`played`), the
//! tournaments (`tournament_run`), the start costs (`start_cost`), and the report (`report`).

mod cpu;
mod database;
mod field;
mod ladder_run;
mod played;
mod probe;
mod process;
mod report;
mod start_cost;
mod tournament_run;

pub use cpu::Cpu;
pub use database::Database;
pub use field::{Bot, Kind, field};
pub use ladder_run::LadderRun;
pub use played::Played;
pub use probe::Latency;
pub use report::Report;
pub use start_cost::StartCost;
pub use tournament_run::{TournamentPart, TournamentRun};

use cpu::{CpuGroup, load_average};
use field::write_sources;
use ladder_run::run_ladder;
use start_cost::start_costs;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use tournament_run::{run_longer, run_tournaments};

/// The ladder's and the tournaments' seed: every run plays the same deals.
const SEED: u64 = 29;

/// The game's limits and fault policy, in both the ladder's and the tournaments' files (the
/// values of `examples/ladder.toml`).
const LIMITS: &str =
    "time_limit_ms = 1000\nstartup_limit_ms = 10000\nfirst_decision_ms = 3000\nmax_faults = 3\n";

/// The smallest and the largest table.
const PLAYERS: (usize, usize) = (3, 5);

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

/// Where a run happens and how it starts the referee.
pub struct Env {
    /// The workspace root (for `sample-bots/`).
    pub root: PathBuf,
    /// A fresh directory for the run's files.
    pub dir: PathBuf,
    /// Makes a `referee` command (the binary under test, run from the root).
    pub referee: Box<dyn Fn() -> Command>,
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
