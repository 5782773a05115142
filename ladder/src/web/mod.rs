//! The ladder's web board: server-rendered HTML pages (maud: every string a participant wrote
//! is escaped by the template, so it is text in the page), beside the JSON API that gives the
//! same data (`docs/ladder.md`, the web board).
//!
//! - [`layout`]: the page around every page's content, and the security headers of every page
//!   (a Content-Security-Policy that lets a page run only the board's own script, and fetch
//!   only from its own server);
//! - [`board`]: the board, `/`: the standings, updated without a reload;
//! - [`assets`]: the board's script and style, served from the binary;
//! - [`bot_page`]: a bot, `/bots/{bot}` (its rating drawn by [`rating_chart`]);
//! - [`version_page`]: a version, following its build, check and first matches;
//!   [`submit_page`]: submitting from the browser;
//! - [`queue_page`]: the queue and the workers; [`challenges_page`]: an owner's challenges;
//! - [`match_page`]: a match, `/matches/{id}`, as the viewer may see it, and its replay;
//! - [`sign_in`]: signing in with a token (a session cookie) and out; [`viewer`]: who is
//!   looking at a page; [`sign_in_limit`]: failed sign-ins limited per address;
//!   [`welcome_page`]: a one-time link that hands a student its token;
//! - [`admin_page`]: the teacher's page (accounts from a class list, the deadline, freezing,
//!   the final tournament and its grade sheet).

mod admin_page;
mod assets;
mod board;
mod bot_page;
mod challenges_page;
#[cfg(test)]
mod class_tests;
mod event;
#[cfg(test)]
mod group_tests;
mod layout;
mod match_page;
mod queue_page;
mod rating_chart;
mod sign_in;
pub mod sign_in_limit;
mod submit_page;
#[cfg(test)]
mod tests;
mod version_page;
mod viewer;
mod welcome_page;

use crate::service::Ladder;
use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRef};
use axum::routing::{get, post};
use sign_in_limit::SignInLimit;
use std::sync::Arc;

/// What the pages' handlers share: the ladder, and the failed sign-ins of each address.
#[derive(Clone)]
pub struct Web {
    /// The ladder.
    pub ladder: Ladder,
    /// Failed sign-ins, per address.
    pub sign_ins: Arc<SignInLimit>,
}

impl FromRef<Web> for Ladder {
    fn from_ref(web: &Web) -> Ladder {
        web.ladder.clone()
    }
}

/// The web pages' routes over `ladder`.
pub fn router(ladder: Ladder) -> Router {
    // An upload's bytes, and the form's other fields around them.
    let upload_limit = ladder.config().build.upload_bytes as usize + (64 << 10);
    Router::new()
        .route("/", get(board::page))
        .route("/board/rows", get(board::rows))
        .route("/board/event", get(event::live))
        .route("/bots/{bot}", get(bot_page::page))
        .route("/bots/{bot}/versions/{n}", get(version_page::page))
        .route("/bots/{bot}/versions/{n}/live", get(version_page::part))
        .route(
            "/submit",
            get(submit_page::page)
                .post(submit_page::submit)
                .layer(DefaultBodyLimit::max(upload_limit)),
        )
        .route("/matches/{id}", get(match_page::page))
        .route("/queue", get(queue_page::page))
        .route(
            "/challenges",
            get(challenges_page::page).post(challenges_page::challenge),
        )
        .route("/challenges/live", get(challenges_page::live))
        .route("/queue/live", get(queue_page::live))
        .route("/replays/{id}", get(match_page::replay))
        .route("/replays/viewer.js", get(match_page::viewer_code))
        .route("/replays/viewer.css", get(match_page::viewer_look))
        .route("/signin", get(sign_in::page).post(sign_in::sign_in))
        .route("/signout", post(sign_in::sign_out))
        .route("/assets/{file}", get(assets::file))
        .route("/admin", get(admin_page::page).post(admin_page::act))
        .route("/admin/final/grades.csv", get(admin_page::grades))
        .route("/admin/final/results.tar.gz", get(admin_page::results))
        .route(
            "/welcome/{code}",
            get(welcome_page::page).post(welcome_page::take),
        )
        .with_state(Web {
            ladder,
            sign_ins: Arc::default(),
        })
}
