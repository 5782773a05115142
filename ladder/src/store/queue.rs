//! The queue as its page shows it: the jobs waiting and in hand, the workers and what they did
//! lately, the jobs the platform failed.

use super::{JobKind, Store, StoreError};
use sqlx::Row;

/// A job in a worker's hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeasedJob {
    /// The job.
    pub id: i64,
    /// A match or a build.
    pub kind: JobKind,
    /// The worker holding it.
    pub worker: String,
    /// When its lease ends unless the worker heartbeats (ms since the epoch).
    pub lease_expires_ms: i64,
    /// Leases it lost before this one.
    pub attempts: i64,
}

/// A worker account and what it did lately.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerRow {
    /// Its name.
    pub name: String,
    /// Whether the admin disabled it.
    pub disabled: bool,
    /// Jobs in its hand now.
    pub leased: i64,
    /// Matches it reported since the time asked about.
    pub matches_since: i64,
    /// When it last reported a match.
    pub last_match_ms: Option<i64>,
}

/// A job that lost a lease or was given back: the platform's trouble, never a bot's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TroubledJob {
    /// The job.
    pub id: i64,
    /// A match or a build.
    pub kind: JobKind,
    /// `queued` (to be played again), `leased`, `done` or `failed` (for good).
    pub state: String,
    /// Leases it lost.
    pub attempts: i64,
    /// What failed, last.
    pub error: Option<String>,
}

impl Store {
    /// How many jobs of each kind are in each state that is not `done`: (kind, state, count).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn job_counts(&self) -> Result<Vec<(JobKind, String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT kind, state, COUNT(*) FROM jobs WHERE state IN ('queued', 'leased', 'failed') \
             GROUP BY kind, state ORDER BY kind, state",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((kind(row.try_get(0)?)?, row.try_get(1)?, row.try_get(2)?)))
            .collect()
    }

    /// The jobs in workers' hands, by id.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn leased_jobs(&self) -> Result<Vec<LeasedJob>, StoreError> {
        let rows = sqlx::query(
            "SELECT j.id, j.kind, a.name, j.lease_expires_ms, j.attempts FROM jobs j \
             JOIN accounts a ON a.id = j.worker_id WHERE j.state = 'leased' ORDER BY j.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(LeasedJob {
                    id: row.try_get(0)?,
                    kind: kind(row.try_get(1)?)?,
                    worker: row.try_get(2)?,
                    lease_expires_ms: row.try_get(3)?,
                    attempts: row.try_get(4)?,
                })
            })
            .collect()
    }

    /// Every worker account, by name, with its matches reported since `since`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn worker_rows(&self, since: i64) -> Result<Vec<WorkerRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name, a.disabled, \
             (SELECT COUNT(*) FROM jobs j WHERE j.worker_id = a.id AND j.state = 'leased'), \
             (SELECT COUNT(*) FROM matches m WHERE m.worker_id = a.id AND m.finished_ms >= $1), \
             (SELECT MAX(m.finished_ms) FROM matches m WHERE m.worker_id = a.id) \
             FROM accounts a WHERE a.role = 'worker' ORDER BY a.name",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(WorkerRow {
                    name: row.try_get(0)?,
                    disabled: row.try_get::<i64, _>(1)? != 0,
                    leased: row.try_get(2)?,
                    matches_since: row.try_get(3)?,
                    last_match_ms: row.try_get(4)?,
                })
            })
            .collect()
    }

    /// The last `limit` jobs that lost a lease or were given back, newest first.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn troubled_jobs(&self, limit: i64) -> Result<Vec<TroubledJob>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, kind, state, attempts, error FROM jobs WHERE attempts > 0 \
             ORDER BY id DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(TroubledJob {
                    id: row.try_get(0)?,
                    kind: kind(row.try_get(1)?)?,
                    state: row.try_get(2)?,
                    attempts: row.try_get(3)?,
                    error: row.try_get(4)?,
                })
            })
            .collect()
    }
}

/// The kind a stored name names.
fn kind(name: String) -> Result<JobKind, StoreError> {
    JobKind::parse(&name).ok_or_else(|| StoreError::Corrupt(format!("the job kind {name:?}")))
}
