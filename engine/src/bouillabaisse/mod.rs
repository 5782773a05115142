//! La Bouillabaisse (2–12 players): a trick-taking game of six manches, lowest total wins.
//!
//! The rules and every ruling are in `docs/rules-bouillabaisse.md` (from
//! `shared/rules/bouillabaisse.md`). [`deck`] builds, trims and deals the cards, [`scoring`]
//! holds what each manche counts, [`trick`] the rules of one trick, [`Bouillabaisse`] is the state machine, and `view.rs` the one
//! function that builds what a seat may see.

pub mod deck;
pub mod heuristic;
pub mod scoring;
mod state;
#[cfg(test)]
mod tests;
pub mod trick;
mod view;

pub use state::{Bouillabaisse, Options};

/// Number of manches.
pub const MANCHES: u32 = 6;
