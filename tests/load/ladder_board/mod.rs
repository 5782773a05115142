//! The ladder's board at scale (issue: "the board with 100 bots and 100,000 matches: page
//! size and time to first paint in Chromium"; goal: under 1 s and under 500 KB): a ladder of
//! built-in bots whose store holds that many recorded ranked matches of 4 seats, served by
//! `referee ladder serve`, and its board measured by a plain HTTP client and by a headless
//! Chromium. Shared by the bench (`benches/ladder_board.rs`, the figures of
//! docs/performance.md) and its smoke test (`e2e/ladder/board_scale_smoke.rs`), which include
//! this module with `#[path]`; it drives the browser of `e2e/browser.rs` (`crate::browser`).
//!
//! The matches are real: `referee tournament` plays them first, between the same bots
//! (in-process built-ins, so 100,000 take a minute or two), and each of its records is then
//! recorded in the ladder the way a worker's report is, through the store's own methods: the
//! job queued, claimed under a lease, and finished with its record, its seats and the seats'
//! new ratings (`Store::enqueue`, `claim`, `finish_match`). Only the clock and the logs are not
//! the ladder's own (see `fill`).
//!
//! One file per job: the field and its matches (`field`), the ladder made and filled
//! (`fill`), the PostgreSQL databases (`postgres`), the server (`serve`), the HTTP timings
//! (`http`), the browser's loads (`paint`), one database's run (`board_run`), and the report
//! (`report`).

mod board_run;
mod field;
mod fill;
mod http;
mod paint;
mod report;
mod serve;

pub use crate::databases::Database;
pub use field::{Field, play_field};
pub use fill::Filled;
pub use report::Report;

use std::path::PathBuf;
use std::process::Command;

/// The seed of the field's tournament: every run records the same matches.
const SEED: u64 = 100;

/// Seats at every table.
const PLAYERS: usize = 4;

/// How big a run is.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Bots in the field (built-ins, each its own owner's).
    pub bots: usize,
    /// Ranked matches recorded (a multiple of [`PLAYERS`]: whole duplicate groups).
    pub matches: u64,
    /// Requests timed per endpoint, after the first (which is timed apart).
    pub requests: usize,
    /// Loads of the board in a new Chromium each (an empty cache, a new connection).
    pub cold_loads: usize,
    /// Loads of the board again in one Chromium that loaded it once already.
    pub warm_loads: usize,
}

/// Where a run happens and how it starts the referee.
pub struct Env {
    /// A fresh directory for the run's files.
    pub dir: PathBuf,
    /// Makes a `referee` command (the binary under test).
    pub referee: Box<dyn Fn() -> Command>,
}

/// Runs the whole benchmark: the field's matches played once, then on each of `dbs` a ladder
/// made, filled with them, served and measured.
pub fn run(env: &Env, plan: &Plan, dbs: &[Database]) -> Report {
    assert!(!dbs.is_empty(), "a ladder needs a database");
    let field = play_field(env, plan);
    let runs = dbs
        .iter()
        .map(|db| board_run::measure(env, plan, &field, db))
        .collect();
    Report {
        plan: plan.clone(),
        tournament_s: field.played_s,
        runs,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}
