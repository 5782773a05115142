//! The result of a check: a verdict per checklist item and a one-line summary. The table and the
//! JSON output both render this one value.

use super::items::ItemId;
use crate::seat::PeakMemory;
use serde::Serialize;

/// The verdict on one item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The bot did what the item asks.
    Pass,
    /// It did not.
    Fail,
    /// The item could not really be checked: the bot was gone or stopped before it, or nothing
    /// came to judge (no answer accepted, no figure measured). Never a pass: a required item not
    /// run fails the check.
    NotRun,
    /// A figure, not a requirement.
    Info,
}

impl Verdict {
    /// The word printed in the table.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "ok",
            Verdict::Fail => "FAIL",
            Verdict::NotRun => "not run",
            Verdict::Info => "info",
        }
    }
}

/// The verdict on one item, with what was seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemReport {
    /// The item.
    pub item: ItemId,
    /// What it asks.
    pub title: &'static str,
    /// Whether the check passes only if it passes.
    pub required: bool,
    /// The verdict.
    pub verdict: Verdict,
    /// One line: the evidence for a pass, what came for a failure, why an item did not run.
    pub detail: String,
    /// For a failure: what was expected.
    pub expected: Option<String>,
    /// Where the rule is written (a file and section of the docs).
    pub doc: &'static str,
    /// For a failure: the bot's last stderr lines up to it, if it wrote any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr: Option<StderrLines>,
}

/// The last lines a bot wrote to its stderr up to a moment of the check (a failure's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StderrLines {
    /// Up to when: "decision 13 of match 1 (move, request id 40)", or "the end of its run".
    pub until: String,
    /// The lines, oldest first: at most [`STDERR_LINES_SHOWN`], none blank, each escaped
    /// for a terminal ([`untrusted::line`](crate::untrusted::line)) and cut to
    /// [`STDERR_LINE_CHARS`] characters.
    pub lines: Vec<String>,
    /// Whether the bot wrote more before them.
    pub earlier: bool,
}

/// The most stderr lines shown under a failure.
pub const STDERR_LINES_SHOWN: usize = 6;

/// The most characters of one stderr line shown under a failure (its start kept).
pub const STDERR_LINE_CHARS: usize = 200;

/// Decision times of the bot's answered requests, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DecisionTimes {
    /// Answers timed.
    pub decisions: usize,
    /// Mean.
    pub mean_ms: f64,
    /// 99th percentile (nearest rank).
    pub p99_ms: f64,
    /// Longest.
    pub max_ms: f64,
}

impl DecisionTimes {
    /// The statistics of `times`; `None` when there are none.
    pub fn of(times: &[f64]) -> Option<Self> {
        if times.is_empty() {
            return None;
        }
        let mut sorted = times.to_vec();
        sorted.sort_by(f64::total_cmp);
        let rank = ((0.99 * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        Some(DecisionTimes {
            decisions: sorted.len(),
            mean_ms: sorted.iter().sum::<f64>() / sorted.len() as f64,
            p99_ms: sorted[rank - 1],
            max_ms: sorted[sorted.len() - 1],
        })
    }
}

/// One match the bot played in the check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchPlayed {
    /// The match seed.
    pub seed: u64,
    /// The bot's seat.
    pub seat: usize,
}

/// The whole result of a check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The game.
    pub game: &'static str,
    /// The bot's command.
    pub command: String,
    /// Whether every required item passed.
    pub passed: bool,
    /// One line saying so.
    pub summary: String,
    /// Every item, in checklist order.
    pub items: Vec<ItemReport>,
    /// The seed the matches' seeds were derived from (`--seed`).
    pub seed: u64,
    /// The game's built-in bots it played against.
    pub opponents: Vec<String>,
    /// The matches played, in one process.
    pub matches: Vec<MatchPlayed>,
    /// The bot's decision times, if it answered any request.
    pub decision_times: Option<DecisionTimes>,
    /// The bot's peak memory, if it could be measured.
    pub peak_memory: Option<PeakMemory>,
}

impl Report {
    /// The report on `item`.
    ///
    /// # Panics
    /// Never for a report made by [`verdicts`](super::verdict::verdicts), which covers every item.
    pub fn item(&self, item: ItemId) -> &ItemReport {
        self.items
            .iter()
            .find(|r| r.item == item)
            .expect("a report covers every item")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p99_is_the_nearest_rank() {
        let times: Vec<f64> = (1..=200).map(f64::from).collect();
        let stats = DecisionTimes::of(&times).unwrap();
        assert_eq!(stats.p99_ms, 198.0);
        assert_eq!(stats.max_ms, 200.0);
        assert_eq!(stats.mean_ms, 100.5);
        assert_eq!(DecisionTimes::of(&[3.0]).unwrap().p99_ms, 3.0);
        assert_eq!(DecisionTimes::of(&[]), None);
    }
}
