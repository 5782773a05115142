//! A one-time link, `/welcome/{code}`: the student opens it and sees whose it is; pressing its
//! button (a POST, so that a mail scanner's look does not use it up) gives the account a new
//! token, shown once, and signs this browser in. The form carries a CSRF token of its own, in
//! a cookie as well, as the sign-in form does.

use super::Web;
use super::layout;
use super::viewer::{SESSION_COOKIE, Viewer};
use crate::service::SESSION_MS;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

/// The cookie holding the form's CSRF token.
const FORM_COOKIE: &str = "ladder_welcome";

/// The form's field.
#[derive(Deserialize)]
pub struct WelcomeForm {
    csrf: String,
}

fn gone(viewer: &Viewer) -> Response {
    let content = html! {
        h1 { "This link does not work" }
        p { "It was used already, or it has expired, or it is not one of this ladder's. Ask your teacher for a new one." }
    };
    let mut answer = layout::respond(layout::page("Welcome", viewer, content));
    *answer.status_mut() = StatusCode::NOT_FOUND;
    answer
}

/// `GET /welcome/{code}`: whose link it is, and the button.
pub async fn page(State(web): State<Web>, viewer: Viewer, Path(code): Path<String>) -> Response {
    let account = match web.ladder.invited(&code).await {
        Ok(Some(account)) => account,
        Ok(None) => return gone(&viewer),
        Err(error) => return layout::refusal(&viewer, error),
    };
    let csrf = crate::auth::new_lease();
    let cookie = viewer.cookie(FORM_COOKIE, csrf.clone(), "/welcome", 3600);
    let content = html! {
        h1 { "Welcome, " (account.name) }
        p { "This link gives the account " strong { (account.name) } " its token, once, and signs this browser in. Use it on your own computer." }
        form.sign-in method="post" action={ "/welcome/" (code) } {
            input type="hidden" name="csrf" value=(csrf);
            button type="submit" { "Show my token" }
        }
    };
    let jar = viewer.jar.clone().add(cookie);
    (
        jar,
        layout::respond(layout::page("Welcome", &viewer, content)),
    )
        .into_response()
}

/// `POST /welcome/{code}`: the token, shown once, and a session.
pub async fn take(
    State(web): State<Web>,
    viewer: Viewer,
    Path(code): Path<String>,
    Form(form): Form<WelcomeForm>,
) -> Response {
    let expected = viewer.jar.get(FORM_COOKIE).map(|c| c.value().to_owned());
    if expected.as_deref() != Some(form.csrf.as_str()) {
        let content = html! {
            h1 { "Not yet" }
            p { "This form had expired (or was not this site's): " a href={ "/welcome/" (code) } { "open the link again" } "." }
        };
        let mut answer = layout::respond(layout::page("Welcome", &viewer, content));
        *answer.status_mut() = StatusCode::FORBIDDEN;
        return answer;
    }
    let (token, new) = match web.ladder.redeem_invite(&code).await {
        Ok(taken) => taken,
        Err(crate::service::ServiceError::NotFound(_)) => return gone(&viewer),
        Err(error) => return layout::refusal(&viewer, error),
    };
    let session = viewer.cookie(SESSION_COOKIE, new.cookie, "/", SESSION_MS / 1000);
    let spent = viewer.cookie(FORM_COOKIE, String::new(), "/welcome", 0);
    let jar = viewer.jar.clone().add(session).add(spent);
    let signed_in = Viewer {
        session: Some(new.session),
        cookie: None,
        jar: viewer.jar.clone(),
        tls: viewer.tls,
        host: viewer.host.clone(),
    };
    let content = html! {
        h1 { "Your token" }
        p { "This browser is signed in. Your token, shown this once — keep it somewhere safe: the command line needs it (" code { "referee ladder submit --token-file FILE" } "), and you sign in with it elsewhere." }
        p.secret { code #token { (token) } }
        p { a href="/submit" { "Submit your bot" } " · " a href="/" { "the board" } }
    };
    (
        jar,
        layout::respond(layout::page("Your token", &signed_in, content)),
    )
        .into_response()
}
