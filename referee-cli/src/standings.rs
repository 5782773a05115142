//! Rendering a match record as a standings table (computation lives in the runner). Its names
//! and fault messages are a bot's or a results file's: shown escaped ([`referee::untrusted`]).

use super::output::grouped;
use referee::runner::{MatchRecord, Moment};
use referee::untrusted::{line, shown};
use tabled::settings::Style;
use tabled::{Table, Tabled};

#[derive(Tabled)]
struct Row {
    #[tabled(rename = "rank")]
    rank: u32,
    #[tabled(rename = "seat")]
    seat: usize,
    #[tabled(rename = "bot")]
    bot: String,
    #[tabled(rename = "score")]
    score: String,
    #[tabled(rename = "faults")]
    faults: usize,
    #[tabled(rename = "decisions")]
    decisions: String,
    #[tabled(rename = "mean ms")]
    mean_ms: String,
    #[tabled(rename = "max ms")]
    max_ms: String,
}

/// The standings table, best first, followed by one line per fault.
pub fn render(record: &MatchRecord, score_name: &str) -> String {
    let mut seats: Vec<usize> = (0..record.players.len()).collect();
    seats.sort_by_key(|&s| (record.ranks[s], s));
    let rows = seats.iter().map(|&s| {
        let stats = &record.stats[s];
        let answered = stats.decisions - stats.substituted;
        Row {
            rank: record.ranks[s],
            seat: s,
            bot: line(&record.players[s]).into_owned(),
            score: grouped(record.scores[s]),
            faults: record.fault_count(s),
            decisions: if stats.substituted > 0 {
                format!("{} ({} by referee)", stats.decisions, stats.substituted)
            } else {
                stats.decisions.to_string()
            },
            mean_ms: if answered > 0 {
                format!("{:.3}", stats.total_ms / answered as f64)
            } else {
                "-".into()
            },
            max_ms: if answered > 0 {
                format!("{:.3}", stats.max_ms)
            } else {
                "-".into()
            },
        }
    });
    let mut table = Table::new(rows);
    table.with(Style::rounded());
    table.modify((0, 3), score_name.to_string());
    let mut text = table.to_string();
    text.push('\n');
    for fault in &record.faults {
        let at = Moment::in_the_match(fault.when());
        text.push_str(&format!(
            "fault: {} (seat {}), {at}: {}: {}\n",
            shown(&record.players[fault.seat]),
            fault.seat,
            fault.fault,
            shown(&fault.message)
        ));
    }
    text
}
