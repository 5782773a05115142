//! Submitting from the browser, `/submit`: a signed-in owner names its bot, picks the
//! language and uploads a file or an archive (`.tar`, `.tar.gz`, `.zip`), as `referee ladder
//! submit` does; the answer is the new version's page, which follows its build and check and
//! then its first matches. The form carries the session's CSRF token.

use super::Web;
use super::layout;
use super::viewer::Viewer;
use crate::service::BUILTIN;
use crate::store::Role;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use referee::starters::Language;

/// `GET /submit`.
pub async fn page(viewer: Viewer) -> Response {
    form_page(&viewer, StatusCode::OK, None, "", "")
}

/// The form (with `error` above it, the bot's name and language as they were given).
fn form_page(
    viewer: &Viewer,
    status: StatusCode,
    error: Option<&str>,
    bot: &str,
    lang: &str,
) -> Response {
    let content = match &viewer.session {
        None => html! {
            h1 { "Submit a bot" }
            p { a href="/signin" { "Sign in" } " with your token to submit." }
        },
        Some(session) if session.account.role != Role::Owner => html! {
            h1 { "Submit a bot" }
            p { "Bots are submitted by their owners: the admin adds built-ins with " code { "referee ladder submit" } "." }
        },
        Some(session) => form(&session.csrf, error, bot, lang),
    };
    let mut answer = layout::respond(layout::page("Submit a bot", viewer, content));
    *answer.status_mut() = status;
    answer
}

fn form(csrf: &str, error: Option<&str>, bot: &str, lang: &str) -> Markup {
    html! {
        h1 { "Submit a bot" }
        p { "A new version of your bot: one source file, or an archive of its directory (.tar, .tar.gz or .zip). A worker builds it in the sandbox and checks it; if it passes, it plays, starting from its previous version's rating with a fresh uncertainty. Submitting the same source again changes nothing." }
        @if let Some(error) = error {
            p.error role="alert" { (error) }
        }
        form.submit method="post" action="/submit" enctype="multipart/form-data" {
            input type="hidden" name="csrf" value=(csrf);
            label for="bot" { "Bot's name" }
            input #bot type="text" name="bot" value=(bot) required maxlength="48" pattern="[A-Za-z0-9_-]{1,48}" title="1 to 48 letters, digits, - or _" spellcheck="false";
            label for="lang" { "Language" }
            select #lang name="lang" required {
                @for language in Language::ALL {
                    option value=(language.name()) selected[language.name() == lang] { (language.name()) }
                }
            }
            label for="file" { "File or archive" }
            input #file type="file" name="file" required;
            button type="submit" { "Submit" }
        }
    }
}

/// `POST /submit`.
pub async fn submit(State(web): State<Web>, viewer: Viewer, mut multipart: Multipart) -> Response {
    let (mut csrf, mut bot, mut lang, mut upload) =
        (String::new(), String::new(), String::new(), None);
    loop {
        match multipart.next_field().await {
            Ok(Some(field)) => {
                let name = field.name().unwrap_or_default().to_owned();
                let read = field.bytes().await;
                let Ok(bytes) = read else {
                    return form_page(
                        &viewer,
                        StatusCode::PAYLOAD_TOO_LARGE,
                        Some("The upload is larger than this ladder takes."),
                        &bot,
                        &lang,
                    );
                };
                let text = || {
                    String::from_utf8_lossy(&bytes)
                        .chars()
                        .take(200)
                        .collect::<String>()
                };
                match name.as_str() {
                    "csrf" => csrf = text(),
                    "bot" => bot = text(),
                    "lang" => lang = text(),
                    "file" => upload = Some(bytes),
                    _ => {}
                }
            }
            Ok(None) => break,
            Err(error) => {
                let message = format!("The form could not be read: {error}.");
                return form_page(
                    &viewer,
                    StatusCode::BAD_REQUEST,
                    Some(&message),
                    &bot,
                    &lang,
                );
            }
        }
    }
    let Some(session) = &viewer.session else {
        return form_page(&viewer, StatusCode::UNAUTHORIZED, None, &bot, &lang);
    };
    if session.csrf != csrf {
        return form_page(
            &viewer,
            StatusCode::FORBIDDEN,
            Some(
                "This form was not one of your pages' (or had expired): submit again from this page.",
            ),
            &bot,
            &lang,
        );
    }
    if lang == BUILTIN {
        return form_page(
            &viewer,
            StatusCode::FORBIDDEN,
            Some("Only the admin adds built-in bots."),
            &bot,
            &lang,
        );
    }
    let Some(upload) = upload.filter(|u| !u.is_empty()) else {
        return form_page(
            &viewer,
            StatusCode::BAD_REQUEST,
            Some("Choose a file or an archive to upload."),
            &bot,
            &lang,
        );
    };
    match web
        .ladder
        .submit(&session.account, &bot, &lang, &upload)
        .await
    {
        Ok(submitted) => Redirect::to(&format!(
            "/bots/{}/versions/{}",
            submitted.bot, submitted.number
        ))
        .into_response(),
        Err(error) => {
            let status = error.status();
            if status == StatusCode::INTERNAL_SERVER_ERROR {
                return error.into_response();
            }
            form_page(&viewer, status, Some(&error.to_string()), &bot, &lang)
        }
    }
}
