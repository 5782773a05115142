//! A Nava tournament's leaderboard as CSV: Victory Points per round and in total, where each
//! bot sat, beside the columns of the usual leaderboard that still apply. The numbers come from
//! `tournament::nava_standings`; the table and Markdown cells from `tournament::board_table`.

use referee::tournament::Leaderboard;
use referee::tournament::nava_standings::NavaStandings;
use referee::untrusted;

/// The standings as CSV: one line per bot, a table, seat and VP column per round (the VP empty
/// for a round not finished).
pub fn csv(board: &Leaderboard, nava: &NavaStandings) -> String {
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
    untrusted::csv::table(rows)
}
