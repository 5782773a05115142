//! Signing in and out: `GET /signin` (a form for the token), `POST /signin` (a session, its
//! cookie set, then the board), `POST /signout`. Every form carries a CSRF token: the sign-in
//! form one of its own, given to the browser in a cookie as well (the two must agree), every
//! signed-in page's forms the session's. Failed sign-ins are limited per address
//! ([`super::sign_in_limit`]).

use super::Web;
use super::layout;
use super::viewer::{ClientAddress, SESSION_COOKIE, Viewer};
use crate::service::{SESSION_MS, ServiceError};
use axum::Form;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;
use std::time::Instant;

/// The cookie holding the sign-in form's CSRF token.
const FORM_COOKIE: &str = "ladder_signin";

/// How long a sign-in form may wait, in seconds.
const FORM_S: i64 = 3600;

/// The sign-in form's fields.
#[derive(Deserialize)]
pub struct SignInForm {
    /// The form's CSRF token.
    csrf: String,
    /// The account's token.
    token: String,
}

/// The sign-out form's field.
#[derive(Deserialize)]
pub struct SignOutForm {
    /// The session's CSRF token.
    csrf: String,
}

/// `GET /signin`: the form, or who is signed in.
pub async fn page(viewer: Viewer) -> Response {
    if viewer.session.is_some() {
        let content = html! {
            h1 { "Signed in" }
            p { "You are signed in (above). " a href="/" { "The board" } "." }
        };
        return layout::respond(layout::page("Sign in", &viewer, content));
    }
    form_page(viewer, StatusCode::OK, None)
}

/// The sign-in form with a fresh CSRF token (its cookie set), and `error` above it.
fn form_page(viewer: Viewer, status: StatusCode, error: Option<&str>) -> Response {
    let csrf = crate::auth::new_lease();
    let cookie = viewer.cookie(FORM_COOKIE, csrf.clone(), "/signin", FORM_S);
    let jar = viewer.jar.clone().add(cookie);
    let content = form(&csrf, error);
    let mut answer = layout::respond(layout::page("Sign in", &viewer, content));
    *answer.status_mut() = status;
    (jar, answer).into_response()
}

fn form(csrf: &str, error: Option<&str>) -> Markup {
    html! {
        h1 { "Sign in" }
        p { "Sign in with the token the ladder's admin gave you. This browser then holds a session of 14 days (a cookie, not the token); sign out to end it." }
        @if let Some(error) = error {
            p.error role="alert" { (error) }
        }
        form.sign-in method="post" action="/signin" {
            input type="hidden" name="csrf" value=(csrf);
            label for="token" { "Token" }
            input #token type="password" name="token" autocomplete="off" required spellcheck="false";
            button type="submit" { "Sign in" }
        }
    }
}

/// `POST /signin`.
pub async fn sign_in(
    State(web): State<Web>,
    ClientAddress(from): ClientAddress,
    viewer: Viewer,
    Form(form): Form<SignInForm>,
) -> Response {
    let now = Instant::now();
    if let Err(wait) = web.sign_ins.check(from, now) {
        let minutes = wait.as_secs().div_ceil(60).max(1);
        let message = format!(
            "Too many failed sign-ins from your address: try again in {minutes} minute{}.",
            if minutes == 1 { "" } else { "s" }
        );
        return form_page(viewer, StatusCode::TOO_MANY_REQUESTS, Some(&message));
    }
    let expected = viewer.jar.get(FORM_COOKIE).map(|c| c.value().to_owned());
    if expected.as_deref() != Some(form.csrf.as_str()) {
        return form_page(
            viewer,
            StatusCode::FORBIDDEN,
            Some("This form had expired (or was not this site's): sign in again."),
        );
    }
    match web.ladder.sign_in(&form.token).await {
        Ok(new) => {
            let session = viewer.cookie(SESSION_COOKIE, new.cookie, "/", SESSION_MS / 1000);
            let spent = viewer.cookie(FORM_COOKIE, String::new(), "/signin", 0);
            let jar = viewer.jar.clone().add(session).add(spent);
            (jar, Redirect::to("/")).into_response()
        }
        Err(ServiceError::Unauthorized) => {
            web.sign_ins.failed(from, now);
            form_page(
                viewer,
                StatusCode::UNAUTHORIZED,
                Some("That token is not one of this ladder's."),
            )
        }
        Err(ServiceError::Forbidden(why)) => {
            web.sign_ins.failed(from, now);
            form_page(viewer, StatusCode::FORBIDDEN, Some(&why))
        }
        Err(error) => error.into_response(),
    }
}

/// `POST /signout`: ends the session whose form it is.
pub async fn sign_out(
    State(web): State<Web>,
    viewer: Viewer,
    Form(form): Form<SignOutForm>,
) -> Response {
    let (Some(session), Some(cookie)) = (&viewer.session, &viewer.cookie) else {
        return Redirect::to("/").into_response();
    };
    if session.csrf != form.csrf {
        let content = html! {
            h1 { "Not signed out" }
            p { "This form was not one of your pages' (or had expired): sign out from the button above." }
        };
        let mut answer = layout::respond(layout::page("Sign out", &viewer, content));
        *answer.status_mut() = StatusCode::FORBIDDEN;
        return answer;
    }
    if let Err(error) = web.ladder.sign_out(cookie).await {
        return error.into_response();
    }
    let ended = viewer.cookie(SESSION_COOKIE, String::new(), "/", 0);
    (viewer.jar.clone().add(ended), Redirect::to("/")).into_response()
}
