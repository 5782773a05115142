//! A bot's stderr budget: how many bytes the referee reads of it per decision and per match.
//!
//! The drain ([`super::drain`]) asks the [`StderrGate`] how much it may read; once the budget
//! of the window is spent it stops reading, so the pipe fills and the bot's next write waits —
//! in the bot's own time, never the referee's or another bot's. A window opens when the bot
//! starts (its start-up), at each match (which also refills the match's budget), at each of its
//! requests, and when it is ended (its goodbye, then what its pipe holds once it is gone:
//! [`StderrGate::open_ending`]). What went over is counted for the match's record
//! ([`StderrOverflow`]). The gate also ends the drain's pauses between small reads
//! ([`super::super::pace`]) when the referee wants what the pipe holds now
//! ([`StderrGate::hurry`]).

use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::Notify;
use tokio::time::Instant;

/// How many bytes of a bot's stderr the referee reads; `None`: no bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StderrBudget {
    /// Per window: from one of the bot's requests to its next (its start-up, and its goodbye,
    /// are windows too).
    pub per_decision: Option<u64>,
    /// Per match: from its `match_start` to the next.
    pub per_match: Option<u64>,
}

/// What of a bot's stderr went over what the referee reads or keeps, in one match: said once in
/// the match's record (a seat's `stderr` in `matches.jsonl`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StderrOverflow {
    /// How many times the referee stopped reading because the bot's budget was spent while it
    /// had more to write: the bot then waited on its own writes until its next request (or
    /// match).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stops: u64,
    /// Bytes read and not saved, because its stderr file was full (past its cap).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u64,
}

/// What is left of a window or a match without a bound: it is never spent.
const UNBOUNDED: u64 = u64::MAX;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The budget of one bot process's stderr as it is spent, shared by the bot (which opens the
/// windows) and the task draining its stderr (which spends them).
#[derive(Clone)]
pub struct StderrGate(Arc<Shared>);

struct Shared {
    state: Mutex<State>,
    /// Told when a window opens, or when the referee hurries the drain (one waiter: the
    /// drain).
    opened: Notify,
}

struct State {
    budget: StderrBudget,
    /// Bytes left to read in this window.
    window: u64,
    /// Bytes left to read in this match.
    in_match: u64,
    /// Whether the bot is being ended: the match's budget no longer applies.
    ending: bool,
    /// Whether the drain holds a byte it may not take yet: the budget is spent and the bot
    /// has more to write.
    stopped: bool,
    /// What went over since the last take.
    overflow: StderrOverflow,
}

impl State {
    fn room(&self) -> u64 {
        if self.ending {
            self.window
        } else {
            self.window.min(self.in_match)
        }
    }
}

impl StderrGate {
    /// The gate of a bot that is starting: its start-up window open.
    pub fn new(budget: StderrBudget) -> Self {
        StderrGate(Arc::new(Shared {
            state: Mutex::new(State {
                budget,
                window: budget.per_decision.unwrap_or(UNBOUNDED),
                in_match: budget.per_match.unwrap_or(UNBOUNDED),
                ending: false,
                stopped: false,
                overflow: StderrOverflow::default(),
            }),
            opened: Notify::new(),
        }))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.0.state.lock().expect("stderr gate lock")
    }

    /// Opens a decision's window (the bot is about to be sent a request).
    pub fn open_decision(&self) {
        self.open(|state| state.window = state.budget.per_decision.unwrap_or(UNBOUNDED));
    }

    /// Opens a match: its budget refilled, and a window.
    pub fn open_match(&self) {
        self.open(|state| {
            state.in_match = state.budget.per_match.unwrap_or(UNBOUNDED);
            state.window = state.budget.per_decision.unwrap_or(UNBOUNDED);
        });
    }

    /// Opens the window of a bot being ended, of at least `bytes` (what its pipe holds once it
    /// is gone, or a decision's budget for its goodbye): the match's budget no longer applies.
    pub fn open_ending(&self, bytes: u64) {
        self.open(|state| {
            state.ending = true;
            // And the byte the drain holds, if it is stopped.
            state.window = state.window.max(bytes + u64::from(state.stopped));
        });
    }

    /// Opens a window as `change` says and wakes the drain: with room, the referee reads again
    /// from now on (not stopped, even before the drain has run).
    fn open(&self, change: impl FnOnce(&mut State)) {
        let mut state = self.state();
        change(&mut state);
        if state.room() > 0 {
            state.stopped = false;
        }
        drop(state);
        self.0.opened.notify_one();
    }

