//! The heuristic Vabanque bot in Rust: the referee's built-in `heuristic` strategy, run as a
//! separate process over the protocol (see `referee::bots::vabanque_heuristic` for the strategy).

use protocol::bot::{Bot, run};
use protocol::vabanque::{Action, Event, View};
use protocol::{MatchStart, Request};
use referee::bots::Strategy;
use referee::bots::vabanque_heuristic::Heuristic;

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
