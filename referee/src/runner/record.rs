//! What a finished match leaves: scores, ranks, faults and decision-time statistics.

use super::histogram::TimeHistogram;
use super::moment::{Moment, When};
use protocol::FaultKind;
use serde::{Deserialize, Serialize};

/// One recorded fault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FaultRecord {
    /// The seat at fault.
    pub seat: usize,
    /// The decision (0-based index in the match, across all seats: the log's `n`) it happened
    /// at; `None` at start-up or end.
    pub decision: Option<u64>,
    /// At a decision: the bot's own turn in the match, from 1 (its `decision`-th decision is
    /// its `turn`-th); `None` at start-up or end, and in results written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u64>,
    /// At a decision: the phase of the request (e.g. `"turn"`); `None` as [`FaultRecord::turn`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// Outside a decision: at start-up or at the end; `None` at a decision, and in results
    /// written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<Outside>,
    /// The kind.
    pub fault: FaultKind,
    /// What happened.
    pub message: String,
    /// The bot's line that was the fault, when a line was ([`Fault::line`](crate::seat::Fault)).
    /// Not serialized: results and logs keep the message, which quotes it.
    #[serde(skip)]
    pub line: Option<String>,
}

/// When a fault outside a decision happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outside {
    /// Before the match's first decision.
    Start,
    /// After its last.
    End,
}

impl FaultRecord {
    /// When in its match the fault happened.
    pub fn when(&self) -> When {
        match (self.decision, self.outside) {
            (Some(decision), _) => When::Turn {
                turn: self.turn,
                phase: self.phase.clone(),
                decision,
            },
            (None, Some(Outside::Start)) => When::Start,
            (None, Some(Outside::End)) => When::End,
            (None, None) => When::Outside,
        }
    }

    /// The fault's moment in match `match_id`.
    pub fn moment(&self, match_id: impl std::fmt::Display) -> Moment {
        Moment::new(match_id, self.when())
    }
}

/// Decision statistics of one seat.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatStats {
    /// Decisions the seat had to take.
    pub decisions: u64,
    /// Of those, how many the referee played for it (faults and ejection).
    pub substituted: u64,
    /// Total time the bot took to answer, in milliseconds.
    pub total_ms: f64,
    /// Longest answer, in milliseconds.
    pub max_ms: f64,
    /// Whether the bot was ejected (its process stopped) during the match.
    pub ejected: bool,
    /// Whether the bot forfeited the match (it is ranked last).
    #[serde(default)]
    pub forfeited: bool,
    /// Late replies accepted as soft overruns.
    #[serde(default)]
    pub overruns: u32,
    /// The bot's own decision times (substituted decisions excluded).
    pub times: TimeHistogram,
    /// The CPU time of its decisions, in milliseconds, where its control group accounts it:
    /// the sum of each decision's `cpu_ms` (see [`super::decision_time::DecisionTime::cpu_ms`]);
    /// with no match log on the wall basis, from its first request to the match's end, read
    /// twice per match (docs/time-controls.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
    /// The most CPU time one of its decisions used, in milliseconds, where each decision's is
    /// read (with a match log, or on the CPU basis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cpu_ms: Option<f64>,
    /// What of the bot's stderr went over its budget (the referee stopped reading) or its
    /// file's cap (dropped) during the match; absent when nothing did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<crate::seat::StderrOverflow>,
}

/// The result of one match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// The match's identifier.
    pub match_id: String,
    /// The game.
    pub game: String,
    /// The match seed.
    pub seed: u64,
    /// Player names by seat.
    pub players: Vec<String>,
    /// Final scores by seat.
    pub scores: Vec<i64>,
    /// Final ranks by seat (1 = best, ties shared).
    pub ranks: Vec<u32>,
    /// Every fault, in order.
    pub faults: Vec<FaultRecord>,
    /// Per-seat decision statistics.
    pub stats: Vec<SeatStats>,
    /// Wall-clock duration in milliseconds.
    pub duration_ms: f64,
    /// Why the match is void, when it is: the game itself failed (it refused to play an action
    /// it had accepted), so the match stopped there, charged to no bot; its scores are then all
    /// 0 and every seat is ranked 1. Absent from the JSON of every match that finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_error: Option<String>,
}

impl MatchRecord {
    /// Number of faults of `seat`.
    pub fn fault_count(&self, seat: usize) -> usize {
        self.faults.iter().filter(|f| f.seat == seat).count()
    }

    /// Whether the match is void (an [internal error](MatchRecord::internal_error) stopped
    /// it): its scores and ranks say nothing of the bots.
    pub fn is_void(&self) -> bool {
        self.internal_error.is_some()
    }
}
