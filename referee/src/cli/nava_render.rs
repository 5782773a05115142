//! Rendering a Nava tournament's leaderboard: Victory Points per round and in total, where each
//! bot sat, beside the columns of the usual leaderboard that still apply. The numbers come from
//! `tournament::nava_standings`; this file only formats them.

use super::output::grouped;
use crate::tournament::Leaderboard;
use crate::tournament::nava_standings::{NavaRound, NavaStandings};

/// The line above the table: what was played and how it is ordered.
pub fn summary(board: &Leaderboard, nava: &NavaStandings) -> String {
    format!(
        "{}: {} of {} scheduled matches; Nava, {} rounds of {} hands at {} tables; ordered by Victory Points, then difference VP, then {} ({} first)\n",
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

/// A round's cell: its VP and where the bot sat (`14 (T2 N)`), `-` for the VP of a round not
/// finished.
fn round_cell(round: &NavaRound) -> String {
    let vp = round
        .result
        .map_or_else(|| "-".to_string(), |r| r.vp.to_string());
    format!("{vp} (T{} {})", round.table, round.seat.letter())
}

/// The standings as rows of text cells, header first: rank, bot, VP, difference VP, match
/// points, one column per round, then matches, faults and decision times.
pub fn rows(
    board: &Leaderboard,
    nava: &NavaStandings,
    faults: impl Fn(&crate::tournament::standings::Standing) -> String,
) -> Vec<Vec<String>> {
    let mut header: Vec<String> = ["rank", "bot", "VP", "diff VP"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    header.push(board.score_name.clone());
    header.extend((1..=nava.rounds).map(|r| format!("round {r}")));
    header.extend(["matches", "faults", "mean ms", "p99 ms"].map(String::from));
    let mut rows = vec![header];
    for (row, s) in nava.rows.iter().zip(&board.standings) {
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
            ms(s.mean_ms),
            ms(s.p99_ms),
        ]);
        rows.push(cells);
    }
    rows
}

fn ms(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into())
}

/// The standings as CSV: one line per bot, a table, seat and VP column per round (the VP empty
/// for a round not finished).
pub fn csv(board: &Leaderboard, nava: &NavaStandings, field: impl Fn(&str) -> String) -> String {
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
    let mut out = header.join(",") + "\n";
    let opt = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    for (row, s) in nava.rows.iter().zip(&board.standings) {
        let mut cells = vec![
            row.rank.to_string(),
            field(&row.bot),
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
        out += &(cells.join(",") + "\n");
    }
    out
}
