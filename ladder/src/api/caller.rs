//! Who is calling: the account of the request's bearer token. The token is read from the
//! `Authorization` header only, and never logged.

use crate::service::{Ladder, ServiceError};
use crate::store::Account;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;

/// The caller's account; a request without a valid token is refused (401).
pub struct Caller(pub Account);

/// The caller's account if it sent a token; anyone otherwise (a wrong token is still refused).
pub struct MaybeCaller(pub Option<Account>);

fn bearer(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

impl FromRequestParts<Ladder> for Caller {
    type Rejection = ServiceError;

    async fn from_request_parts(
        parts: &mut Parts,
        ladder: &Ladder,
    ) -> Result<Self, Self::Rejection> {
        let token = bearer(parts).ok_or(ServiceError::Unauthorized)?;
        Ok(Caller(ladder.authenticate(token).await?))
    }
}

impl FromRequestParts<Ladder> for MaybeCaller {
    type Rejection = ServiceError;

    async fn from_request_parts(
        parts: &mut Parts,
        ladder: &Ladder,
    ) -> Result<Self, Self::Rejection> {
        match bearer(parts) {
            None => Ok(MaybeCaller(None)),
            Some(token) => Ok(MaybeCaller(Some(ladder.authenticate(token).await?))),
        }
    }
}
