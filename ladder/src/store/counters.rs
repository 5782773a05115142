//! Counters that only go up (the matchmaker's group number, from which match seeds derive).

use super::{Store, StoreError};

impl Store {
    /// Takes the next `count` values of counter `name` (starting at 0) and returns the first.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn take(&self, name: &str, count: i64) -> Result<i64, StoreError> {
        let (next,): (i64,) = sqlx::query_as(
            "INSERT INTO counters (name, value) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET value = counters.value + excluded.value \
             RETURNING value",
        )
        .bind(name)
        .bind(count)
        .fetch_one(&self.pool)
        .await?;
        Ok(next - count)
    }
}
