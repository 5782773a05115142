//! Built-in bots: strategies called in-process with the same view a bot process receives.
//!
//! They serve tests and fast simulation (`--bot builtin:random`), and give a bot author a
//! baseline to beat. Each game lists its built-ins through [`Builtins`].

pub mod bouillabaisse_heuristic;
mod random;
pub mod vabanque_heuristic;

pub use random::Random;

use crate::engine::Game;

/// A bot's decision procedure, playing one seat.
pub trait Strategy<G: Game>: Send {
    /// A match begins: the seat played and the seed for this bot's own random choices.
    fn match_start(&mut self, seat: usize, seed: u64);
    /// Chooses an action from the seat's view (and the legal actions, when the game lists them).
    fn decide(&mut self, view: &G::View, legal: Option<&[G::Action]>) -> G::Action;
}

/// The built-in bots of a game.
pub trait Builtins: Game {
    /// The names accepted after `builtin:`.
    fn builtin_names() -> &'static [&'static str];
    /// A fresh bot of that name, if there is one.
    fn builtin(name: &str) -> Option<Box<dyn Strategy<Self>>>;
}

impl Builtins for crate::engine::vabanque::Vabanque {
    fn builtin_names() -> &'static [&'static str] {
        &["random", "heuristic"]
    }

    fn builtin(name: &str) -> Option<Box<dyn Strategy<Self>>> {
        match name {
            "random" => Some(Box::new(Random::default())),
            "heuristic" => Some(Box::new(vabanque_heuristic::Heuristic::default())),
            _ => None,
        }
    }
}

impl Builtins for crate::engine::bouillabaisse::Bouillabaisse {
    fn builtin_names() -> &'static [&'static str] {
        &["random", "heuristic"]
    }

    fn builtin(name: &str) -> Option<Box<dyn Strategy<Self>>> {
        match name {
            "random" => Some(Box::new(Random::default())),
            "heuristic" => Some(Box::new(bouillabaisse_heuristic::Heuristic)),
            _ => None,
        }
    }
}
