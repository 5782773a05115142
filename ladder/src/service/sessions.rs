//! Signing in from a browser: an owner or the admin gives its token once and gets a session,
//! whose cookie (256 random bits, stored only as its SHA-256) stands for the token on the web
//! pages, with a CSRF token that every form of the session's pages carries.

use super::{Ladder, ServiceError, now_ms};
use crate::auth::{hex, token_hash};
use crate::store::{Account, Role};

/// How long a session lasts, in milliseconds: 14 days.
pub const SESSION_MS: i64 = 14 * 24 * 3600 * 1000;

/// A session just made: the cookie's value (given to the browser, never stored) and the rest.
#[derive(Clone, Debug)]
pub struct NewSession {
    /// The cookie's value.
    pub cookie: String,
    /// The session.
    pub session: Session,
}

/// A signed-in browser: who, and the token its forms carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// Who signed in.
    pub account: Account,
    /// The CSRF token of the session's forms.
    pub csrf: String,
}

/// 256 random bits, in hex.
fn secret() -> String {
    hex(&rand::random::<[u8; 32]>())
}

impl Ladder {
    /// Signs in with `token`: a new session of its account.
    ///
    /// # Errors
    /// [`ServiceError::Unauthorized`] for a token the ladder does not know (or a disabled
    /// account's), [`ServiceError::Forbidden`] for a worker's (a worker has no pages).
    pub async fn sign_in(&self, token: &str) -> Result<NewSession, ServiceError> {
        let account = self.authenticate(token.trim()).await?;
        if account.role == Role::Worker {
            return Err(ServiceError::Forbidden(
                "a worker's token does not sign in: sign in with an owner's or the admin's".into(),
            ));
        }
        let (cookie, csrf) = (secret(), secret());
        let now = now_ms();
        self.store
            .add_session(
                &token_hash(&cookie),
                account.id,
                &csrf,
                now,
                now + SESSION_MS,
            )
            .await?;
        Ok(NewSession {
            cookie,
            session: Session { account, csrf },
        })
    }

    /// The session of the cookie `cookie`, if it is still good.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn session(&self, cookie: &str) -> Result<Option<Session>, ServiceError> {
        Ok(self
            .store
            .session(&token_hash(cookie), now_ms())
            .await?
            .map(|row| Session {
                account: row.account,
                csrf: row.csrf,
            }))
    }

    /// Ends the session of the cookie `cookie` (and every expired one).
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn sign_out(&self, cookie: &str) -> Result<(), ServiceError> {
        Ok(self
            .store
            .end_session(&token_hash(cookie), now_ms())
            .await?)
    }
}
