//! The ladder's own settings, by key: its config (JSON), whether it is paused or frozen.

use super::{Store, StoreError};

impl Store {
    /// The value of setting `key`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> = sqlx::query_as("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|(value,)| value))
    }

    /// Sets `key` to `value`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO settings (key, value) VALUES ($1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(key)
        .bind(value)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
