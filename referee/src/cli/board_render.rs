//! Rendering a leaderboard: a table, JSON, CSV or Markdown. The numbers come from
//! `tournament::standings`, the cells of the table and Markdown from
//! `tournament::board_table`; this file only lays them out.

use super::args::BoardFormat;
use super::nava_render;
use crate::tournament::Leaderboard;
use crate::tournament::board_table::board_table;
use tabled::builder::Builder;
use tabled::settings::Style;

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
            let text = board_table(board);
            format!(
                "{}\n\n{}\n\nHead to head (how often the row bot finished above the column bot, of their meetings):\n\n{}\n",
                text.summary,
                table(text.standings_with_header(), md),
                table(text.head_to_head, md)
            )
        }
    }
}
