//! Rendering a leaderboard: a table, JSON, CSV or Markdown. The numbers come from
//! `tournament::standings`, the cells of the table and Markdown and the legend under them (what
//! each column means, from `tournament::legend`) from `tournament::board_table`; this file only
//! lays them out, every text escaped for where it goes ([`untrusted`]: a name, a command or a
//! message may be a bot's, and a results directory anyone's).

use super::args::BoardFormat;
use super::nava_render;
use referee::tournament::Leaderboard;
use referee::tournament::board_table::{Column, board_table};
use referee::untrusted;
use tabled::builder::Builder;
use tabled::settings::Style;

/// The width the terminal legend is wrapped at (fixed, so that the output does not depend on
/// the terminal).
const LEGEND_WIDTH: usize = 100;

/// Whether a rendering of the table or Markdown has the legend under the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legend {
    /// What each column means, in plain words (the default).
    Shown,
    /// The tables alone (`--no-legend`).
    Hidden,
}

impl Legend {
    /// [`Legend::Hidden`] when `no_legend` is set.
    pub fn unless(no_legend: bool) -> Legend {
        if no_legend {
            Legend::Hidden
        } else {
            Legend::Shown
        }
    }
}

/// `text` (a bot's name, or a line that holds one) as the terminal or Markdown shows it:
/// escaped ([`untrusted`]).
pub fn escaped(text: &str, markdown: bool) -> String {
    if markdown {
        untrusted::markdown::text(text)
    } else {
        untrusted::line(text).into_owned()
    }
}

/// A plain or Markdown table of `rows`, the first being the header; every cell [`escaped`].
pub fn table(rows: Vec<Vec<String>>, markdown: bool) -> String {
    let mut builder = Builder::default();
    for row in rows {
        builder.push_record(row.iter().map(|cell| escaped(cell, markdown)));
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

/// What each of `columns` means: for the terminal, a title and its words wrapped beside it;
/// for Markdown, a list.
fn legend_text(columns: &[Column], markdown: bool) -> String {
    let mut out = String::from("What the columns mean:\n");
    if markdown {
        out.push('\n');
        for c in columns {
            out += &format!(
                "- **{}**: {}\n",
                escaped(&c.title, true),
                escaped(&c.legend, true)
            );
        }
        return out;
    }
    let title_width = columns
        .iter()
        .map(|c| c.title.chars().count())
        .max()
        .unwrap_or(0);
    let rest = " ".repeat(title_width + 4);
    for c in columns {
        let first = format!("  {:title_width$}  ", untrusted::line(&c.title));
        let options = textwrap::Options::new(LEGEND_WIDTH)
            .initial_indent(&first)
            .subsequent_indent(&rest)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        for line in textwrap::wrap(&untrusted::line(&c.legend), options) {
            out += line.trim_end();
            out.push('\n');
        }
    }
    out
}

/// The leaderboard in `format`; the table and Markdown with the legend under the standings
/// when `legend` is [`Legend::Shown`] (JSON and CSV never have it).
pub fn render(board: &Leaderboard, format: BoardFormat, legend: Legend) -> String {
    match format {
        BoardFormat::Json => {
            untrusted::json::to_string_pretty(board).expect("leaderboards serialize") + "\n"
        }
        BoardFormat::Csv if board.nava.is_some() => {
            nava_render::csv(board, board.nava.as_ref().expect("a Nava board"))
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
            let mut rows = vec![header.map(String::from).to_vec()];
            for s in &board.standings {
                rows.push(vec![
                    s.rank.to_string(),
                    untrusted::csv::text(&s.bot),
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
                ]);
            }
            untrusted::csv::table(rows)
        }
        BoardFormat::Table | BoardFormat::Markdown => {
            let md = format == BoardFormat::Markdown;
            let text = board_table(board);
            let words = match legend {
                Legend::Shown => format!("\n{}", legend_text(&text.legend(), md)),
                Legend::Hidden => String::new(),
            };
            format!(
                "{}\n\n{}\n{words}\nHead to head (how often the row bot finished above the column bot, of their meetings):\n\n{}\n",
                escaped(&text.summary, md),
                table(text.standings_with_header(), md),
                table(text.head_to_head, md)
            )
        }
    }
}
