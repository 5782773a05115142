//! What a check saw the bot do, as plain data: its hello, each of its decisions with the faults
//! recorded at it, the probes it was sent, how it exited, its peak memory. The session gathers
//! these; [`verdict`](super::verdict) turns them into the checklist, and nothing else does.

use crate::runner::{FaultRecord, LogRecord, MatchRecord};
use crate::seat::{Closing, Fault, PeakMemory};
use protocol::Limits;

/// Everything observed while checking one bot.
#[derive(Clone, Debug)]
pub struct Facts {
    /// The game.
    pub game: &'static str,
    /// The bot's command, as one line.
    pub command: String,
    /// The seed the matches' seeds were derived from.
    pub seed: u64,
    /// The built-in bots it played against (names as in `match_start`).
    pub opponents: Vec<String>,
    /// Every phase the game can request ([`Game::phases`](engine::Game::phases)).
    pub phases: &'static [&'static str],
    /// Whether the game lists the legal actions in every request
    /// ([`Game::LISTS_ACTIONS`](engine::Game::LISTS_ACTIONS)).
    pub lists_actions: bool,
    /// The bot's time limits.
    pub limits: Limits,
    /// How the handshake went.
    pub hello: Result<Hello, Fault>,
    /// Milliseconds from starting the bot to the end of its handshake.
    pub hello_ms: f64,
    /// The matches played, in order.
    pub matches: Vec<MatchFacts>,
    /// The bot's process exited between two matches, or after the last one before `goodbye`.
    pub gone: Option<Gone>,
    /// How the bot ended after `goodbye`; `None` when it was no longer running by then.
    pub exit: Option<Exit>,
    /// How a second run of the bot ended when its input was closed after the handshake, with no
    /// `goodbye`; `None` when that run was not made (or did not get past its hello).
    pub eof_exit: Option<Exit>,
    /// The most memory the bot held, measured before `goodbye`.
    pub peak_memory: Option<PeakMemory>,
    /// The end of the bot's stderr when the check was done with its process (after `goodbye`,
    /// or when it was stopped), lossily decoded; for failures at no request.
    pub stderr_end: String,
}

/// A handshake that succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// The name the bot gave.
    pub name: String,
    /// Whether it takes `event` messages (it may decline them in its hello).
    pub events: bool,
}

/// A message sent to the bot to see that it survives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// A message type it cannot know, and an event kind it cannot know when it takes events.
    Unknown {
        /// Whether an unknown event kind was sent too.
        event: bool,
    },
    /// An `error` message from the referee, about nothing the bot did.
    Error,
}

/// One match of the check.
#[derive(Clone, Debug)]
pub struct MatchFacts {
    /// 1-based.
    pub number: usize,
    /// The match seed.
    pub seed: u64,
    /// The bot's seat.
    pub seat: usize,
    /// What the bot wrote to its stderr before the match's first request (at its start, or
    /// since its last request of the previous match), which no decision's log record holds.
    pub before: Option<String>,
    /// Every request the bot was sent, in order.
    pub decisions: Vec<Decision>,
    /// The bot's faults outside any decision (at the start or the end of the match).
    pub other_faults: Vec<FaultRecord>,
    /// Whether the referee stopped the bot during the match.
    pub stopped: bool,
    /// The probes sent, by the index of the request (in this match) they came before.
    pub probes: Vec<(usize, Probe)>,
    /// Lines the bot wrote after its last request of the match and before the next match (or
    /// `goodbye`) that are not protocol messages, as faults.
    pub after: Vec<Fault>,
}

/// A bot whose process ended before `goodbye`, between matches.
#[derive(Clone, Debug, PartialEq)]
pub struct Gone {
    /// The match after whose end it was gone (1-based).
    pub after_match: usize,
    /// How it ended (an `exited` or `resource_limit` fault).
    pub how: Fault,
}

/// One request the bot was sent.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The decision of the match it was, as the match log numbers them (`n`: every seat's
    /// decisions, from 0; docs/match-log.md#decision-numbers).
    pub n: u64,
    /// The bot's own turn in the match, from 1 (its decisions the referee took for it count).
    pub turn: u64,
    /// The request's `id` on the wire (ids count the process's requests from 0).
    pub id: u64,
    /// The phase.
    pub phase: String,
    /// Whether the bot's answer was played (not substituted by the referee).
    pub answered: bool,
    /// How long the bot took, in milliseconds.
    pub ms: f64,
    /// The faults recorded while the referee waited for this answer, in order.
    pub faults: Vec<FaultRecord>,
    /// What the bot was told when the rules refused its answer with the game's own penalty
    /// ([`Game::refusal`](engine::Game::refusal)); `None` when the answer was played as sent.
    pub refused: Option<String>,
    /// What the bot wrote to its stderr during this request (since its previous one), as the
    /// match log records it; `None` when it wrote nothing.
    pub stderr: Option<String>,
}

/// How the bot ended after `goodbye` (or the end of its input) and the end of its input.
#[derive(Clone, Debug, PartialEq)]
pub struct Exit {
    /// Whether it exited by itself within the grace period (else it was killed).
    pub by_itself: bool,
    /// Milliseconds from `goodbye` until it was gone.
    pub ms: f64,
    /// How it exited when that was not with code 0 (a crash, a signal), as a fault.
    pub failure: Option<Fault>,
    /// Lines it wrote meanwhile that are not protocol messages, as faults.
    pub stray: Vec<Fault>,
}

