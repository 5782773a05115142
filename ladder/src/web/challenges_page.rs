//! Challenges, `/challenges`: a signed-in owner asks for unranked matches of one of its
//! versions against bots or versions it names, and sees its own challenges (no one else's)
//! played, followed without a reload. The API's `POST /api/v1/challenges` and
//! `GET /api/v1/challenges`.

use super::Web;
use super::bot_page::match_list;
use super::layout;
use super::viewer::Viewer;
use crate::service::{CHALLENGE_MATCHES, ChallengeRequest, ChallengesView};
use crate::store::Role;
use axum::Form;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

/// How often the list is asked again, in seconds.
const EVERY_S: u32 = 3;

/// The form's fields.
#[derive(Deserialize)]
pub struct ChallengeForm {
    csrf: String,
    bot: String,
    opponents: String,
    matches: u32,
}

/// `GET /challenges`.
pub async fn page(State(web): State<Web>, viewer: Viewer) -> Response {
    shown(&web, &viewer, StatusCode::OK, None).await
}

/// The page, with `error` above the form.
async fn shown(web: &Web, viewer: &Viewer, status: StatusCode, error: Option<&str>) -> Response {
    let Some(session) = &viewer.session else {
        let content = html! {
            h1 { "Challenges" }
            p { a href="/signin" { "Sign in" } " to challenge other bots." }
        };
        return layout::respond(layout::page("Challenges", viewer, content));
    };
    let mine = match web.ladder.challenges_of(&session.account).await {
        Ok(mine) => mine,
        Err(error) => return layout::refusal(viewer, error),
    };
    let content = html! {
        h1 { "Challenges" }
        p { "Unranked matches of your bot against the bots or versions you name (" code { "BOT" } " for its newest version that plays, or " code { "BOT.vN" } "): each seating of the table in turn, the deal shared. They move no rating, and go before the ranked matches in the queue. Only you see this list." }
        @if let Some(error) = error { p.error role="alert" { (error) } }
        @if session.account.role != Role::Worker {
            form.submit method="post" action="/challenges" {
                input type="hidden" name="csrf" value=(session.csrf);
                label for="bot" { "Your bot" }
                input #bot type="text" name="bot" required maxlength="48" spellcheck="false";
                label for="opponents" { "Against" }
                input #opponents type="text" name="opponents" required placeholder="heur-a, rand-b.v2" spellcheck="false";
                label for="matches" { "Matches" }
                input #matches type="number" name="matches" value="4" min="1" max=(CHALLENGE_MATCHES) required;
                button type="submit" { "Challenge" }
            }
        }
        section #challenges data-live="/challenges/live" data-every=(EVERY_S) { (list(&mine)) }
    };
    let mut answer = layout::respond(layout::page("Challenges", viewer, content));
    *answer.status_mut() = status;
    answer
}

fn list(mine: &ChallengesView) -> Markup {
    html! {
        h2 { "Yours" }
        p.counts { strong { (mine.pending) } " still to be played." }
        (match_list(&mine.played, None))
    }
}

/// `GET /challenges/live`: the list alone.
pub async fn live(State(web): State<Web>, viewer: Viewer) -> Response {
    let Some(session) = &viewer.session else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    match web.ladder.challenges_of(&session.account).await {
        Ok(mine) => layout::respond(list(&mine)),
        Err(error) => layout::refusal(&viewer, error),
    }
}

/// `POST /challenges`.
pub async fn challenge(
    State(web): State<Web>,
    viewer: Viewer,
    Form(form): Form<ChallengeForm>,
) -> Response {
    let Some(session) = &viewer.session else {
        return Redirect::to("/signin").into_response();
    };
    if session.csrf != form.csrf {
        let refused =
            "This form was not one of your pages' (or had expired): ask again from this page.";
        return shown(&web, &viewer, StatusCode::FORBIDDEN, Some(refused)).await;
    }
    let request = ChallengeRequest {
        bot: form.bot.trim().to_owned(),
        version: None,
        opponents: form
            .opponents
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        matches: form.matches,
    };
    match web.ladder.challenge(&session.account, &request).await {
        Ok(_) => Redirect::to("/challenges").into_response(),
        Err(error) => {
            let status = error.status();
            if status == StatusCode::INTERNAL_SERVER_ERROR {
                return error.into_response();
            }
            shown(&web, &viewer, status, Some(&error.to_string())).await
        }
    }
}
