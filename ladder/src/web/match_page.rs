//! A match, `/matches/{id}`: its seats, scores, ranks and faults for anyone, and the match as
//! the viewer may see it ([`crate::match_seen`]): the admin the whole truth, a seat's owner
//! that seat's view, both in the replay viewer (`/replays/{id}`, framed in the page); anyone
//! else the public view, the events told to everyone, as text. Its data as JSON:
//! `GET /api/v1/matches/{id}/log`.

use super::Web;
use super::layout;
use super::viewer::Viewer;
use crate::match_seen::Audience;
use crate::service::{SeenMatch, ServiceError};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, HeaderValue};
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, html};
use referee::html::replay_page::{linked_replay_page, viewer_script, viewer_style};
use referee::runner::{LogAudience, LogRecord};

/// The replay page's policy: the viewer's own files, framed by this server's pages only.
const REPLAY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/// The match `id` as the viewer sees it, or the service's refusal as a page.
async fn seen(web: &Web, viewer: &Viewer, id: i64) -> Result<SeenMatch, Response> {
    let account = viewer.session.as_ref().map(|s| &s.account);
    web.ladder
        .match_seen(account, id)
        .await
        .map_err(|error| layout::refusal(viewer, error))
}

/// `GET /matches/{id}`.
pub async fn page(State(web): State<Web>, viewer: Viewer, Path(id): Path<i64>) -> Response {
    let host = viewer.base_url();
    let seen = match seen(&web, &viewer, id).await {
        Ok(seen) => seen,
        Err(answer) => return answer,
    };
    let view = &seen.view;
    let content = html! {
        h1 { "Match " (view.id) }
        p.match-facts {
            (view.game) " · "
            @if view.challenge { "a challenge (unranked)" }
            @else if let Some(id) = view.final_id { "a match of final tournament " (id) " (unranked)" }
            @else if view.ranked { "ranked" }
            @else { "unranked" }
            " · " (view.seats.len()) " seats"
        }
        @if let Some(why) = &view.internal_error {
            p.error { "This match is void: the game itself failed (" (why) "); no bot is charged with it." }
        }
        table.board.seats {
            thead { tr { th { "seat" } th { "version" } th { "owner" } th { "score" } th { "rank" } th { "faults" } } }
            tbody {
                @for (i, seat) in view.seats.iter().enumerate() {
                    tr.own[seen.audience == Audience::Seat(i)] {
                        td.num { (i) }
                        td.name {
                            @match crate::spec::bot_of_seat(&seat.name) {
                                Some(bot) => { a href={ "/bots/" (bot) } { (seat.name) } },
                                None => { (seat.name) },
                            }
                        }
                        td.name { (seat.owner) }
                        td.num { (seat.score) }
                        td.num { (seat.rank) }
                        td.num { (seat.faults) }
                    }
                }
            }
        }
        (what_you_see(&seen, &host))
    };
    let mut answer = layout::respond(layout::page(&format!("Match {id}"), &viewer, content));
    answer.headers_mut().insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(layout::FRAMING_PAGE_POLICY),
    );
    answer
}

/// What the viewer is shown of the match's play, and why.
fn what_you_see(seen: &SeenMatch, host: &str) -> Markup {
    let id = seen.view.id;
    if seen.withheld {
        return html! {
            h2 { "Its play" }
            p.withheld { "Its play is shown once every match of its deal has been played: a match of the same deal, its seats rotated, is still to be played, and this one would give the deal away. Come back in a moment." }
        };
    }
    match seen.audience {
        Audience::Public => {
            let told: Vec<(Option<u64>, String)> = seen
                .log
                .iter()
                .filter_map(|r| match r {
                    LogRecord::Event {
                        n,
                        to: LogAudience::All,
                        event,
                    } => Some((*n, event.to_string())),
                    _ => None,
                })
                .collect();
            html! {
                h2 { "What everyone was told" }
                p { "You see the public view: what the game told every seat. The hands, the cards played face down and each seat's actions are its owner's; the replay is shown to the seats' owners (signed in) and the admin." }
                ol.events {
                    @for (n, event) in &told {
                        li { span.n { @if let Some(n) = n { "decision " (n) } @else { "start" } } " " code { (event) } }
                    }
                }
            }
        }
        audience => html! {
            h2 { "Replay" }
            p {
                @if let Audience::Seat(seat) = audience {
                    "You see the match as your seat, " (seat) ", knew it: your hand and your actions, what the game told you and everyone; not the others' hands, cards or actions."
                } @else {
                    "You see the whole truth (the admin): every hand, every card and every seat's actions."
                }
                " Play it again on your machine (once every match of its deal is played): "
                code { "referee ladder reproduce --token-file YOUR_TOKEN_FILE " (host) "/" (id) }
                " (docs/ladder-reproduce.md)."
            }
            iframe.replay src={ "/replays/" (id) } title={ "The replay of match " (id) } {}
        },
    }
}

/// `GET /replays/{id}`: the replay viewer of the match as the viewer sees it, for the seats'
/// owners and the admin.
pub async fn replay(State(web): State<Web>, viewer: Viewer, Path(id): Path<i64>) -> Response {
    let seen = match seen(&web, &viewer, id).await {
        Ok(seen) => seen,
        Err(answer) => return answer,
    };
    if seen.withheld {
        return layout::refusal(
            &viewer,
            ServiceError::NotFound(format!(
                "match {id}'s replay is shown once every match of its deal has been played"
            )),
        );
    }
    if seen.audience == Audience::Public {
        return layout::refusal(
            &viewer,
            ServiceError::NotFound(format!(
                "match {id}'s replay is its seats' owners' and the admin's: sign in"
            )),
        );
    }
    match linked_replay_page(&seen.log) {
        Ok(page) => (
            [
                (CONTENT_SECURITY_POLICY, REPLAY_POLICY),
                (CACHE_CONTROL, "no-store"),
                (axum::http::header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            Html(page),
        )
            .into_response(),
        Err(error) => {
            eprintln!("ladder: match {id}'s replay page: {error}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the replay page could not be made",
            )
                .into_response()
        }
    }
}

/// `GET /replays/viewer.js`: the viewer's code, beside the replay pages that link it.
pub async fn viewer_code() -> Response {
    asset("text/javascript; charset=utf-8", viewer_script())
}

/// `GET /replays/viewer.css`: the viewer's style.
pub async fn viewer_look() -> Response {
    asset("text/css; charset=utf-8", viewer_style().to_owned())
}

fn asset(kind: &'static str, text: String) -> Response {
    (
        [
            (axum::http::header::CONTENT_TYPE, kind),
            (CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}
