//! The random bot: a uniform choice among the legal actions, from the bot's own seed; the game's
//! [baseline action](crate::Game::baseline_action) in a game that does not list its actions.

use crate::{Game, Strategy};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Picks uniformly among the legal actions; deterministic given the match seed.
pub struct Random {
    rng: ChaCha8Rng,
}

impl Default for Random {
    fn default() -> Self {
        Random {
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }
}

impl<G: Game> Strategy<G> for Random {
    fn match_start(&mut self, _seat: usize, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    fn decide(&mut self, view: &G::View, legal: Option<&[G::Action]>) -> G::Action {
        match legal.and_then(|legal| legal.choose(&mut self.rng)) {
            Some(action) => action.clone(),
            None => G::baseline_action(view),
        }
    }
}
