//! Sample bots in Rust; the programs are in `src/bin/`. What they share lives here.

use engine::Game;
use protocol::bot::Bot;
use protocol::{MatchStart, Request};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::value::RawValue;
use std::marker::PhantomData;

/// A bot that plays a uniformly random legal action of game `G`, seeded by the match. It needs
/// only the legal list, so the view is kept unparsed (a `RawValue`) and read only in a game that
/// does not list its actions, where the bot plays the game's
/// [baseline action](engine::Game::baseline_action); it declines events.
pub struct RandomBot<G> {
    name: &'static str,
    rng: ChaCha8Rng,
    game: PhantomData<G>,
}

impl<G> RandomBot<G> {
    /// A random bot that calls itself `name`.
    pub fn new(name: &'static str) -> Self {
        RandomBot {
            name,
            rng: ChaCha8Rng::seed_from_u64(0),
            game: PhantomData,
        }
    }
}

impl<G: Game> Bot<Box<RawValue>, G::Action, IgnoredAny> for RandomBot<G>
where
    G::View: DeserializeOwned,
{
    fn name(&self) -> String {
        self.name.into()
    }

    fn match_start(&mut self, start: &MatchStart) {
        // All randomness from the seed the referee gives: the bot is deterministic.
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }

    fn wants_events(&self) -> bool {
        false
    }

    /// In a game that lists the legal actions the bot never reads the view, so it takes it as
    /// changes: less to skip in every request.
    fn wants_delta(&self) -> bool {
        G::LISTS_ACTIONS
    }

    fn decide(&mut self, request: &Request<Box<RawValue>, G::Action>) -> G::Action {
        let listed = request.legal.as_deref().unwrap_or_default();
        match listed.choose(&mut self.rng) {
            Some(action) => action.clone(),
            None => {
                let view: G::View =
                    serde_json::from_str(request.view.get()).expect("the referee's view parses");
                G::baseline_action(&view)
            }
        }
    }
}

/// Runs a [`RandomBot`] of game `G` called `name` over standard input and output.
///
/// # Errors
/// When standard input or output fails.
pub fn run_random<G: Game>(name: &'static str) -> std::io::Result<()>
where
    G::View: DeserializeOwned,
{
    protocol::bot::run::<Box<RawValue>, G::Action, IgnoredAny>(&mut RandomBot::<G>::new(name))
}
