//! The tournament report (`referee report DIR --html OUT`): what a results directory holds,
//! gathered once ([`data`]: the leaderboard and its legend, the head-to-head matrix, the
//! ratings over the tournament, and each bot's matches, faults — summed up by kind in
//! [`fault_summary`] — and stderr) and drawn as a page
//! that opens from disk ([`page`]), with a replay page per match whose log was kept. See
//! `docs/tournament.md` (the report).

pub mod bot_checks;
pub mod data;
pub mod fault_summary;
pub mod grades;
pub mod one_bot;
pub mod page;
pub mod replays;
pub mod stderr_excerpt;
#[cfg(test)]
pub(crate) mod test_tournaments;

pub use data::{ReportError, TournamentReport, build};
pub use one_bot::{UnknownBot, for_bot};
pub use page::{Written, write};
pub use replays::{ReplayChoice, Replays};
