//! Tournaments: many seeded matches, in parallel, with fair seating, a resumable results file,
//! shards, and a leaderboard with ratings and confidence intervals. See `docs/tournament.md`.
//!
//! [`run`] plays a whole tournament from a [`TournamentConfig`] and reports to a [`Reporter`];
//! a format is a [`Schedule`] (one module per format in [`schedule`]) ranked by a [`Scoring`].

pub mod board_table;
pub mod bounds;
mod config;
pub mod legend;
pub mod nava;
pub mod nava_standings;
mod pool;
pub mod progress;
pub mod ratings;
mod report;
pub mod rerun;
pub mod rerun_trust;
pub mod results;
mod run;
pub mod run_record;
#[cfg(test)]
mod run_tests;
pub mod schedule;
mod scoring;
pub mod standings;

pub use config::TournamentConfig;
pub use pool::{PoolSettings, run_pool};
pub use progress::{Provisional, Snapshot, Tally};
pub use report::{Outcome, Reporter, Started};
pub use results::{MatchResult, ResultsFile, TournamentMeta};
pub use run::{Plan, TournamentError, plan, players, run};
pub use schedule::{NavaSpec, Schedule, ScheduleKind, ScheduleSpec, ScheduledMatch};
pub use scoring::{Field, NavaVp, Scoring, WengLin, leaderboard};
pub use standings::{Leaderboard, compute};
