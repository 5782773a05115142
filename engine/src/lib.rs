//! The referee's games as pure, deterministic state machines, with no I/O and no clock.
//!
//! [`Game`] is the one abstraction the referee core knows; each game implements it in its own
//! module, and [`registry`] lists them ([`GameKind`], [`with_game!`]). All chance comes from the
//! match seed ([`seed`]). Each game brings its built-in bots ([`strategy`]). [`DynGame`] drives
//! any registered game with JSON in and JSON out, and [`conformance`] is the suite every
//! registered game passes. The design, and how each game maps onto it, is in
//! `docs/architecture.md`.
//!
//! ```
//! use engine::{Game, GameKind, with_game};
//!
//! // A whole match of each game, every decision the referee's default action.
//! for &kind in GameKind::ALL {
//!     let ranks = with_game!(kind, G => {
//!         let players = *G::player_counts().start();
//!         let mut game = G::new(&Default::default(), players, 42).unwrap();
//!         let mut events = Vec::new();
//!         while game.to_move().is_some() {
//!             let action = game.default_action();
//!             game.play(&action, &mut events).unwrap();
//!         }
//!         game.outcome().unwrap().ranks
//!     });
//!     assert!(ranks.contains(&1));
//! }
//! ```
#![warn(missing_docs)]

// First: the modules after it use its `with_game!`.
#[macro_use]
pub mod registry;

pub mod bouillabaisse;
pub mod conformance;
mod dyn_game;
mod game;
pub mod machiavelli;
pub mod random;
pub mod seed;
pub mod shared_rules;
pub mod strategy;
pub mod vabanque;

pub use dyn_game::{ActionError, DynEvent, DynGame};
pub use game::{Addressed, Audience, Game, Illegal, Outcome, PlayerCounts, SetupError, Turn};
pub use registry::{GameKind, UnknownGame};
pub use strategy::{BuiltinBot, Strategy};
