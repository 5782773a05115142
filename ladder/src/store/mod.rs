//! The ladder's store: accounts, bots and their versions, jobs under leases, matches and
//! ratings, in SQLite (the default: a file beside the ladder, nothing to install) or PostgreSQL
//! (for a server and workers on several machines). The one place that knows SQL: the server,
//! the matchmaker and the workers ask it.
//!
//! One implementation serves both databases, through sqlx's `Any` driver: the queries are
//! written once in the SQL both understand (`$N` parameters, `RETURNING`, `ON CONFLICT`), with
//! each backend's own migrations (`ladder/migrations/{sqlite,postgres}`) and its own statement
//! only where the two must differ (claiming a job: `FOR UPDATE SKIP LOCKED` on PostgreSQL, a
//! single writer on SQLite). Two implementations of a trait would have repeated every query.
//! Times are milliseconds since the Unix epoch, given by the caller (so tests need no clock).

mod accounts;
mod bot_history;
mod class;
mod counters;
mod error;
mod finals;
mod jobs;
mod matches;
mod open;
mod queue;
pub mod sessions;
mod settings;
#[cfg(test)]
mod tests;
mod versions;

pub use accounts::{Account, Role};
pub use bot_history::{Meetings, RatingPoint};
pub use error::StoreError;
pub use finals::FinalRow;
pub use jobs::{Claimed, FinalMatch, Finish, JobKind, JobRow, JobState, NewJob, Swept};
pub use matches::{MatchRow, NewMatch, Rate, SeatResult};
pub use open::{Backend, redacted};
pub use queue::{LeasedJob, TroubledJob, WorkerRow};
pub use sessions::SessionRow;
pub use versions::{Bot, BuildResult, Version, VersionState};

/// The ladder's store, over SQLite or PostgreSQL ([`Store::open`]).
#[derive(Clone, Debug)]
pub struct Store {
    pool: sqlx::AnyPool,
    backend: Backend,
}
