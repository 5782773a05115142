//! Running matches: starting players, refereeing one match, writing its log; one match from
//! its settings to its record ([`run_match`]).
//!
//! The runner is generic over [`Game`](engine::Game) and knows no game's rules. It asks
//! the game who is to move, sends that seat its view, enforces the time limit, turns every bot
//! misbehaviour into a recorded [`Fault`](crate::seat::Fault) plus the game's default action,
//! and routes each event only to the seats in its audience.

mod ask;
mod books;
mod decision_time;
mod game_records;
mod histogram;
mod ledger;
mod log;
mod match_runner;
mod moment;
mod one_match;
mod players;
mod policy;
mod record;
#[cfg(test)]
pub(crate) mod tally;
#[cfg(test)]
mod tests;
mod view_delta;

pub use game_records::{GameRecords, start_record};
pub use histogram::TimeHistogram;
pub use ledger::{COST_NOTES, Charge, FaultAt, SeatLedger};
pub use log::{LOG_VERSION, LogAudience, LogPlayer, LogRecord, MatchLog, STDERR_PER_DECISION};
pub use match_runner::{MatchSettings, RunError, play_match, play_match_from};
pub use moment::{Moment, When, ordinal};
pub use one_match::{MatchConfig, MatchError, MatchReporter, play_once, run_match};
pub use players::{Player, is_usable, shutdown_players, start_players};
pub use policy::{FaultClass, FaultPolicy, Penalty, class, forfeit_ranks};
pub use record::{FaultRecord, MatchRecord, Outside, SeatStats};
