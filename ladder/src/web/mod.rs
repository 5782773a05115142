//! The ladder's web board: server-rendered HTML pages (maud: every string a participant wrote
//! is escaped by the template, so it is text in the page), beside the JSON API that gives the
//! same data (`docs/ladder-web.md`).
//!
//! - [`layout`]: the page around every page's content, and the security headers of every page
//!   (a Content-Security-Policy that lets a page run only the board's own script, and fetch
//!   only from its own server);
//! - [`board`]: the board, `/`: the standings, updated without a reload;
//! - [`assets`]: the board's script and style, served from the binary.

mod assets;
mod board;
mod layout;

use crate::service::Ladder;
use axum::Router;
use axum::routing::get;

/// The web pages' routes over `ladder`.
pub fn router(ladder: Ladder) -> Router {
    Router::new()
        .route("/", get(board::page))
        .route("/board/rows", get(board::rows))
        .route("/assets/{file}", get(assets::file))
        .with_state(ladder)
}
