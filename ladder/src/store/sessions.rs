//! The web board's sessions: found by the hash of the cookie's value (never stored itself),
//! each with its account and its CSRF token.

use super::accounts::account;
use super::{Account, Store, StoreError};
use sqlx::Row;

/// Sessions an account may hold at once (browsers signed in): signing in once more ends its
/// oldest.
pub const MAX_SESSIONS: i64 = 20;

/// A session that is still good: its account (not disabled) and its CSRF token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// Who signed in.
    pub account: Account,
    /// The token every form of its pages carries.
    pub csrf: String,
}

impl Store {
    /// Records a session of account `account` whose cookie hashes to `id_hash`, good until
    /// `expires`; the expired sessions go, and the account's oldest past [`MAX_SESSIONS`].
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn add_session(
        &self,
        id_hash: &str,
        account: i64,
        csrf: &str,
        now: i64,
        expires: i64,
    ) -> Result<(), StoreError> {
        // The expired go, and the account's oldest past [`MAX_SESSIONS`] - 1.
        sqlx::query(
            "DELETE FROM sessions WHERE expires_ms <= $1 OR (account_id = $2 AND created_ms <= \
             (SELECT created_ms FROM sessions WHERE account_id = $2 \
             ORDER BY created_ms DESC LIMIT 1 OFFSET $3))",
        )
        .bind(now)
        .bind(account)
        .bind(MAX_SESSIONS - 1)
        .execute(&self.pool)
        .await?;
        sqlx::query(
            "INSERT INTO sessions (id_hash, account_id, csrf, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id_hash)
        .bind(account)
        .bind(csrf)
        .bind(now)
        .bind(expires)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The session whose cookie hashes to `id_hash`, if it has not expired at `now` and its
    /// account is not disabled.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn session(&self, id_hash: &str, now: i64) -> Result<Option<SessionRow>, StoreError> {
        let row = sqlx::query(
            "SELECT a.id, a.name, a.role, a.disabled, a.grp, s.csrf FROM sessions s \
             JOIN accounts a ON a.id = s.account_id \
             WHERE s.id_hash = $1 AND s.expires_ms > $2 AND a.disabled = 0",
        )
        .bind(id_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(SessionRow {
                account: account(&row)?,
                csrf: row.try_get("csrf")?,
            })
        })
        .transpose()
    }

    /// Ends the session whose cookie hashes to `id_hash`, and every session expired at `now`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn end_session(&self, id_hash: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1 OR expires_ms <= $2")
            .bind(id_hash)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of account `name` (its token changed, it was disabled).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn end_sessions_of(&self, name: &str) -> Result<(), StoreError> {
        sqlx::query(
            "DELETE FROM sessions WHERE account_id IN (SELECT id FROM accounts WHERE name = $1)",
        )
        .bind(name)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
