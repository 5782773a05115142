//! Nava: the multi-table tournament format of the Machiavelli guide ("Nava movement").
//!
//! A field of at least 9 bots sits at tables of 4 (tables of 3 where the count does not divide,
//! their West seat a BYE) for a few rounds of several hands each. Between rounds the seats move
//! around the tables, each wind by its own step ([`seating`]), so that a bot meets many others
//! without a draw after the first. Each table's round scores Victory Points by place and by
//! margin, and the tournament ranks by total VP ([`vp`]).
//!
//! This module is pure: seatings from a seed and VP from results, no matches and no I/O. See
//! `docs/tournament.md`, section "Nava", for the format as played by the referee.

pub mod seating;
#[cfg(test)]
mod tests;
pub mod vp;

pub use seating::{MIN_BOTS, Seating, Wind, seatings, table_counts};
pub use vp::{RANKING_VP, TableEntry, TableVp, Totals, difference_vp, order, table_vp};
