//! The leaderboard as text: its summary line, its columns (each with a title and the legend's
//! words for it), its rows of cells and the head-to-head matrix — formatted once, here, for
//! every rendering: the terminal's table and Markdown (`referee leaderboard`) and the HTML
//! report (`referee report`). The numbers come from [`standings`](super::standings) and
//! [`nava_standings`](super::nava_standings).

use super::legend::{self, Context};
use super::nava_standings::{NavaRound, NavaStandings};
use super::standings::{Leaderboard, Standing};
use crate::numbers::grouped;
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

/// The leaderboard as text cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardTable {
    /// What was played and how it is ordered, one line.
    pub summary: String,
    /// The standings' columns.
    pub columns: Vec<Column>,
    /// One row of cells per bot, best first, a cell per column.
    pub rows: Vec<Vec<String>>,
    /// The head-to-head matrix: the title of its first column, then a row per bot (its name,
    /// then a cell per bot in the same order: `80% of 120`, `-` on the diagonal and where two
    /// bots never met).
    pub head_to_head: Vec<Vec<String>>,
}

impl BoardTable {
    /// The legend, once per meaning: the columns in order, a run of neighbours with the same
    /// words (a Nava tournament's rounds) given as one, titled `first … last`.
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

/// The leaderboard `board` as text.
pub fn board_table(board: &Leaderboard) -> BoardTable {
    let context = Context {
        score_name: &board.score_name,
        higher_is_better: board.higher_is_better,
    };
    let (summary, columns, rows) = match &board.nava {
        Some(nava) => (
            nava_summary(board, nava),
            nava_columns(&context, nava),
            nava_rows(board, nava),
        ),
        None => (
            format!(
                "{}: {} of {} scheduled matches; ordered by the conservative rating μ − 3σ (Weng-Lin)",
                board.game, board.matches, board.scheduled
            ),
            rating_columns(&context),
            board.standings.iter().map(rating_row).collect(),
        ),
    };
    BoardTable {
        summary,
        columns,
        rows,
        head_to_head: head_to_head(board),
    }
}

fn column(title: impl Into<String>, legend: impl Into<String>) -> Column {
    Column {
        title: title.into(),
        legend: legend.into(),
    }
}

fn rating_columns(c: &Context<'_>) -> Vec<Column> {
    vec![
        column("rank", legend::RANK),
        column("bot", legend::BOT),
        column("rating μ−3σ", legend::CONSERVATIVE),
        column("μ ± σ", legend::MU_SIGMA),
        column("matches", legend::MATCHES),
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

/// The line above a Nava tournament's table: what was played and how it is ordered.
fn nava_summary(board: &Leaderboard, nava: &NavaStandings) -> String {
    format!(
        "{}: {} of {} scheduled matches; Nava, {} rounds of {} hands at {} tables; ordered by Victory Points, then difference VP, then {} ({} first)",
        board.game,
        board.matches,
        board.scheduled,
        nava.rounds,
        nava.hands,
        nava.tables,
        board.score_name,
        if nava.higher_is_better {
            "most"
        } else {
            "fewest"
        }
    )
}

fn nava_columns(c: &Context<'_>, nava: &NavaStandings) -> Vec<Column> {
    let mut columns = vec![
        column("rank", legend::nava_rank(c)),
        column("bot", legend::BOT),
        column("VP", legend::VP),
        column("diff VP", legend::difference_vp(c)),
        column(c.score_name, legend::match_points(c)),
    ];
    columns.extend((1..=nava.rounds).map(|r| column(format!("round {r}"), legend::ROUND)));
    columns.extend([
        column("matches", legend::MATCHES),
        column("faults", legend::FAULTS),
        column("mean ms", legend::MEAN_MS),
        column("p99 ms", legend::P99_MS),
    ]);
    columns
}

/// A round's cell: its VP and where the bot sat (`14 (T2 N)`), `-` for the VP of a round not
/// finished.
fn round_cell(round: &NavaRound) -> String {
    let vp = round
        .result
        .map_or_else(|| "-".to_string(), |r| r.vp.to_string());
    format!("{vp} (T{} {})", round.table, round.seat.letter())
}

/// A Nava tournament's rows: rank, bot, VP, difference VP, match points, one cell per round,
/// then matches, faults and decision times.
fn nava_rows(board: &Leaderboard, nava: &NavaStandings) -> Vec<Vec<String>> {
    nava.rows
        .iter()
        .zip(&board.standings)
        .map(|(row, s)| {
            let mut cells = vec![
                row.rank.to_string(),
                row.bot.clone(),
                row.vp.to_string(),
                row.difference_vp.to_string(),
                grouped(row.mp),
            ];
            cells.extend(row.rounds.iter().map(round_cell));
            cells.extend([
                s.matches.to_string(),
                faults(s),
                fixed(s.mean_ms),
                fixed(s.p99_ms),
            ]);
            cells
        })
        .collect()
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

/// A bot's faults: the total, split by the classes of the fault policy, and its forfeits.
fn faults(s: &Standing) -> String {
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
fn fixed(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into())
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
            head_to_head: Vec::new(),
        };
        let titles: Vec<String> = table.legend().into_iter().map(|c| c.title).collect();
        assert_eq!(titles, ["VP", "round 1 … round 3", "matches"]);
    }
}
