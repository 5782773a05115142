//! The game's own records in a log being replayed — the start, the events and the running
//! scores ([`GameRecords`]) — made again from the engine as the replay goes: in a version 3 log
//! each recorded one must be the next the game gives, in its place (right after the start's
//! faults, or the action that caused it); in a version 2 log, which has none, they are put in
//! those places. Also keeps the checked records, for [`super::read_match`].

use crate::runner::{GameRecords, LogAudience, LogRecord, start_record};
use crate::seat::reply::excerpt;
use engine::{Addressed, Game};
use std::collections::VecDeque;

/// What a version 3 log without its start is told.
const MISSING_START: &str = "the start record is missing (a version 3 log has it on line 2)";

/// The game's records of a log being replayed.
pub(super) struct GameLog {
    /// Whether the log records them (version 3) or they are made here (version 2).
    recorded: bool,
    records: GameRecords,
    /// The game's records still to come, in order.
    pending: VecDeque<LogRecord>,
    /// Whether `pending` is the opening, none of it seen yet: the start's faults may come
    /// before it.
    opening_untouched: bool,
    /// Whether the start has been seen (or made).
    started: bool,
    /// The checked records in log order, when they are kept.
    kept: Option<Vec<LogRecord>>,
}

impl GameLog {
    /// The game's records of a log whose game is `game` before its first decision, played by
    /// `seats` seats: recorded in the log (version 3) or not; `kept` starts the records kept
    /// (with the header), if they are.
    pub fn new<G: Game>(game: &G, seats: usize, recorded: bool, kept: Option<LogRecord>) -> Self {
        let mut log = GameLog {
            recorded,
            records: GameRecords::default(),
            pending: VecDeque::new(),
            opening_untouched: false,
            started: false,
            kept: kept.map(|header| vec![header]),
        };
        if !recorded {
            log.keep(start_record(game, seats));
            log.open(game);
        }
        log
    }

    /// A record that only a version 3 log has: refused in a version 2 log.
    pub fn version_3_only(&self) -> Result<(), String> {
        if self.recorded {
            Ok(())
        } else {
            Err("a record of log version 3 in a version 2 log".into())
        }
    }

    /// The opening's records are due.
    fn open<G: Game>(&mut self, game: &G) {
        self.started = true;
        self.pending = self.records.opening(game, &game.opening_events()).into();
        self.opening_untouched = true;
    }

    /// The recorded start: the one `game` gives, before anything else.
    pub fn start<G: Game>(
        &mut self,
        game: &G,
        seats: usize,
        recorded: &LogRecord,
    ) -> Result<(), String> {
        self.version_3_only()?;
        if self.started {
            return Err("a second start".into());
        }
        let (
            LogRecord::Start { truth, views },
            LogRecord::Start {
                truth: dealt,
                views: seen,
            },
        ) = (recorded, start_record(game, seats))
        else {
            unreachable!("a start record");
        };
        if *truth != dealt {
            return Err("the recorded start state is not the one the seed deals".into());
        }
        if views.len() != seen.len() {
            return Err(format!(
                "{} views at the start, for {} seats",
                views.len(),
                seen.len()
            ));
        }
        if let Some(seat) = (0..seen.len()).find(|&s| views[s] != seen[s]) {
            return Err(format!(
                "seat {seat}'s view at the start is not the one the rules give it"
            ));
        }
        self.open(game);
        Ok(())
    }

    /// A recorded event or scores: the next record the game gives.
    pub fn game_record(&mut self, recorded: &LogRecord) -> Result<(), String> {
        self.version_3_only()?;
        if !self.started {
            return Err(MISSING_START.into());
        }
        self.opening_untouched = false;
        match self.pending.pop_front() {
            Some(expected) if expected == *recorded => Ok(()),
            Some(expected) => Err(format!(
                "{}, but the game's next record is {}",
                describe(recorded),
                describe(&expected)
            )),
            None => Err(format!(
                "{}, but the game gave nothing more here",
                describe(recorded)
            )),
        }
    }

    /// Before any other record: the start has come, and the game's records due have all come
    /// (a version 3 log) or are put here (a version 2 log) — unless this is a fault of the
    /// start (`start_fault`), which comes before the opening's.
    pub fn settle(&mut self, start_fault: bool) -> Result<(), String> {
        if !self.started {
            return Err(MISSING_START.into());
        }
        if start_fault && self.opening_untouched {
            return Ok(());
        }
        self.opening_untouched = false;
        match (self.recorded, self.pending.front()) {
            (_, None) => Ok(()),
            (true, Some(expected)) => {
                Err(format!("missing before this line: {}", describe(expected)))
            }
            (false, Some(_)) => {
                let made: Vec<LogRecord> = self.pending.drain(..).collect();
                made.into_iter().for_each(|r| self.keep(r));
                Ok(())
            }
        }
    }

    /// Decision `n`'s action was played: its records are due.
    pub fn after_action<G: Game>(&mut self, n: u64, game: &G, events: &[Addressed<G::Event>]) {
        self.pending = self.records.after_action(n, game, events).into();
    }

    /// Keeps a checked record, if records are kept.
    pub fn keep(&mut self, record: LogRecord) {
        if let Some(kept) = &mut self.kept {
            kept.push(record);
        }
    }

    /// The records kept.
    pub fn into_kept(self) -> Vec<LogRecord> {
        self.kept.unwrap_or_default()
    }
}

/// A record of the game as a mismatch names it.
fn describe(record: &LogRecord) -> String {
    let at = |n: &Option<u64>| match n {
        Some(n) => format!("of decision {n}"),
        None => "of the opening".to_string(),
    };
    match record {
        LogRecord::Event { n, to, event } => {
            let to = match to {
                LogAudience::All => "all".to_string(),
                LogAudience::Seat(seat) => format!("seat {seat}"),
            };
            format!(
                "the event {} to {to} {}",
                excerpt(&event.to_string()),
                at(n)
            )
        }
        LogRecord::Scores { n, scores } => format!("the scores {scores:?} {}", at(n)),
        other => format!("{other:?}"),
    }
}
