//! The queue and the workers, `/queue`: jobs waiting and in hand with their leases, each
//! worker's jobs and matches of the last hour, and the platform's own troubles (what failed to
//! the admin), followed without a reload. Its data as JSON: `GET /api/v1/queue`.

use super::Web;
use super::layout;
use super::viewer::Viewer;
use crate::service::{QueueView, now_ms};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

/// How often the page asks again, in seconds.
const EVERY_S: u32 = 5;

/// `GET /queue`.
pub async fn page(State(web): State<Web>, viewer: Viewer) -> Response {
    let account = viewer.session.as_ref().map(|s| &s.account);
    match web.ladder.queue_view(account).await {
        Ok(view) => {
            let content = html! {
                h1 { "Queue and workers" }
                section #queue data-live="/queue/live" data-every=(EVERY_S) { (part(&view)) }
            };
            layout::respond(layout::page("Queue and workers", &viewer, content))
        }
        Err(error) => error.into_response(),
    }
}

/// `GET /queue/live`: the part that follows the queue.
pub async fn live(State(web): State<Web>, viewer: Viewer) -> Response {
    let account = viewer.session.as_ref().map(|s| &s.account);
    match web.ladder.queue_view(account).await {
        Ok(view) => layout::respond(part(&view)),
        Err(error) => error.into_response(),
    }
}

fn part(view: &QueueView) -> Markup {
    let now = now_ms();
    html! {
        p.counts {
            strong { (view.queued_matches) } " matches and " strong { (view.queued_builds) } " builds wait for a worker · "
            strong { (view.leased.len()) } " in hand · "
            strong { (view.failed) } " failed for good (the platform's, never a bot's)"
        }
        h2 { "In hand" }
        @if view.leased.is_empty() {
            p.empty { "No job is being played or built." }
        } @else {
            table.board.leased {
                thead { tr { th { "job" } th { "kind" } th { "worker" } th title="Renewed by the worker's heartbeats; at 0 the job goes back to the queue." { "lease left" } th { "leases lost" } } }
                tbody {
                    @for j in &view.leased {
                        tr {
                            td.num { (j.id) }
                            td { (j.kind) }
                            td.name { (j.worker) }
                            td.num { (j.lease_left_s) " s" }
                            td.num { (j.attempts) }
                        }
                    }
                }
            }
        }
        h2 { "Workers" }
        @if view.workers.is_empty() {
            p.empty { "No worker account yet." }
        } @else {
            table.board.workers {
                thead { tr { th { "worker" } th { "in hand" } th { "matches, last hour" } th { "last match" } } }
                tbody {
                    @for w in &view.workers {
                        tr {
                            td.name { (w.name) @if w.disabled { " (disabled)" } }
                            td.num { (w.leased) }
                            td.num { (w.matches_last_hour) }
                            td.num {
                                @match w.last_match_ms {
                                    Some(at) => { (super::board::ago((now - at).max(0) / 1000)) },
                                    None => { "–" },
                                }
                            }
                        }
                    }
                }
            }
        }
        h2 { "The platform's troubles" }
        @if view.troubles.is_empty() {
            p.empty { "No job has lost a lease or been given back." }
        } @else {
            p.note { "Jobs that lost a lease (a worker stopped answering) or were given back (a worker could not play them): played again by any worker, never counted against a bot." }
            table.board.troubles {
                thead { tr { th { "job" } th { "kind" } th { "now" } th { "leases lost" } th { "what failed" } } }
                tbody {
                    @for t in &view.troubles {
                        tr {
                            td.num { (t.id) }
                            td { (t.kind) }
                            td { (t.state) }
                            td.num { (t.attempts) }
                            td.name { @match &t.error { Some(e) => { (e) }, None => { "(the admin's)" } } }
                        }
                    }
                }
            }
        }
    }
}
