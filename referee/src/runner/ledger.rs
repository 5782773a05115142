//! One seat's fault ledger for one match: it counts the seat's faults and says what each costs
//! under the fault policy — whether the bot is stopped, whether it forfeits, and the words the
//! fault's message ends with. Pure: no I/O.
//!
//! The match runner charges every fault here and then does the I/O (telling the bot, stopping
//! it, logging); `referee replay` charges the faults of a log here too, so the two keep the
//! same books.

use super::policy::FaultPolicy;
use protocol::FaultKind;

/// When a fault happened, as far as its cost goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAt {
    /// Before the match's first decision: the bot is not there (it never started, or was
    /// stopped in an earlier match).
    Start,
    /// At the given decision (0-based index in the match).
    Decision(u64),
    /// After the last decision: the bot could not take its `match_end`.
    End,
}

/// The note of a bot absent at the start that forfeits.
const ABSENT_FORFEITS: &str =
    "; the bot forfeits the match (ranked last) and the referee plays for its seat";
/// The note of a bot absent at the start.
const ABSENT: &str = "; the referee plays for this seat";
/// The note of a fault that forfeits.
const FORFEITS: &str = "; the bot forfeits the match (ranked last) and the referee plays for it for the rest of the match";
/// The note of a fault after which the bot cannot play on.
const TERMINAL: &str = "; the referee plays for this seat for the rest of the match";
/// The note of the fault that reached the limit.
const LIMIT_REACHED: &str = "; fault limit reached: the bot is stopped and the referee plays for it for the rest of the match";

/// The words a fault's message ends with when it costs more than the decision (a
/// [`Charge::note`]), the longest first; a summary of faults leaves them out, to group messages
/// by what happened.
pub const COST_NOTES: [&str; 5] = [FORFEITS, LIMIT_REACHED, ABSENT_FORFEITS, TERMINAL, ABSENT];

/// What one fault costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    /// The bot is stopped and the referee plays for its seat for the rest of the match.
    pub eject: bool,
    /// The bot forfeits the match (ranked below every bot that did not).
    pub forfeit: bool,
    /// The words the fault's message ends with, saying the cost ("" when it costs only the
    /// decision).
    pub note: &'static str,
}

impl Charge {
    /// The fault's message `what` with the cost said after it.
    pub fn message(&self, what: &str) -> String {
        format!("{what}{}", self.note)
    }
}

/// One seat's faults in one match.
#[derive(Clone, Debug)]
pub struct SeatLedger {
    policy: FaultPolicy,
    max_faults: u32,
    /// Faults at decisions, which count toward `max_faults`.
    counted: u32,
    stopped: bool,
    forfeited: bool,
    /// The last decision the seat faulted at.
    faulted_at: Option<u64>,
}

impl SeatLedger {
    /// A clean ledger under `policy`, the bot stopped at its `max_faults`-th counted fault.
    pub fn new(policy: FaultPolicy, max_faults: u32) -> Self {
        SeatLedger {
            policy,
            max_faults,
            counted: 0,
            stopped: false,
            forfeited: false,
            faulted_at: None,
        }
    }

    /// Charges a fault of `kind` committed `at`, and says what it costs.
    pub fn charge(&mut self, kind: FaultKind, at: FaultAt) -> Charge {
        let charge = match at {
            FaultAt::Start => {
                let forfeit = self.policy.forfeits_absent();
                Charge {
                    eject: true,
                    forfeit,
                    note: if forfeit { ABSENT_FORFEITS } else { ABSENT },
                }
            }
            FaultAt::Decision(n) => {
                self.counted += 1;
                self.faulted_at = Some(n);
                let eject = self.policy.stops(kind, self.counted, self.max_faults);
                let forfeit = self.policy.forfeits(kind);
                let note = if forfeit {
                    FORFEITS
                } else if !eject {
                    ""
                } else if kind.is_terminal() {
                    TERMINAL
                } else {
                    LIMIT_REACHED
                };
                Charge {
                    eject,
                    forfeit,
                    note,
                }
            }
            // Play is over: the bot is stopped, and that changes nothing in the match.
            FaultAt::End => Charge {
                eject: true,
                forfeit: false,
                note: "",
            },
        };
        self.stopped |= charge.eject;
        self.forfeited |= charge.forfeit;
        charge
    }

