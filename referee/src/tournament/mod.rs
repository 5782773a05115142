//! Tournaments: many seeded matches, in parallel, with fair seating, a resumable results file,
//! shards, and a leaderboard with ratings and confidence intervals. See `docs/tournament.md`.

pub mod affinity;
mod pool;
pub mod results;
pub mod schedule;
pub mod standings;

pub use pool::{PoolSettings, run_pool};
pub use results::{MatchResult, ResultsFile, TournamentMeta};
pub use schedule::{Format, ScheduleSpec, ScheduledMatch};
pub use standings::{Leaderboard, compute};
