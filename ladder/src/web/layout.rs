//! The page around every page of the board, and the headers every page is sent with.

use super::viewer::Viewer;
use crate::service::ServiceError;
use crate::store::Role;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, HeaderValue};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use maud::{DOCTYPE, Markup, html};

/// What a page may do: run and style itself only from this server's own files (no inline
/// script, handler or style, nothing from elsewhere), fetch only from this server, and be
/// framed by no one.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// The policy of a page that frames a replay page of this server (a match's page): the
/// board's, and frames from this server.
pub const FRAMING_PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The whole page titled `title` around `content`, as `viewer` sees it (signed in or not).
pub fn page(title: &str, viewer: &Viewer, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href="/assets/board.css";
                script src="/assets/board.js" defer {}
            }
            body {
                header {
                    a href="/" { "Ladder" }
                    a.minor href="/queue" { "Queue" }
                    nav.account {
                        @if let Some(session) = &viewer.session {
                            @if session.account.role == Role::Owner { a href="/submit" { "Submit" } }
                            a href="/challenges" { "Challenges" }
                            @if session.account.role == Role::Admin { a href="/admin" { "Admin" } }
                            span.who { "Signed in as " strong { (session.account.name) }
                                @if session.account.role == Role::Admin { " (admin)" } }
                            form.sign-out method="post" action="/signout" {
                                input type="hidden" name="csrf" value=(session.csrf);
                                button type="submit" { "Sign out" }
                            }
                        } @else {
                            a href="/signin" { "Sign in" }
                        }
                    }
                }
                main { (content) }
            }
        }
    }
}

/// `markup` as an HTML answer with the headers of every page: no caching (a board is live),
/// and no `Referer` sent from it (a one-time link's code, a page's address, stay here).
pub fn respond(markup: Markup) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY_VALUE),
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    (StatusCode::OK, headers, Html(markup.into_string())).into_response()
}

/// The service's refusal `error` as `viewer` sees it: what is not found (or not the viewer's)
/// as a page saying why, with its status; anything else as the API says it.
pub fn refusal(viewer: &Viewer, error: ServiceError) -> Response {
    match error {
        ServiceError::NotFound(why) => {
            let content = html! { h1 { "Not found" } p { (why) } };
            let mut answer = respond(page("Not found", viewer, content));
            *answer.status_mut() = StatusCode::NOT_FOUND;
            answer
        }
        error => error.into_response(),
    }
}
