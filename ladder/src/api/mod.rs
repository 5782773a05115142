//! The ladder's HTTP JSON API (axum): each handler reads the request, calls the
//! [service](crate::service) with the caller's account, and writes its answer or refusal
//! (a status and `{"error": "…"}`). No SQL and no rule lives here. The endpoints are listed in
//! `docs/ladder-api.md`, their bodies' schemas generated from [`wire`].

mod admin_routes;
mod caller;
pub mod endpoints;
mod refusal;
mod routes;
mod schemas;
#[cfg(test)]
mod tests;
pub mod wire;

pub use routes::router;
pub use schemas::schemas;

/// Serves the API of `ladder` on `listener` until `shutdown` resolves.
///
/// # Errors
/// When the listener fails.
pub async fn serve(
    ladder: crate::service::Ladder,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = router(ladder.clone()).merge(crate::web::router(ladder));
    // The peer's address: the web's sign-in limit counts failures per address.
    let app = app.into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}