    /// Whether the bot has been stopped: the referee plays for its seat.
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Whether the bot forfeited the match.
    pub fn has_forfeited(&self) -> bool {
        self.forfeited
    }

    /// How many more faults at decisions the bot may commit before it is stopped.
    pub fn faults_left(&self) -> u32 {
        self.max_faults.saturating_sub(self.counted)
    }

    /// Whether the referee may have played decision `n` for the seat: the bot was stopped, or
    /// it faulted at that decision.
    pub fn explains_substitution(&self, n: u64) -> bool {
        self.stopped || self.faulted_at == Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Penalty;

    #[test]
    fn faults_count_until_the_limit_stops_the_bot() {
        let mut ledger = SeatLedger::new(FaultPolicy::default(), 3);
        for n in 0..2 {
            let charge = ledger.charge(FaultKind::IllegalAction, FaultAt::Decision(n));
            assert_eq!(
                (charge.eject, charge.forfeit, charge.note),
                (false, false, "")
            );
            assert!(ledger.explains_substitution(n) && !ledger.explains_substitution(n + 1));
        }
        assert_eq!(ledger.faults_left(), 1);
        let third = ledger.charge(FaultKind::Timeout, FaultAt::Decision(5));
        assert!(third.eject && !third.forfeit);
        assert_eq!(
            third.message("late"),
            "late; fault limit reached: the bot is stopped and the referee plays for it for the rest of the match"
        );
        assert!(ledger.is_stopped() && !ledger.has_forfeited());
        assert!(ledger.explains_substitution(9));
        assert_eq!(ledger.faults_left(), 0);
    }

    #[test]
    fn a_crash_stops_at_once_and_forfeits_by_the_policy() {
        let mut ledger = SeatLedger::new(FaultPolicy::default(), 3);
        let charge = ledger.charge(FaultKind::Exited, FaultAt::Decision(0));
        assert!(charge.eject && charge.forfeit && ledger.has_forfeited());
        assert!(charge.note.contains("forfeits the match"));
        let lenient = FaultPolicy {
            crash: Penalty::Substitute,
            ..FaultPolicy::default()
        };
        let mut ledger = SeatLedger::new(lenient, 3);
        let charge = ledger.charge(FaultKind::Exited, FaultAt::Decision(0));
        assert!(charge.eject && !charge.forfeit);
        assert_eq!(
            charge.note,
            "; the referee plays for this seat for the rest of the match"
        );
    }

    #[test]
    fn a_forfeiting_class_stops_the_bot_on_its_first_fault() {
        let strict = FaultPolicy {
            illegal: Penalty::Forfeit,
            ..FaultPolicy::default()
        };
        let mut ledger = SeatLedger::new(strict, 3);
        let charge = ledger.charge(FaultKind::WrongShape, FaultAt::Decision(2));
        assert!(charge.eject && charge.forfeit);
        assert!(ledger.is_stopped() && ledger.has_forfeited());
    }

    #[test]
    fn an_absent_bot_is_stopped_and_a_failed_match_end_costs_nothing_more() {
        let mut ledger = SeatLedger::new(FaultPolicy::default(), 3);
        let start = ledger.charge(FaultKind::SpawnFailed, FaultAt::Start);
        assert!(start.eject && start.forfeit);
        assert_eq!(
            start.note,
            "; the bot forfeits the match (ranked last) and the referee plays for its seat"
        );
        assert_eq!(ledger.faults_left(), 3, "a start-up fault is not counted");
        let mut ledger = SeatLedger::new(FaultPolicy::default(), 3);
        let end = ledger.charge(FaultKind::WriteFailed, FaultAt::End);
        assert_eq!((end.eject, end.forfeit, end.note), (true, false, ""));
        assert!(!ledger.has_forfeited());
    }
}
