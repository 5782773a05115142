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

/// How many seats a bot under test plays at (`referee check`, the starters' READMEs): the
/// game's smallest count, but at least 3 when the game allows it, so that the bot meets more than
/// one opponent.
pub fn trial_players<G: Game>() -> usize {
    let counts = G::player_counts();
    (*counts.start()).max(3).min(*counts.end())
}

/// Built-in opponents for one bot under test: `count` of them, the game's built-ins in turn,
/// each with a name of its own (`random`, `heuristic`, `random-2`, …). `referee check` plays
/// against them, and the starter bots' READMEs name them.
pub fn sparring_partners<G: Builtins>(count: usize) -> Vec<crate::seat::BotSpec> {
    let names = G::builtin_names();
    names
        .iter()
        .cycle()
        .take(count)
        .enumerate()
        .map(|(i, builtin)| {
            let name = match i / names.len() {
                0 => builtin.to_string(),
                round => format!("{builtin}-{}", round + 1),
            };
            crate::seat::BotSpec::new(
                Some(name),
                crate::seat::Launch::Builtin(builtin.to_string()),
            )
            .expect("built-in names are valid bot names")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::vabanque::Vabanque;

    #[test]
    fn sparring_partners_take_the_built_ins_in_turn_with_names_of_their_own() {
        let names: Vec<String> = sparring_partners::<Vabanque>(5)
            .into_iter()
            .map(|spec| spec.name)
            .collect();
        assert_eq!(
            names,
            ["random", "heuristic", "random-2", "heuristic-2", "random-3"]
        );
    }
}
