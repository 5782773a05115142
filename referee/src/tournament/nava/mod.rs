//! Nava: the multi-table tournament format of the Machiavelli guide ("Nava movement"), for any
//! game played by 3 and 4.
//!
//! A field of at least 9 bots sits at tables of 4 (tables of 3 where the count does not divide,
//! their West seat a BYE) for a few rounds of several hands each (a hand is one match of the
//! game), at the same table ([`schedule`]). Between rounds the seats move around the tables,
//! each wind by its own step ([`seating`]), so that a bot meets many others without a draw
//! after the first. Each table's round scores Victory Points by place and by margin ([`vp`]),
//! and the tournament ranks by total VP ([`standings`]), which the leaderboard shows in a table
//! of its own ([`table`]). See `docs/tournament.md`, section "Nava", for the format as played
//! by the referee.

pub mod format;
pub mod schedule;
pub mod seating;
pub mod spec;
pub mod standings;
pub mod table;
#[cfg(test)]
mod tests;
pub mod together;
pub mod vp;

pub use format::Nava;
pub use seating::{MIN_BOTS, Seating, Wind, seatings, table_counts};
pub use spec::{HANDS, NavaPlace, NavaSpec, ROUNDS};
pub use standings::{NavaStandings, nava_standings};
pub use vp::{RANKING_VP, TableEntry, TableVp, Totals, difference_vp, order, table_vp};
