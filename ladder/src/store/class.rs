//! A class's accounts: each one's group and contact, and the one-time links that hand an
//! account its token (only each link's code hash is kept; a code is taken once).

use super::accounts::account;
use super::{Account, Store, StoreError};

impl Store {
    /// Sets account `name`'s class group and contact (an email or a student id); whether it
    /// exists.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_class(
        &self,
        name: &str,
        group: Option<&str>,
        contact: Option<&str>,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE accounts SET grp = $1, contact = $2 WHERE name = $3")
            .bind(group)
            .bind(contact)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Account `name`'s contact, if it has one.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn contact_of(&self, name: &str) -> Result<Option<String>, StoreError> {
        let row: Option<(Option<String>,)> =
            sqlx::query_as("SELECT contact FROM accounts WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.and_then(|(contact,)| contact))
    }

    /// Gives account `account` a one-time link whose code hashes to `code_hash`, good until
    /// `expires`; the account's earlier links and every expired one go.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn add_invite(
        &self,
        code_hash: &str,
        account: i64,
        now: i64,
        expires: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.write().await?;
        sqlx::query("DELETE FROM invites WHERE account_id = $1 OR expires_ms <= $2")
            .bind(account)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO invites (code_hash, account_id, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(code_hash)
        .bind(account)
        .bind(now)
        .bind(expires)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The enabled account of the link whose code hashes to `code_hash`, if the link is good
    /// at `now` (the link stays).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn invited(&self, code_hash: &str, now: i64) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(
            "SELECT a.id, a.name, a.role, a.disabled, a.grp FROM invites i \
             JOIN accounts a ON a.id = i.account_id \
             WHERE i.code_hash = $1 AND i.expires_ms > $2 AND a.disabled = 0",
        )
        .bind(code_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(account).transpose()
    }

    /// Takes the link whose code hashes to `code_hash`: its enabled account if the link was
    /// good at `now`. The link is gone either way, so that two takers never both get it.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn take_invite(
        &self,
        code_hash: &str,
        now: i64,
    ) -> Result<Option<Account>, StoreError> {
        let taken: Option<(i64, i64)> = sqlx::query_as(
            "DELETE FROM invites WHERE code_hash = $1 RETURNING account_id, expires_ms",
        )
        .bind(code_hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some((id, _)) = taken.filter(|&(_, expires)| expires > now) else {
            return Ok(None);
        };
        let row = sqlx::query(
            "SELECT id, name, role, disabled, grp FROM accounts WHERE id = $1 AND disabled = 0",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(account).transpose()
    }
}
