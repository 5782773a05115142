//! Who is looking at a page: a signed-in owner or the admin (its session's cookie), or anyone;
//! where the request comes from (for the sign-in limit); and whether it came over TLS (for the
//! cookie's `Secure`).

use super::Web;
use crate::service::Session;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "ladder_session";

/// The viewer of a page.
pub struct Viewer {
    /// The session, if the browser is signed in.
    pub session: Option<Session>,
    /// The session cookie's value, if it sent one that is still good.
    pub cookie: Option<String>,
    /// The browser's cookies.
    pub jar: CookieJar,
    /// Whether the request came over TLS (through a proxy that says so).
    pub tls: bool,
    /// The `Host` the request named, if it named one that is text.
    pub host: Option<String>,
}

impl FromRequestParts<Web> for Viewer {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, web: &Web) -> Result<Self, Self::Rejection> {
        let jar = CookieJar::from_headers(&parts.headers);
        let tls = parts
            .headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.eq_ignore_ascii_case("https"));
        let host = parts
            .headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_owned);
        let mut viewer = Viewer {
            session: None,
            cookie: None,
            jar,
            tls,
            host,
        };
        if let Some(cookie) = viewer.jar.get(SESSION_COOKIE).map(|c| c.value().to_owned()) {
            let session = web
                .ladder
                .session(&cookie)
                .await
                .map_err(IntoResponse::into_response)?;
            if session.is_some() {
                viewer.session = session;
                viewer.cookie = Some(cookie);
            }
        }
        Ok(viewer)
    }
}

impl Viewer {
    /// The server's address as this request reached it: `http(s)://HOST` (`SERVER` for a
    /// request that named none), for the links and commands a page shows.
    pub fn base_url(&self) -> String {
        format!(
            "{}://{}",
            if self.tls { "https" } else { "http" },
            self.host.as_deref().unwrap_or("SERVER")
        )
    }

    /// A cookie of this site named `name` holding `value` for `max_age_s` seconds (0: removed):
    /// out of scripts' reach, sent with same-site requests only, over TLS only where the page
    /// came over TLS.
    pub fn cookie(
        &self,
        name: &'static str,
        value: String,
        path: &'static str,
        max_age_s: i64,
    ) -> Cookie<'static> {
        Cookie::build((name, value))
            .path(path)
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(self.tls)
            .max_age(cookie::time::Duration::seconds(max_age_s))
            .build()
    }
}

/// Where a request comes from: the peer's address, or, when the peer is this machine (a
/// reverse proxy in front of the server), the last address of its `X-Forwarded-For`.
pub struct ClientAddress(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| {
                c.0.ip().to_canonical()
            });
        let forwarded = peer
            .is_loopback()
            .then(|| parts.headers.get("x-forwarded-for")?.to_str().ok())
            .flatten()
            .and_then(|list| list.rsplit(',').next()?.trim().parse().ok());
        Ok(ClientAddress(forwarded.unwrap_or(peer)))
    }
}
