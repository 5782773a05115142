//! The records of what the game did, as the match log holds them (version 3): the start (the
//! whole state and every seat's view), each event with its audience, and the running scores
//! when they change. Made in this one place: the runner writes them, and `referee replay` makes
//! them again from the engine to check a log's, or to put them in their places in a version 2
//! log ([docs/match-log.md](../../../docs/match-log.md)).

use super::log::LogRecord;
use engine::{Addressed, Game};
use serde::Serialize;

fn json(value: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(value).expect("game types serialize")
}

/// The `start` record of `game`, played by `seats` seats: its whole state and each seat's view.
pub fn start_record<G: Game>(game: &G, seats: usize) -> LogRecord {
    LogRecord::Start {
        truth: game.truth(),
        views: (0..seats).map(|seat| json(&game.view(seat))).collect(),
    }
}

/// The game's records after the start and after each action: its events, and its running
/// scores when they changed. Keeps the scores last recorded.
#[derive(Clone, Debug, Default)]
pub struct GameRecords {
    scores: Option<Vec<i64>>,
}

impl GameRecords {
    /// The opening records of `game`: an `event` for each of `events` (its opening events),
    /// then its scores, all with `n: null`.
    pub fn opening<G: Game>(&mut self, game: &G, events: &[Addressed<G::Event>]) -> Vec<LogRecord> {
        self.scores = None;
        self.records(None, game, events)
    }

    /// The records of decision `n`'s action, once `game` has played it: an `event` for each of
    /// `events`, then the scores if they changed.
    pub fn after_action<G: Game>(
        &mut self,
        n: u64,
        game: &G,
        events: &[Addressed<G::Event>],
    ) -> Vec<LogRecord> {
        self.records(Some(n), game, events)
    }

    fn records<G: Game>(
        &mut self,
        n: Option<u64>,
        game: &G,
        events: &[Addressed<G::Event>],
    ) -> Vec<LogRecord> {
        let mut records: Vec<LogRecord> = events
            .iter()
            .map(|addressed| LogRecord::Event {
                n,
                to: addressed.to.into(),
                event: json(&addressed.event),
            })
            .collect();
        let scores = game.scores();
        if self.scores.as_ref() != Some(&scores) {
            self.scores = Some(scores.clone());
            records.push(LogRecord::Scores { n, scores });
        }
        records
    }
}
