//! Rendering a leaderboard: a table, JSON, CSV or Markdown. The numbers come from
//! `tournament::standings`; this file only formats them.

use super::args::BoardFormat;
use super::nava_render;
use super::output::grouped;
use crate::tournament::Leaderboard;
use tabled::builder::Builder;
use tabled::settings::Style;

const HEADER: [&str; 12] = [
    "rank",
    "bot",
    "rating μ−3σ",
    "μ ± σ",
    "matches",
    "wins",
    "win rate",
    "mean rank",
    "mean SCORE (95% CI)",
    "faults",
    "mean ms",
    "p99 ms",
];

fn faults(s: &crate::tournament::standings::Standing) -> String {
    use crate::runner::{FaultClass, class};
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

fn fixed(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into())
}

fn ms(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into())
}

/// The standings as rows of text cells, header first.
fn rows(board: &Leaderboard) -> Vec<Vec<String>> {
    let mut rows = vec![
        HEADER
            .iter()
            .map(|h| h.replace("SCORE", &board.score_name))
            .collect::<Vec<_>>(),
    ];
    for s in &board.standings {
        rows.push(vec![
            s.rank.to_string(),
            s.bot.clone(),
            format!("{:.2}", s.conservative),
            format!("{:.2} ± {:.2}", s.mu, s.sigma),
            s.matches.to_string(),
            format!("{}", (s.wins * 100.0).round() / 100.0),
            fixed(s.win_rate),
            fixed(s.mean_rank),
            match (s.mean_score, s.score_ci95) {
                (Some(mean), Some(ci)) => format!(
                    "{} ± {}",
                    grouped(mean.round() as i64),
                    grouped(ci.round() as i64)
                ),
                (Some(mean), None) => format!("{} ± -", grouped(mean.round() as i64)),
                _ => "-".into(),
            },
            faults(s),
            ms(s.mean_ms),
            ms(s.p99_ms),
        ]);
    }
    rows
}

/// The head-to-head matrix as rows: each cell is how often the row bot finished above the
/// column bot, and in how many meetings.
fn head_to_head(board: &Leaderboard) -> Vec<Vec<String>> {
    let mut header = vec!["row above column".to_string()];
    header.extend(board.standings.iter().map(|s| s.bot.clone()));
    let mut rows = vec![header];
    for (i, s) in board.standings.iter().enumerate() {
        let mut row = vec![s.bot.clone()];
        for (j, cell) in board.head_to_head[i].iter().enumerate() {
            row.push(if i == j || cell.met == 0 {
                "-".into()
            } else {
                format!("{:.0}% of {}", cell.above * 100.0, cell.met)
            });
        }
        rows.push(row);
    }
    rows
}

fn table(rows: Vec<Vec<String>>, markdown: bool) -> String {
    let mut builder = Builder::default();
    for row in rows {
        builder.push_record(row);
    }
    let mut table = builder.build();
    if markdown {
        table.with(Style::markdown());
    } else {
        table.with(Style::rounded());
    }
    table.to_string()
}

fn opt(v: Option<f64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// The leaderboard in `format`.
pub fn render(board: &Leaderboard, format: BoardFormat) -> String {
    let summary = format!(
        "{}: {} of {} scheduled matches; ordered by the conservative rating μ − 3σ (Weng-Lin)\n",
        board.game, board.matches, board.scheduled
    );
    match format {
        BoardFormat::Json => {
            serde_json::to_string_pretty(board).expect("leaderboards serialize") + "\n"
        }
        BoardFormat::Csv if board.nava.is_some() => {
            nava_render::csv(board, board.nava.as_ref().expect("a Nava board"), csv_field)
        }
        BoardFormat::Csv => {
            let header = [
                "rank",
                "bot",
                "conservative",
                "mu",
                "sigma",
                "matches",
                "wins",
                "win_rate",
                "mean_rank",
                "mean_score",
                "score_ci95",
                "faults",
                "mean_ms",
                "p99_ms",
            ];
            let mut out = header.join(",") + "\n";
            for s in &board.standings {
                let cells = [
                    s.rank.to_string(),
                    csv_field(&s.bot),
                    s.conservative.to_string(),
                    s.mu.to_string(),
                    s.sigma.to_string(),
                    s.matches.to_string(),
                    s.wins.to_string(),
                    opt(s.win_rate),
                    opt(s.mean_rank),
                    opt(s.mean_score),
                    opt(s.score_ci95),
                    s.fault_total().to_string(),
                    opt(s.mean_ms),
                    opt(s.p99_ms),
                ];
                out += &(cells.join(",") + "\n");
            }
            out
        }
        BoardFormat::Table | BoardFormat::Markdown => {
            let md = format == BoardFormat::Markdown;
            let (summary, standings) = match &board.nava {
                Some(nava) => (
                    nava_render::summary(board, nava),
                    nava_render::rows(board, nava, faults),
                ),
                None => (summary, rows(board)),
            };
            format!(
                "{summary}\n{}\n\nHead to head (how often the row bot finished above the column bot, of their meetings):\n\n{}\n",
                table(standings, md),
                table(head_to_head(board), md)
            )
        }
    }
}
