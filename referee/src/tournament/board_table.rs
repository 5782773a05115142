//! The leaderboard as text: its summary line, its columns (each with a title and the legend's
//! words for it), its rows of cells and the head-to-head matrix — formatted once, here, for
//! every rendering: the terminal's table and Markdown (`referee leaderboard`) and the HTML
//! report (`referee report`). The numbers come from [`standings`](super::standings); a format
//! with a table of its own gives its cells ([`Format::table`](super::format::Format::table)),
//! the ratings' are made here.

use super::board_cells::{StandingsTable, column, faults, fixed};
use super::format::candidate::CandidateStanding;
use super::format::own_standings::FormatStandings;
use super::legend::{self, Context};
use super::standings::{Leaderboard, Standing};
use crate::numbers::grouped;
use crate::untrusted;
use serde::Serialize;

pub use super::board_cells::Column;

/// The leaderboard as text cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardTable {
    /// What was played and how it is ordered, one line.
    pub summary: String,
    /// The standings' columns.
    pub columns: Vec<Column>,
    /// One row of cells per bot, best first, a cell per column.
    pub rows: Vec<Vec<String>>,
    /// What a reader must know before comparing the rows, a paragraph each, shown under the
    /// standings (with or without the legend).
    pub notes: Vec<String>,
    /// The head-to-head matrix: the title of its first column, then a row per bot (its name,
    /// then a cell per bot in the same order: `80% of 120`, `-` on the diagonal and where two
    /// bots never met).
    pub head_to_head: Vec<Vec<String>>,
}

impl BoardTable {
    /// The legend, once per meaning: the columns in order, a run of neighbours with the same
    /// words (the rounds of a format played in rounds) given as one, titled `first … last`.
    pub fn legend(&self) -> Vec<Column> {
        let mut legend: Vec<Column> = Vec::new();
        for c in &self.columns {
            match legend.last_mut() {
                Some(last) if last.legend == c.legend => {
                    let first = last.title.split(" … ").next().unwrap_or_default();
                    last.title = format!("{first} … {}", c.title);
                }
                _ => legend.push(c.clone()),
            }
        }
        legend
    }

    /// The header row and the standings' rows, as a renderer of plain tables wants them.
    pub fn standings_with_header(&self) -> Vec<Vec<String>> {
        let header = self.columns.iter().map(|c| c.title.clone()).collect();
        std::iter::once(header)
            .chain(self.rows.iter().cloned())
            .collect()
    }
}

/// The leaderboard `board` as text: its format's own table, or the ratings'.
pub fn board_table(board: &Leaderboard) -> BoardTable {
    let StandingsTable {
        summary,
        columns,
        rows,
        notes,
    } = board
        .format
        .format()
        .table(board)
        .unwrap_or_else(|| rating_table(board));
    BoardTable {
        summary,
        columns,
        rows,
        notes,
        head_to_head: head_to_head(board),
    }
}

/// The standings by rating; a gauntlet's candidate marked, with the note that says what it is
/// ranked by.
fn rating_table(board: &Leaderboard) -> StandingsTable {
    let context = Context {
        score_name: &board.score_name,
        higher_is_better: board.higher_is_better,
    };
    let candidate = candidate_of(board);
    let mut rows: Vec<Vec<String>> = board.standings.iter().map(rating_row).collect();
    if let Some(c) = candidate {
        for row in rows.iter_mut().filter(|row| row[1] == c.bot) {
            row[2] = format!("{:.2} *", c.rank_rating);
        }
    }
    StandingsTable {
        summary: format!(
            "{}: {} of {} scheduled matches; ordered by the conservative rating μ − 3σ (Weng-Lin){}",
            board.game,
            board.matches,
            board.scheduled,
            match candidate {
                Some(_) => ", the candidate's at the others' median σ (*)",
                None => "",
            }
        ),
        columns: rating_columns(&context, candidate.is_some()),
        rows,
        notes: candidate.map(legend::candidate_note).into_iter().collect(),
    }
}

/// A gauntlet's candidate as its leaderboard ranks it, if `board` is a gauntlet's.
fn candidate_of(board: &Leaderboard) -> Option<&CandidateStanding> {
    match &board.format_standings {
        Some(FormatStandings::Gauntlet(c)) => Some(c),
        _ => None,
    }
}

/// The leaderboard `board` as CSV rows (a header, then a row per bot, every text cell
/// escaped for CSV): its format's own, or the ratings'.
pub fn board_csv(board: &Leaderboard) -> Vec<Vec<String>> {
    board
        .format
        .format()
        .csv(board)
        .unwrap_or_else(|| rating_csv(board))
}

/// The standings by rating as CSV rows; a gauntlet's with two more columns: the rating each
/// bot is ranked by (the candidate's at the others' σ) and which bot is the candidate.
fn rating_csv(board: &Leaderboard) -> Vec<Vec<String>> {
    let candidate = candidate_of(board);
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
    let opt = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    let mut rows = vec![header.map(String::from).to_vec()];
    if candidate.is_some() {
        rows[0].extend(["rank_rating", "candidate"].map(String::from));
    }
    for s in &board.standings {
        let mut row = vec![
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
        ];
        if let Some(c) = candidate {
            let is_candidate = s.bot == c.bot;
            let rating = if is_candidate {
                c.rank_rating
            } else {
                s.conservative
            };
            row.extend([rating.to_string(), is_candidate.to_string()]);
        }
        rows.push(row);
    }
    rows
}

/// The columns by rating; a gauntlet's (`gauntlet`) say how its candidate is ranked.
fn rating_columns(c: &Context<'_>, gauntlet: bool) -> Vec<Column> {
    let (rank, rating, matches) = match gauntlet {
        true => (
            legend::GAUNTLET_RANK,
            legend::GAUNTLET_CONSERVATIVE,
            legend::GAUNTLET_MATCHES,
        ),
        false => (legend::RANK, legend::CONSERVATIVE, legend::MATCHES),
    };
    vec![
        column("rank", rank),
        column("bot", legend::BOT),
        column("rating μ−3σ", rating),
        column("μ ± σ", legend::MU_SIGMA),
        column("matches", matches),
        column("wins", legend::WINS),
        column("win rate", legend::WIN_RATE),
        column("mean rank", legend::MEAN_RANK),
        column(
            format!("mean {} (95% CI)", c.score_name),
            legend::mean_score(c),
        ),
        column("faults", legend::FAULTS),
        column("mean ms", legend::MEAN_MS),
        column("p99 ms", legend::P99_MS),
    ]
}

fn rating_row(s: &Standing) -> Vec<String> {
    vec![
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
        fixed(s.mean_ms),
        fixed(s.p99_ms),
    ]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_says_the_same_words_of_neighbouring_columns_once() {
        let table = BoardTable {
            summary: String::new(),
            columns: vec![
                column("VP", legend::VP),
                column("round 1", legend::ROUND),
                column("round 2", legend::ROUND),
                column("round 3", legend::ROUND),
                column("matches", legend::MATCHES),
            ],
            rows: Vec::new(),
            notes: Vec::new(),
            head_to_head: Vec::new(),
        };
        let titles: Vec<String> = table.legend().into_iter().map(|c| c.title).collect();
        assert_eq!(titles, ["VP", "round 1 … round 3", "matches"]);
    }
}
