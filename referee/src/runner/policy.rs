//! What a fault costs: the fault policy (`substitute` or `forfeit` per class of fault), the rule
//! that says when a bot is stopped, and the ranks of a match with forfeits.
//!
//! The match runner applies these rules and `referee replay` checks logs against the same
//! functions, so the two cannot drift apart.

use protocol::FaultKind;
use serde::{Deserialize, Serialize};

/// What a class of fault costs the bot (see `docs/time-controls.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Penalty {
    /// The referee plays the default action for the decision and the match goes on; the fault
    /// counts toward the fault limit.
    #[default]
    Substitute,
    /// The bot is out of the match: stopped, its remaining decisions substituted, and ranked
    /// below every bot that did not forfeit.
    Forfeit,
}

/// The classes of fault a policy distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultClass {
    /// No reply in time.
    Timeout,
    /// A reply that is not a legal action for the phase: wrong shape or against the rules.
    Illegal,
    /// A line that is not the awaited reply: not JSON, not a message, a stray id.
    Protocol,
    /// The bot cannot go on: it did not start, exited, broke the line cap, stopped reading, or
    /// was killed by a resource limit.
    Crash,
}

/// The class of a fault kind.
pub fn class(kind: FaultKind) -> FaultClass {
    match kind {
        FaultKind::Timeout => FaultClass::Timeout,
        FaultKind::IllegalAction | FaultKind::WrongShape => FaultClass::Illegal,
        FaultKind::Malformed | FaultKind::StaleId => FaultClass::Protocol,
        // Everything else leaves the bot unable to take part: the kinds listed once, in
        // `FaultKind::is_terminal`.
        _ => FaultClass::Crash,
    }
}

/// The penalty for each class of fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultPolicy {
    /// For a timeout [default: substitute].
    pub timeout: Penalty,
    /// For an illegal or wrongly shaped action [default: substitute].
    pub illegal: Penalty,
    /// For a stray line [default: substitute].
    pub protocol: Penalty,
    /// For a crash, a failed start or a killed process [default: forfeit].
    pub crash: Penalty,
}

impl Default for FaultPolicy {
    fn default() -> Self {
        FaultPolicy {
            timeout: Penalty::Substitute,
            illegal: Penalty::Substitute,
            protocol: Penalty::Substitute,
            crash: Penalty::Forfeit,
        }
    }
}

impl FaultPolicy {
    /// The penalty for a fault of `kind`.
    pub fn penalty(&self, kind: FaultKind) -> Penalty {
        match class(kind) {
            FaultClass::Timeout => self.timeout,
            FaultClass::Illegal => self.illegal,
            FaultClass::Protocol => self.protocol,
            FaultClass::Crash => self.crash,
        }
    }

    /// Whether a fault stops the bot for the rest of the match: it leaves no usable process, it
    /// forfeits the match, or it is the bot's `max_faults`-th counted fault of the match.
    pub fn stops(&self, kind: FaultKind, counted: u32, max_faults: u32) -> bool {
        kind.is_terminal() || counted >= max_faults || self.forfeits(kind)
    }

    /// Whether a fault of `kind` forfeits the match.
    pub fn forfeits(&self, kind: FaultKind) -> bool {
        self.penalty(kind) == Penalty::Forfeit
    }

    /// Whether a bot that is not there at the start of a match forfeits it. Whatever went wrong
    /// at start-up (no process, no `hello`, a `hello` that is garbage or of another protocol, a
    /// process stopped earlier), the seat has no bot: that is a crash.
    pub fn forfeits_absent(&self) -> bool {
        self.crash == Penalty::Forfeit
    }
}

/// The ranks of a match in which the seats marked in `forfeited` forfeited: the others keep the
/// order the game gave them (ties kept, ranks closed up), and the forfeits share the rank below
/// them all.
pub fn forfeit_ranks(ranks: &[u32], forfeited: &[bool]) -> Vec<u32> {
    let stayed: Vec<u32> = ranks
        .iter()
        .zip(forfeited)
        .filter(|(_, f)| !**f)
        .map(|(r, _)| *r)
        .collect();
    let last = stayed.len() as u32 + 1;
    ranks
        .iter()
        .zip(forfeited)
        .map(|(r, f)| {
            if *f {
                last
            } else {
                1 + stayed.iter().filter(|s| *s < r).count() as u32
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forfeits_rank_below_everyone_and_the_rest_close_up() {
        assert_eq!(
            forfeit_ranks(&[1, 2, 3, 4], &[true, false, false, false]),
            vec![4, 1, 2, 3]
        );
        assert_eq!(
            forfeit_ranks(&[2, 2, 1, 4], &[false, false, true, true]),
            vec![1, 1, 3, 3]
        );
        assert_eq!(forfeit_ranks(&[1, 2, 3], &[false; 3]), vec![1, 2, 3]);
        assert_eq!(forfeit_ranks(&[1, 2], &[true, true]), vec![1, 1]);
    }

    #[test]
    fn the_crash_class_is_exactly_the_terminal_kinds() {
        use FaultKind::*;
        for kind in [
            SpawnFailed,
            StartupTimeout,
            ProtocolMismatch,
            Timeout,
            Exited,
            Malformed,
            LineTooLong,
            WrongShape,
            StaleId,
            IllegalAction,
            WriteFailed,
            ResourceLimit,
        ] {
            assert_eq!(
                class(kind) == FaultClass::Crash,
                kind.is_terminal(),
                "{kind}"
            );
        }
    }

    #[test]
    fn the_default_policy_forfeits_crashes_and_substitutes_the_rest() {
        let policy = FaultPolicy::default();
        assert!(policy.forfeits(FaultKind::Exited));
        assert!(policy.forfeits(FaultKind::StartupTimeout));
        assert!(!policy.forfeits(FaultKind::Timeout));
        assert!(!policy.stops(FaultKind::IllegalAction, 2, 3));
        assert!(policy.stops(FaultKind::IllegalAction, 3, 3));
        let strict = FaultPolicy {
            timeout: Penalty::Forfeit,
            ..policy
        };
        assert!(strict.stops(FaultKind::Timeout, 1, 3));
    }
}
