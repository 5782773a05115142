//! The heuristic Vabanque bot in Rust: the referee's built-in `heuristic` strategy, run as a
//! separate process over the protocol (see `engine::vabanque::heuristic` for the strategy).

use engine::Strategy;
use engine::vabanque::heuristic::Heuristic;
use protocol::bot::{Bot, run};
use protocol::vabanque::{Action, Event, View};
use protocol::{MatchStart, Request};

struct HeuristicBot(Heuristic);

impl Bot<View, Action, Event> for HeuristicBot {
    fn name(&self) -> String {
        "rust-heuristic".into()
    }

    fn match_start(&mut self, start: &MatchStart) {
        self.0.match_start(start.seat, start.seed);
    }

    fn decide(&mut self, request: &Request<View, Action>) -> Action {
        self.0.decide(&request.view, request.legal.as_deref())
    }
}

fn main() -> std::io::Result<()> {
    run(&mut HeuristicBot(Heuristic::default()))
}
