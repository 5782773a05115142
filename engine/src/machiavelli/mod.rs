//! Machiavelli (2–6 players): a rummy in which a player may rearrange the whole table in its
//! turn; lowest total wins.
//!
//! The rules and every ruling are in `docs/rules-machiavelli.md` (from
//! `shared/rules/machiavelli.md`). [`cards`] holds the deck and the points, [`meld`] one meld's
//! validity and canonical order, [`table`] the checks of a submitted table.

pub mod cards;
pub mod meld;
pub mod table;
#[cfg(test)]
mod tests;
