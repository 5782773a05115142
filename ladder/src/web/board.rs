//! The board, `/`: every playing version ranked by μ − 3σ, its interval drawn, and a legend in
//! plain words; the table is fetched again every few seconds (`/board/rows`, the same markup)
//! and put in place without a reload. Its data as JSON: `GET /api/v1/standings`.

use super::layout;
use crate::service::{Ladder, StandingRow};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use referee::tournament::legend;

/// How often the page fetches the table again, in seconds.
pub const REFRESH_S: u32 = 5;

/// The columns: title, and what it means.
const COLUMNS: [(&str, &str); 7] = [
    (
        "#",
        "The version's place, best first: ordered by μ − 3σ (equal ratings by name).",
    ),
    ("bot", "The bot's name, as its owner submitted it."),
    ("owner", "Who submitted it."),
    (
        "version",
        "Which of the bot's versions plays: its newest that built and passed the check.",
    ),
    ("μ − 3σ", legend::CONSERVATIVE),
    (
        "interval",
        "μ − 3σ to μ + 3σ drawn on one scale for the whole board, the mark at μ: where the version's strength likely is. A short bar is a rating the ladder is sure of.",
    ),
    ("matches", "Ranked matches this version played."),
];

/// `GET /`: the board.
pub async fn page(State(ladder): State<Ladder>) -> Response {
    match ladder.standings().await {
        Ok(rows) => {
            let content = html! {
                h1 { "Standings" }
                p.live { "Updated every " (REFRESH_S) " seconds, without a reload. "
                    span #updated {} }
                section #board data-every=(REFRESH_S) { (table(&rows)) }
                h2 { "What the columns mean" }
                dl.legend {
                    @for (title, meaning) in COLUMNS {
                        dt { (title) }
                        dd { (meaning) }
                    }
                    dt { "μ ± σ" }
                    dd { (legend::MU_SIGMA) }
                }
            };
            layout::respond(layout::page("Ladder standings", content))
        }
        Err(error) => error.into_response(),
    }
}

/// `GET /board/rows`: the table alone, for the page to put in place.
pub async fn rows(State(ladder): State<Ladder>) -> Response {
    match ladder.standings().await {
        Ok(rows) => layout::respond(table(&rows)),
        Err(error) => error.into_response(),
    }
}

/// The scale every interval is drawn on: the lowest μ − 3σ and the highest μ + 3σ.
fn scale(rows: &[StandingRow]) -> (f64, f64) {
    let low = rows
        .iter()
        .map(|r| r.conservative)
        .fold(f64::INFINITY, f64::min);
    let high = rows
        .iter()
        .map(|r| r.high)
        .fold(f64::NEG_INFINITY, f64::max);
    if low.is_finite() && high > low {
        (low, high)
    } else {
        (0.0, 50.0)
    }
}

/// The table of `rows`.
fn table(rows: &[StandingRow]) -> Markup {
    let (low, high) = scale(rows);
    let at = |x: f64| format!("{:.2}", (x - low) / (high - low) * 100.0);
    html! {
        @if rows.is_empty() {
            p.empty { "No version plays yet: the board fills as versions pass their check." }
        } @else {
            table.board {
                thead { tr { @for (title, meaning) in COLUMNS { th title=(meaning) { (title) } } } }
                tbody {
                    @for row in rows {
                        tr {
                            td.num { (row.rank) }
                            td.name { (row.bot) }
                            td.name { (row.owner) }
                            td { (version_of(row)) }
                            td.num { (format!("{:.2}", row.conservative)) }
                            td.interval {
                                svg viewBox="0 0 100 10" preserveAspectRatio="none" role="img"
                                    aria-label=(format!("{:.2} to {:.2}, μ {:.2}", row.conservative, row.high, row.mu)) {
                                    line.axis x1="0" y1="5" x2="100" y2="5" {}
                                    rect.span x=(at(row.conservative)) y="3" height="4"
                                        width=(format!("{:.2}", (row.high - row.conservative) / (high - low) * 100.0)) {}
                                    line.mu x1=(at(row.mu)) y1="1" x2=(at(row.mu)) y2="9" {}
                                }
                            }
                            td.num { (row.matches) }
                        }
                    }
                }
            }
        }
    }
}

/// `vN` of a row's seat name `BOT.vN`.
fn version_of(row: &StandingRow) -> &str {
    row.name
        .strip_prefix(row.bot.as_str())
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or(&row.name)
}
