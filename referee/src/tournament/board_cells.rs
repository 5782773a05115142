//! What every table of the leaderboard is made of: its columns (a title and the legend's words
//! for it) and the cells of the columns that every format shows (faults, decision times). The
//! ratings' table is [`board_table`](super::board_table)'s; a format with a table of its own
//! builds it of these ([`Format::table`](super::format::Format::table)).

use super::standings::Standing;
use crate::runner::{FaultClass, class};
use serde::Serialize;

/// One column of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Column {
    /// Its title.
    pub title: String,
    /// What it means, in plain words.
    pub legend: String,
}

/// A table of the standings as text: what was played and how it is ordered, the columns, a
/// row of cells per bot (best first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsTable {
    /// What was played and how it is ordered, one line.
    pub summary: String,
    /// The columns.
    pub columns: Vec<Column>,
    /// One row of cells per bot, best first, a cell per column.
    pub rows: Vec<Vec<String>>,
    /// What a reader must know before comparing the rows (a gauntlet's candidate, pairs a
    /// Nava movement keeps together), a paragraph each, shown under the table.
    pub notes: Vec<String>,
}

/// One bot's points added up round by round (a format played in rounds: the report's chart).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundTotals {
    /// The bot.
    pub bot: String,
    /// Its total after round 1, 2, … (a round not finished at its table adds nothing).
    pub totals: Vec<u32>,
}

/// The column `title`, meaning `legend`.
pub fn column(title: impl Into<String>, legend: impl Into<String>) -> Column {
    Column {
        title: title.into(),
        legend: legend.into(),
    }
}

/// A bot's faults: the total, split by the classes of the fault policy, and its forfeits.
pub fn faults(s: &Standing) -> String {
    let total = s.fault_total();
    if total == 0 {
        return "0".into();
    }
    let count = |wanted: FaultClass| {
        s.faults
            .iter()
            .filter(|(k, _)| class(**k) == wanted)
            .map(|(_, n)| n)
            .sum::<u64>()
    };
    let forfeits = if s.forfeits > 0 {
        format!("; {} forfeits", s.forfeits)
    } else {
        String::new()
    };
    format!(
        "{total} ({} timeouts, {} illegal, {} protocol, {} crashes{forfeits})",
        count(FaultClass::Timeout),
        count(FaultClass::Illegal),
        count(FaultClass::Protocol),
        count(FaultClass::Crash)
    )
}

/// Three decimals, or `-`.
pub fn fixed(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into())
}
