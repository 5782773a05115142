//! A Nava tournament's standings as the leaderboard shows them: the table of the terminal,
//! Markdown and the report (Victory Points, then a cell per round saying where the bot sat),
//! its CSV, and the Victory Points added up round by round (the report's chart). The numbers
//! come from [`standings`](super::standings).

use super::standings::{NavaRound, NavaStandings};
use crate::numbers::grouped;
use crate::tournament::board_cells::{Column, RoundTotals, StandingsTable, column, faults, fixed};
use crate::tournament::legend::{self, Context};
use crate::tournament::standings::Leaderboard;
use crate::untrusted;

/// The table of `board`, a Nava tournament's leaderboard with its Victory Points `nava`.
pub fn standings_table(board: &Leaderboard, nava: &NavaStandings) -> StandingsTable {
    let context = Context {
        score_name: &board.score_name,
        higher_is_better: board.higher_is_better,
    };
    StandingsTable {
        summary: summary(board, nava),
        columns: columns(&context, nava),
        rows: rows(board, nava),
        notes: match nava.together.is_empty() {
            true => Vec::new(),
            false => vec![legend::together_note(
                nava.rows.len(),
                nava.rounds,
                &nava.together,
            )],
        },
    }
}

/// The line above the table: what was played and how it is ordered.
fn summary(board: &Leaderboard, nava: &NavaStandings) -> String {
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

fn columns(c: &Context<'_>, nava: &NavaStandings) -> Vec<Column> {
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

/// The rows: rank, bot, VP, difference VP, match points, one cell per round, then matches,
/// faults and decision times.
fn rows(board: &Leaderboard, nava: &NavaStandings) -> Vec<Vec<String>> {
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

/// The standings as CSV rows: one line per bot, a table, seat and VP column per round (the VP
/// empty for a round not finished).
pub fn csv(board: &Leaderboard, nava: &NavaStandings) -> Vec<Vec<String>> {
    let mut header: Vec<String> = ["rank", "bot", "vp", "difference_vp", "mp"]
        .map(String::from)
        .to_vec();
    for r in 1..=nava.rounds {
        header.extend([
            format!("round{r}_table"),
            format!("round{r}_seat"),
            format!("round{r}_vp"),
        ]);
    }
    header.extend(["matches", "faults", "mean_ms", "p99_ms"].map(String::from));
    let mut rows = vec![header];
    let opt = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    for (row, s) in nava.rows.iter().zip(&board.standings) {
        let mut cells = vec![
            row.rank.to_string(),
            untrusted::csv::text(&row.bot),
            row.vp.to_string(),
            row.difference_vp.to_string(),
            row.mp.to_string(),
        ];
        for round in &row.rounds {
            cells.extend([
                round.table.to_string(),
                round.seat.letter().to_string(),
                round.result.map(|r| r.vp.to_string()).unwrap_or_default(),
            ]);
        }
        cells.extend([
            s.matches.to_string(),
            s.fault_total().to_string(),
            opt(s.mean_ms),
            opt(s.p99_ms),
        ]);
        rows.push(cells);
    }
    rows
}

/// Each bot's Victory Points added up round by round, in the order of the standings.
pub fn round_totals(nava: &NavaStandings) -> Vec<RoundTotals> {
    nava.rows
        .iter()
        .map(|row| RoundTotals {
            bot: row.bot.clone(),
            totals: row
                .rounds
                .iter()
                .scan(0, |total, round| {
                    *total += round.result.map_or(0, |r| r.vp);
                    Some(*total)
                })
                .collect(),
        })
        .collect()
}
