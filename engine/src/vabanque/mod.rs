//! Vabanque (3–6 players): chips, cards, moves and payout over four rounds.
//!
//! The rules and every ruling are in `docs/rules-vabanque.md` (from `shared/rules/vabanque.md`).
//! [`payout`] holds the pure scoring and ordering rules, [`Vabanque`] the state machine, and
//! `view.rs` the one function that builds what a seat may see.

pub mod heuristic;
pub mod payout;
mod state;
#[cfg(test)]
mod tests;
mod view;

pub use state::{Options, Vabanque};

/// Number of tables for 3, 4, 5 and 6 players.
pub const TABLES: [usize; 4] = [7, 9, 10, 12];
/// Chip value in each of the four rounds.
pub const CHIP_VALUES: [u32; 4] = [5, 10, 20, 50];
/// Chips each player places in each of the four rounds.
pub const CHIPS_PER_PLAYER: [u32; 4] = [4, 3, 2, 1];
/// Number of rounds.
pub const ROUNDS: usize = 4;
/// Largest token move, in tables clockwise.
pub const MAX_STEPS: usize = 4;
/// Money per chip point.
pub const MONEY_PER_POINT: u64 = 1_000;
