//! A random Vabanque bot in Rust: plays a uniformly random legal action, seeded by the match.
//!
//! Run it with `referee match --game vabanque --bot r=target/release/vabanque-random ...`.

use protocol::bot::{Bot, run};
use protocol::vabanque::{Action, Event};
use protocol::{MatchStart, Request};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::de::IgnoredAny;

/// A random bot needs only the legal actions: the view is skipped unparsed (`IgnoredAny`), and
/// so are events.
type View = IgnoredAny;

struct RandomBot {
    rng: ChaCha8Rng,
}

impl Bot<View, Action, Event> for RandomBot {
    fn name(&self) -> String {
        "rust-random".into()
    }

    fn match_start(&mut self, start: &MatchStart) {
        // All randomness from the seed the referee gives: the bot is deterministic.
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }

    fn wants_events(&self) -> bool {
        false
    }

    fn decide(&mut self, request: &Request<View, Action>) -> Action {
        let legal = request.legal.as_deref().unwrap_or_default();
        *legal
            .choose(&mut self.rng)
            .expect("Vabanque always lists its legal actions")
    }
}

fn main() -> std::io::Result<()> {
    run(&mut RandomBot {
        rng: ChaCha8Rng::seed_from_u64(0),
    })
}
