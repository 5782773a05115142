//! A version, `/bots/{bot}/versions/{n}`: where its build and check are (their log and
//! checklist to its owner and the admin), then its first matches as they are played; the page
//! follows it without a reload (`…/live`, the same markup). Its data as JSON:
//! `GET /api/v1/bots/{bot}/versions/{n}` and `…/matches`.

use super::Web;
use super::bot_page::{build_details, match_list};
use super::layout;
use super::viewer::Viewer;
use crate::spec::seat_name;
use axum::extract::{Path, State};
use axum::response::Response;
use maud::{Markup, html};

/// How often the page asks again, in seconds.
const EVERY_S: u32 = 2;

/// The first matches shown.
const FIRST_MATCHES: i64 = 20;

/// The part of the page that follows the version: its state, build, check and matches.
async fn live(web: &Web, viewer: &Viewer, bot: &str, n: i64) -> Result<Markup, Response> {
    let account = viewer.session.as_ref().map(|s| &s.account);
    let status = web
        .ladder
        .version_status(account, bot, n)
        .await
        .map_err(|error| layout::refusal(viewer, error))?;
    let matches = match status.state.as_str() {
        "ready" => web
            .ladder
            .matches_of(&seat_name(bot, n), FIRST_MATCHES)
            .await
            .map_err(|error| layout::refusal(viewer, error))?,
        _ => Vec::new(),
    };
    let failed = status.state.ends_with("-failed");
    Ok(html! {
        p.state data-final[failed] {
            strong { (status.state) } " · "
            @match status.state.as_str() {
                "building" => "being built and checked by a worker; this page follows it.",
                "ready" => "it passed its check and plays; its first matches appear below as they are played.",
                "build-failed" => "it did not build (the log says why): submit a new version.",
                "check-failed" => "it built but failed its check (the checklist says why): submit a new version.",
                _ => "",
            }
        }
        (build_details(&status))
        @if status.state == "ready" {
            h2 { "Its matches" }
            (match_list(&matches, Some(bot)))
        }
    })
}

/// `GET /bots/{bot}/versions/{n}`.
pub async fn page(
    State(web): State<Web>,
    viewer: Viewer,
    Path((bot, n)): Path<(String, i64)>,
) -> Response {
    let part = match live(&web, &viewer, &bot, n).await {
        Ok(part) => part,
        Err(answer) => return answer,
    };
    let content = html! {
        h1.name { (seat_name(&bot, n)) }
        p.match-facts { a href={ "/bots/" (bot) } { "All of " (bot) } }
        section #version data-live={ "/bots/" (bot) "/versions/" (n) "/live" } data-every=(EVERY_S) {
            (part)
        }
    };
    layout::respond(layout::page(&seat_name(&bot, n), &viewer, content))
}

/// `GET /bots/{bot}/versions/{n}/live`: the part that follows the version.
pub async fn part(
    State(web): State<Web>,
    viewer: Viewer,
    Path((bot, n)): Path<(String, i64)>,
) -> Response {
    match live(&web, &viewer, &bot, n).await {
        Ok(part) => layout::respond(part),
        Err(answer) => answer,
    }
}
