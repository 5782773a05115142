//! The board's script and style, compiled into the binary and served as `/assets/NAME`.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

/// The files: name, content type, text.
const FILES: [(&str, &str, &str); 2] = [
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    ),
    (
        "board.css",
        "text/css; charset=utf-8",
        include_str!("assets/board.css"),
    ),
];

/// `GET /assets/{file}`: one of [`FILES`], or 404.
pub async fn file(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, text)) => {
            ([(CONTENT_TYPE, *kind), (CACHE_CONTROL, "no-cache")], *text).into_response()
        }
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
