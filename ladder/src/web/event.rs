//! The event around the standings, on the board: when submissions close (or that they are
//! closed), and the final tournament — its progress while it is played, its standings beside
//! the ladder's once it is.

use crate::service::{FinalView, Ladder, ServiceError};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

/// `GET /board/event`: the notes alone, for the board to put in place.
pub async fn live(State(ladder): State<Ladder>) -> Response {
    match notes(&ladder).await {
        Ok(notes) => super::layout::respond(notes),
        Err(error) => error.into_response(),
    }
}

/// The board's notes on the event: the deadline or freeze, and the final tournament.
///
/// # Errors
/// [`ServiceError::Store`].
pub async fn notes(ladder: &Ladder) -> Result<Markup, ServiceError> {
    let frozen = ladder.frozen().await?;
    let deadline = ladder.deadline().await?;
    let final_view = ladder.final_view().await?;
    let now = crate::service::now_ms();
    Ok(html! {
        @if frozen {
            p.notice { "The ladder is frozen: it takes no submission and plays no ranked match; these standings stay." }
        } @else if let Some(at) = deadline {
            p.notice {
                @if now >= at { "Submissions closed at " (crate::utc::show(at)) "." }
                @else { "Submissions close at " (crate::utc::show(at)) "." }
            }
        }
        @if let Some(f) = &final_view { (final_table(f)) }
    })
}

/// The final tournament: its progress, and its standings once played.
fn final_table(f: &FinalView) -> Markup {
    html! {
        section #final-standings {
            h2 { "Final tournament" }
            p.counts {
                (f.schedule) ", " (f.players) " per match, " (f.field.len()) " versions: "
                strong { (f.played) } " of " (f.matches) " matches played"
                @if f.done { " — final standings:" } @else { "; the standings come when it is played." }
            }
            @if f.done && !f.standings.is_empty() {
                div.scroll { table.board {
                    thead { tr {
                        th { "Rank" } th { "Version" } th title="μ − 3σ" { "μ − 3σ" } th { "μ ± σ" }
                        th { "Matches" } th { "Win rate" } th { "Faults" }
                    } }
                    tbody { @for s in &f.standings { tr {
                        td.num { (s.rank) }
                        td.name { a href={ "/bots/" (s.bot) } { (s.version) } }
                        td.num { (format!("{:.2}", s.conservative)) }
                        td.num { (format!("{:.1} ± {:.1}", s.mu, s.sigma)) }
                        td.num { (s.matches) }
                        td.num { (s.win_rate.map_or_else(|| "–".to_owned(), |w| format!("{:.0}%", w * 100.0))) }
                        td.num { (s.faults) }
                    } } }
                } }
            }
        }
    }
}
