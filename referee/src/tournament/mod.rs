//! Tournaments: many seeded matches, in parallel, with fair seating, a resumable results file,
//! shards, and a leaderboard with ratings and confidence intervals. See `docs/tournament.md`.
//!
//! [`run`] plays a whole tournament from a [`TournamentConfig`] and reports to a [`Reporter`];
//! a format is a [`Format`] (one module per format: [`format`](mod@format), [`nava`]) that says who plays
//! which match, how the standings are scored and what table of its own the leaderboard shows.

pub mod board_cells;
pub mod board_table;
pub mod bounds;
pub mod carry;
mod config;
pub mod files;
pub mod format;
pub mod legend;
pub mod match_result;
pub mod merge;
pub mod meta;
pub mod nava;
pub mod out_of_bounds;
mod pool;
pub mod progress;
pub mod ratings;
pub mod replace;
mod report;
pub mod rerun;
pub mod rerun_diff;
pub mod rerun_from;
pub mod rerun_trust;
pub mod results;
pub mod results_error;
mod run;
pub mod run_record;
#[cfg(test)]
mod run_tests;
mod scoring;
pub mod standings;

pub use config::TournamentConfig;
pub use format::{
    Format, FormatSettings, FormatSpec, FormatStandings, ScheduleKind, ScheduleSpec, ScheduledMatch,
};
pub use nava::NavaSpec;
pub use pool::{PoolSettings, run_pool};
pub use progress::{Provisional, Snapshot, Tally};
pub use report::{Outcome, Reporter, Started};
pub use results::{MatchResult, ResultsFile, TournamentMeta};
pub use run::{Plan, TournamentError, plan, players, run};
pub use scoring::leaderboard;
pub use standings::{Field, Leaderboard, compute};
