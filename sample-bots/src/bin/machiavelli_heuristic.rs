//! The heuristic Machiavelli bot in Rust: the referee's built-in `heuristic` strategy (it lays,
//! attaches and rearranges the table, see `engine::machiavelli::bots`), run as a separate
//! process over the protocol.

use engine::Strategy;
use engine::machiavelli::bots::Heuristic;
use protocol::bot::{Bot, run};
use protocol::machiavelli::{Action, View};
use protocol::{MatchStart, Request};
use serde::de::IgnoredAny;

struct HeuristicBot(Heuristic);

impl Bot<View, Action, IgnoredAny> for HeuristicBot {
    fn name(&self) -> String {
        "rust-heuristic".into()
    }

    fn match_start(&mut self, start: &MatchStart) {
        self.0.match_start(start.seat, start.seed);
    }

    fn wants_events(&self) -> bool {
        false
    }

    fn decide(&mut self, request: &Request<View, Action>) -> Action {
        self.0.decide(&request.view, request.legal.as_deref())
    }
}

fn main() -> std::io::Result<()> {
    run(&mut HeuristicBot(Heuristic))
}