impl Exit {
    /// The exit seen by [`ProcessBot::close`](crate::seat::ProcessBot::close), `ms` after the
    /// bot's input was closed.
    pub fn from_closing(closing: Closing, ms: f64) -> Self {
        Exit {
            by_itself: closing.exit.is_some(),
            ms,
            failure: closing.exit.and_then(Result::err),
            stray: closing.stray,
        }
    }
}

impl MatchFacts {
    /// The facts of match `number` from its record and its in-memory log, for the bot in
    /// `seat`, whose first request in this match had id `first_id`; `refused` are the
    /// decisions the rules refused, by decision number, with their messages.
    pub fn from_match(
        number: usize,
        seat: usize,
        first_id: u64,
        record: &MatchRecord,
        log: &[LogRecord],
        refused: &[(u64, String)],
        probes: Vec<(usize, Probe)>,
    ) -> Self {
        let mine = |f: &&FaultRecord| f.seat == seat;
        let faults = &record.faults;
        let mut decisions = Vec::new();
        let mut turn = 0;
        // A decision's stderr is logged just before its action.
        let mut stderr: Option<(u64, String)> = None;
        for entry in log {
            match entry {
                LogRecord::Stderr {
                    n, seat: s, text, ..
                } if *s == seat => stderr = Some((*n, text.clone())),
                LogRecord::Action {
                    n,
                    seat: s,
                    phase,
                    substituted,
                    ms,
                    ..
                } if *s == seat => {
                    turn += 1;
                    let at: Vec<FaultRecord> = faults
                        .iter()
                        .filter(mine)
                        .filter(|f| f.decision == Some(*n))
                        .cloned()
                        .collect();
                    let written = stderr
                        .take()
                        .filter(|(at, _)| at == n)
                        .map(|(_, text)| text);
                    // A decision the referee took without a fault at it was never asked: the
                    // bot had been stopped before.
                    if *substituted && at.is_empty() {
                        continue;
                    }
                    decisions.push(Decision {
                        n: *n,
                        turn,
                        id: first_id + decisions.len() as u64,
                        phase: phase.clone(),
                        answered: !substituted,
                        ms: *ms,
                        faults: at,
                        refused: refused
                            .iter()
                            .find(|(decision, _)| decision == n)
                            .map(|(_, message)| message.clone()),
                        stderr: written,
                    });
                }
                _ => {}
            }
        }
        MatchFacts {
            number,
            seed: record.seed,
            seat,
            before: None,
            decisions,
            other_faults: faults
                .iter()
                .filter(mine)
                .filter(|f| f.decision.is_none())
                .cloned()
                .collect(),
            stopped: record.stats[seat].ejected,
            probes,
            after: Vec::new(),
        }
    }

    /// The probe sent before `decision` (an index into [`MatchFacts::decisions`]), if any.
    pub fn probe_at(&self, decision: usize) -> Option<Probe> {
        self.probes
            .iter()
            .find(|(at, _)| *at == decision)
            .map(|&(_, probe)| probe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::SeatStats;
    use protocol::FaultKind;

    fn action(n: u64, seat: usize, substituted: bool) -> LogRecord {
        LogRecord::Action {
            n,
            seat,
            phase: "chip".into(),
            action: serde_json::json!({"table": 0}),
            substituted,
            ms: 0.5,
            overrun: false,
            cpu_ms: None,
        }
    }

    #[test]
    fn requests_are_the_bots_decisions_it_was_asked() {
        let fault = |decision: Option<u64>, kind| FaultRecord {
            seat: 1,
            decision,
            turn: None,
            phase: None,
            outside: None,
            fault: kind,
            message: String::new(),
            line: None,
        };
        let record = MatchRecord {
            match_id: "m".into(),
            game: "vabanque".into(),
            seed: 9,
            players: vec!["a".into(), "b".into()],
            scores: vec![0, 0],
            ranks: vec![1, 1],
            faults: vec![
                fault(Some(1), FaultKind::Timeout),
                fault(Some(3), FaultKind::Exited),
                fault(None, FaultKind::WriteFailed),
            ],
            stats: vec![
                SeatStats::default(),
                SeatStats {
                    ejected: true,
                    ..SeatStats::default()
                },
            ],
            duration_ms: 1.0,
            internal_error: None,
        };
        // Seat 1 answers decision 1 late, crashes at 3 (writing its last words to stderr), and
        // the referee plays 5 for it.
        let mut log: Vec<LogRecord> = (0..6)
            .map(|n| action(n, (n % 2) as usize, n % 2 == 1))
            .collect();
        let words = |seat| LogRecord::Stderr {
            n: 3,
            seat,
            text: format!("seat {seat}'s words\n"),
            cut: 0,
        };
        log.insert(3, words(1));
        log.insert(2, words(0));
        let refused = [(3, "told".to_string())];
        let facts =
            MatchFacts::from_match(2, 1, 40, &record, &log, &refused, vec![(1, Probe::Error)]);
        let ids: Vec<u64> = facts.decisions.iter().map(|d| d.id).collect();
        assert_eq!(ids, [40, 41], "decision 5 was never asked");
        assert!(facts.decisions.iter().all(|d| !d.answered));
        assert_eq!(facts.decisions[1].faults[0].fault, FaultKind::Exited);
        assert_eq!(facts.decisions[0].refused, None);
        assert_eq!(facts.decisions[1].refused.as_deref(), Some("told"));
        assert_eq!(facts.decisions[0].stderr, None);
        assert_eq!(
            facts.decisions[1].stderr.as_deref(),
            Some("seat 1's words\n"),
            "its own, not another seat's"
        );
        assert_eq!(facts.other_faults.len(), 1);
        assert!(facts.stopped);
        assert_eq!(facts.seed, 9);
        assert_eq!(facts.probe_at(1), Some(Probe::Error));
    }
}
