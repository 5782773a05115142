//! Game engines: pure, deterministic state machines with no I/O and no clocks.
//!
//! [`Game`] is the one abstraction the referee core knows; each game implements it in its own
//! module. All chance comes from the match seed (see [`seed`]). The design, and how each of the
//! three games maps onto it, is in `docs/architecture.md`.

pub mod bouillabaisse;
mod game;
pub mod seed;
pub mod shared_rules;
pub mod vabanque;

pub use game::{Addressed, Audience, Game, Illegal, Outcome, SetupError, Turn};
