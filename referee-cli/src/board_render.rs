//! Rendering a leaderboard: a table, JSON, CSV or Markdown. The numbers come from
//! `tournament::standings`, the cells of the table, Markdown and CSV and the legend under them
//! (what each column means, from `tournament::legend`) from `tournament::board_table`; this
//! file only lays them out, every text escaped for where it goes ([`untrusted`]: a name, a
//! command or a message may be a bot's, and a results directory anyone's).

use super::args::BoardFormat;
use referee::tournament::Leaderboard;
use referee::tournament::board_table::{Column, board_csv, board_table};
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

/// The notes under the standings (what a reader must know before comparing the rows), each a
/// paragraph: wrapped for the terminal, as they are for Markdown; "" for none.
fn notes_text(notes: &[String], markdown: bool) -> String {
    let mut out = String::new();
    for note in notes {
        out.push('\n');
        if markdown {
            out += &escaped(note, true);
            out.push('\n');
            continue;
        }
        let options = textwrap::Options::new(LEGEND_WIDTH)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        for line in textwrap::wrap(&untrusted::line(note), options) {
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
        BoardFormat::Csv => untrusted::csv::table(board_csv(board)),
        BoardFormat::Table | BoardFormat::Markdown => {
            let md = format == BoardFormat::Markdown;
            let text = board_table(board);
            let words = match legend {
                Legend::Shown => format!("\n{}", legend_text(&text.legend(), md)),
                Legend::Hidden => String::new(),
            };
            format!(
                "{}\n\n{}\n{}{words}\nHead to head (how often the row bot finished above the column bot, of their meetings):\n\n{}\n",
                escaped(&text.summary, md),
                table(text.standings_with_header(), md),
                notes_text(&text.notes, md),
                table(text.head_to_head, md)
            )
        }
    }
}
