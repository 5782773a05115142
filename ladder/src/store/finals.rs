//! Final tournaments: a schedule among the last versions that the ladder's workers play as
//! unranked match jobs, each job marked with its final and its id in the schedule.

use super::matches::match_row;
use super::{MatchRow, Store, StoreError};
use sqlx::Row;

/// A final tournament as the store holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalRow {
    /// Its id.
    pub id: i64,
    /// Its schedule and field (JSON; the service's `FinalSpec`).
    pub spec: String,
    /// When it was started.
    pub created_ms: i64,
    /// Its standings (JSON), once its last match is in.
    pub standings: Option<String>,
}

fn final_row(row: &sqlx::any::AnyRow) -> Result<FinalRow, StoreError> {
    Ok(FinalRow {
        id: row.try_get("id")?,
        spec: row.try_get("spec")?,
        created_ms: row.try_get("created_ms")?,
        standings: row.try_get("standings")?,
    })
}

impl Store {
    /// Records a final tournament of `spec` (JSON); its id.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn add_final(&self, spec: &str, now: i64) -> Result<i64, StoreError> {
        let (id,): (i64,) =
            sqlx::query_as("INSERT INTO finals (spec, created_ms) VALUES ($1, $2) RETURNING id")
                .bind(spec)
                .bind(now)
                .fetch_one(&self.pool)
                .await?;
        Ok(id)
    }

    /// The final tournament `id`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn final_row(&self, id: i64) -> Result<Option<FinalRow>, StoreError> {
        let row = sqlx::query("SELECT id, spec, created_ms, standings FROM finals WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(final_row).transpose()
    }

    /// The last final tournament started, if any.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn latest_final(&self) -> Result<Option<FinalRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, spec, created_ms, standings FROM finals ORDER BY id DESC LIMIT 1",
        )
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(final_row).transpose()
    }

    /// Keeps final `id`'s standings (JSON).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_final_standings(&self, id: i64, standings: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE finals SET standings = $1 WHERE id = $2")
            .bind(standings)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets final `id`'s standings (a match of it is played again: they are made anew once
    /// it is in).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn clear_final_standings(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE finals SET standings = NULL WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The matches of final `id` played so far, each with its id in the final's schedule; a
    /// match played again (after a void one) comes after the one it replaces.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn final_matches(&self, id: i64) -> Result<Vec<(i64, MatchRow)>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT m.id, m.job_id, m.ranked, m.spec, m.record, m.log_hash, m.stderr_hashes, \
             j.requested_by, m.finished_ms, j.final_id, j.final_index \
             FROM matches m JOIN jobs j ON j.id = m.job_id ",
            "WHERE j.final_id = $1 ORDER BY j.final_index, m.id"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("final_index")?, match_row(row)?)))
            .collect()
    }

    /// How many of final `id`'s schedule's matches are played (a match played again counts
    /// once).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn final_played(&self, id: i64) -> Result<i64, StoreError> {
        let (played,): (i64,) = sqlx::query_as(
            "SELECT COUNT(DISTINCT j.final_index) FROM matches m JOIN jobs j ON j.id = m.job_id \
             WHERE j.final_id = $1",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        Ok(played)
    }

    /// How many of final `id`'s match jobs are still queued or leased, and how many failed
    /// for good.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn final_jobs_open(&self, id: i64) -> Result<(i64, i64), StoreError> {
        let (open, failed): (i64, i64) = sqlx::query_as(
            "SELECT \
             COALESCE(SUM(CASE WHEN state IN ('queued', 'leased') THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN state = 'failed' THEN 1 ELSE 0 END), 0) \
             FROM jobs WHERE final_id = $1",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        Ok((open, failed))
    }
}
