//! Sample bots in Rust; the programs are in `src/bin/`. What they share lives here.

use protocol::bot::Bot;
use protocol::{MatchStart, Request};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::de::IgnoredAny;

/// A bot that plays a uniformly random legal action, seeded by the match: for any game that
/// lists its legal actions. It needs only the legal list, so the view is skipped unparsed
/// (`IgnoredAny`) and it declines events.
pub struct RandomBot {
    name: &'static str,
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot that calls itself `name`.
    pub fn new(name: &'static str) -> Self {
        RandomBot {
            name,
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }
}

impl<A: Clone> Bot<IgnoredAny, A, IgnoredAny> for RandomBot {
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

    fn decide(&mut self, request: &Request<IgnoredAny, A>) -> A {
        let legal = request.legal.as_deref().unwrap_or_default();
        legal
            .choose(&mut self.rng)
            .expect("the game lists its legal actions")
            .clone()
    }
}
