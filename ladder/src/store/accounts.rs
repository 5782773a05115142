//! Accounts: owners of bots, the admin, workers. Each is found by the hash of its token; the
//! token itself is never stored.

use super::{Store, StoreError};
use sqlx::Row;
use sqlx::any::AnyRow;

/// What an account may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Submits versions of its bots, reads their builds, logs and stderr, challenges.
    Owner,
    /// Everything an owner may, and pauses, freezes, removes and makes accounts.
    Admin,
    /// Claims jobs and reports their results, nothing else.
    Worker,
}

impl Role {
    /// Its name in the store and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Worker => "worker",
        }
    }

    /// The role a name names.
    pub fn parse(name: &str) -> Option<Role> {
        [Role::Owner, Role::Admin, Role::Worker]
            .into_iter()
            .find(|r| r.as_str() == name)
    }
}

/// An account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// What it may do.
    pub role: Role,
    /// Whether the admin disabled it.
    pub disabled: bool,
    /// Its class group, if the admin gave one (the board filters by it).
    pub group: Option<String>,
}

pub(super) fn account(row: &AnyRow) -> Result<Account, StoreError> {
    let role: String = row.try_get("role")?;
    Ok(Account {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        role: Role::parse(&role)
            .ok_or_else(|| StoreError::Corrupt(format!("the role {role:?}")))?,
        disabled: row.try_get::<i64, _>("disabled")? != 0,
        group: row.try_get("grp")?,
    })
}

impl Store {
    /// Adds an account whose token hashes to `token_hash`.
    ///
    /// # Errors
    /// [`StoreError::Taken`] when the name is.
    pub async fn add_account(
        &self,
        name: &str,
        role: Role,
        token_hash: &str,
        now: i64,
    ) -> Result<Account, StoreError> {
        let row = sqlx::query(
            "INSERT INTO accounts (name, role, token_hash, created_ms) VALUES ($1, $2, $3, $4) \
             RETURNING id, name, role, disabled, grp",
        )
        .bind(name)
        .bind(role.as_str())
        .bind(token_hash)
        .bind(now)
        .fetch_one(&self.pool)
        .await
        .map_err(|e| StoreError::or_taken(e, name))?;
        account(&row)
    }

    /// The account whose token hashes to `token_hash`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn account_by_token(&self, token_hash: &str) -> Result<Option<Account>, StoreError> {
        let row =
            sqlx::query("SELECT id, name, role, disabled, grp FROM accounts WHERE token_hash = $1")
                .bind(token_hash)
                .fetch_optional(&self.pool)
                .await?;
        row.as_ref().map(account).transpose()
    }

    /// The account named `name`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn account_by_name(&self, name: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query("SELECT id, name, role, disabled, grp FROM accounts WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(account).transpose()
    }

    /// Every account, by id.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let rows = sqlx::query("SELECT id, name, role, disabled, grp FROM accounts ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(account).collect()
    }

    /// Gives account `name` a new token (the old one stops working, and so do the account's
    /// web sessions); whether it exists.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_token(&self, name: &str, token_hash: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE accounts SET token_hash = $1 WHERE name = $2")
            .bind(token_hash)
            .bind(name)
            .execute(&self.pool)
            .await?;
        self.end_sessions_of(name).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Disables or enables account `name` (disabling ends its web sessions); whether it exists.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_disabled(&self, name: &str, disabled: bool) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE accounts SET disabled = $1 WHERE name = $2")
            .bind(i64::from(disabled))
            .bind(name)
            .execute(&self.pool)
            .await?;
        if disabled {
            self.end_sessions_of(name).await?;
        }
        Ok(done.rows_affected() == 1)
    }

    /// Puts account `name` in class group `group` (`None`: in none); whether it exists.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_group(&self, name: &str, group: Option<&str>) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE accounts SET grp = $1 WHERE name = $2")
            .bind(group)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