    /// Asks the drain to read what the pipe holds now, if it is pausing between small reads:
    /// the referee wants what the bot has written (at a decision's end, a match's, a fault).
    /// Called at the referee's own pace, so the reads it makes come on top of the pace's.
    pub fn hurry(&self) {
        self.0.opened.notify_one();
    }

    /// Waits until `at`, or until a window opens or the referee [hurries](Self::hurry) the
    /// drain, whichever comes first.
    pub(super) async fn pause_until(&self, at: Instant) {
        tokio::select! {
            () = tokio::time::sleep_until(at) => {}
            () = self.0.opened.notified() => {}
        }
    }

    /// Whether the referee has stopped reading: the budget is spent and the bot has more to
    /// write (it waits on its writes).
    pub fn is_stopped(&self) -> bool {
        self.state().stopped
    }

    /// The budget, as configured.
    pub fn budget(&self) -> StderrBudget {
        self.state().budget
    }

    /// What went over since the last take (`None`: nothing), and starts counting again.
    pub fn take_overflow(&self) -> Option<StderrOverflow> {
        let overflow = std::mem::take(&mut self.state().overflow);
        (overflow != StderrOverflow::default()).then_some(overflow)
    }

    /// How many bytes the drain may read now.
    pub(super) fn room(&self) -> u64 {
        self.state().room()
    }

    /// Counts `n` bytes read.
    pub(super) fn spend(&self, n: u64) {
        let mut state = self.state();
        let spent = |left: u64| match left {
            UNBOUNDED => UNBOUNDED,
            left => left.saturating_sub(n),
        };
        state.window = spent(state.window);
        state.in_match = spent(state.in_match);
    }

    /// Counts `n` bytes read and not saved.
    pub(super) fn drop_bytes(&self, n: u64) {
        self.state().overflow.dropped += n;
    }

    /// Waits until a window with room opens; the drain holds a byte meanwhile, so a wait is a
    /// stop (counted once).
    pub(super) async fn wait_for_room(&self) {
        loop {
            {
                let mut state = self.state();
                if state.room() > 0 {
                    state.stopped = false;
                    return;
                }
                if !state.stopped {
                    state.stopped = true;
                    state.overflow.stops += 1;
                }
            }
            // A window opened since the look left a permit: this returns at once.
            self.0.opened.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(per_decision: u64, per_match: u64) -> StderrBudget {
        StderrBudget {
            per_decision: Some(per_decision),
            per_match: Some(per_match),
        }
    }

    #[test]
    fn a_window_is_the_smaller_of_what_is_left_of_the_decision_and_of_the_match() {
        let gate = StderrGate::new(budget(100, 250));
        assert_eq!(gate.room(), 100, "the start-up's window");
        gate.spend(100);
        assert_eq!(gate.room(), 0);
        gate.open_match();
        gate.spend(100);
        gate.open_decision();
        gate.spend(100);
        gate.open_decision();
        assert_eq!(gate.room(), 50, "what is left of the match");
        gate.spend(50);
        gate.open_decision();
        assert_eq!(gate.room(), 0, "the match's budget is spent");
        gate.open_match();
        assert_eq!(gate.room(), 100);
    }

    #[test]
    fn an_ending_window_ignores_the_match_and_never_shrinks_one_open() {
        let gate = StderrGate::new(budget(100, 100));
        gate.spend(100);
        gate.open_ending(30);
        assert_eq!(gate.room(), 30, "the match's budget no longer applies");
        gate.open_ending(10);
        assert_eq!(gate.room(), 30);
        gate.open_decision();
        assert_eq!(gate.room(), 100);
    }

    #[test]
    fn no_budget_is_no_bound() {
        let gate = StderrGate::new(StderrBudget::default());
        gate.spend(1 << 40);
        assert_eq!(gate.room(), UNBOUNDED);
    }

    #[test]
    fn stops_and_drops_are_taken_once() {
        let gate = StderrGate::new(budget(1, 10));
        assert_eq!(gate.take_overflow(), None);
        gate.drop_bytes(7);
        let taken = gate.take_overflow().unwrap();
        assert_eq!((taken.stops, taken.dropped), (0, 7));
        assert_eq!(gate.take_overflow(), None);
        let json = serde_json::to_string(&taken).unwrap();
        assert_eq!(json, r#"{"dropped":7}"#);
    }
}
