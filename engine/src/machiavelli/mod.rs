//! Machiavelli (2–6 players): a rummy in which a player may rearrange the whole table in its
//! turn; lowest total wins.
//!
//! The rules and every ruling are in `docs/rules-machiavelli.md` (from
//! `shared/rules/machiavelli.md`). [`cards`] holds the deck and the points, [`meld`] one meld's
//! validity and canonical order, [`table`] the checks of a submitted table, [`Machiavelli`] is
//! the state machine (which [`position`] can also start from a position set by hand) and `view.rs` the one function that builds what a seat may see; [`bots`]
//! are the built-in bots, on the search of [`search`].

pub mod bots;
pub mod cards;
pub mod meld;
pub mod position;
pub mod search;
mod state;
pub mod table;
#[cfg(test)]
mod tests;
mod view;

pub use position::{Position, parse_cards};
pub use protocol::machiavelli::Options;
pub use state::{INVALID_PLAY_PENALTY, Machiavelli, SKIP_PENALTY};
