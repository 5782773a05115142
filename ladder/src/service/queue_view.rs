//! The queue and the workers as the queue's page shows them: jobs waiting and in hand, each
//! lease and when it ends, each worker with its jobs in hand and its matches of the last hour,
//! and the platform's own troubles (jobs that lost a lease or were given back: never a bot's
//! fault). What failed is said to the admin only: a worker's error can name its machine's
//! paths.

use super::{Ladder, ServiceError, now_ms};
use crate::store::{Account, JobKind, Role};
use serde::{Deserialize, Serialize};

/// Troubled jobs shown.
const TROUBLES: i64 = 20;

/// The queue's page's data (`GET /api/v1/queue`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QueueView {
    /// Match jobs waiting for a worker.
    pub queued_matches: i64,
    /// Build jobs waiting.
    pub queued_builds: i64,
    /// Jobs in workers' hands.
    pub leased: Vec<LeasedView>,
    /// Jobs the platform failed for good (as many lost leases as the ladder allows).
    pub failed: i64,
    /// Every worker account.
    pub workers: Vec<WorkerView>,
    /// The last jobs that lost a lease or were given back, newest first.
    pub troubles: Vec<TroubleView>,
}

/// A job in a worker's hand.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LeasedView {
    /// The job.
    pub id: i64,
    /// `match` or `build`.
    pub kind: String,
    /// Who holds it.
    pub worker: String,
    /// Seconds left on its lease (it is renewed by the worker's heartbeats; at 0 it goes back
    /// to the queue).
    pub lease_left_s: i64,
    /// Leases it lost before.
    pub attempts: i64,
}

/// A worker.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WorkerView {
    /// Its account's name.
    pub name: String,
    /// Whether the admin disabled it.
    pub disabled: bool,
    /// Jobs in its hand.
    pub leased: i64,
    /// Matches it reported in the last hour.
    pub matches_last_hour: i64,
    /// When it last reported a match (ms since the epoch).
    pub last_match_ms: Option<i64>,
}

/// A job the platform had trouble with.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TroubleView {
    /// The job.
    pub id: i64,
    /// `match` or `build`.
    pub kind: String,
    /// `queued` (to be played again), `leased`, `done` or `failed` (for good).
    pub state: String,
    /// Leases it lost.
    pub attempts: i64,
    /// What failed, last (the admin only).
    pub error: Option<String>,
}

impl Ladder {
    /// The queue as `viewer` sees it.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn queue_view(&self, viewer: Option<&Account>) -> Result<QueueView, ServiceError> {
        let admin = viewer.is_some_and(|a| a.role == Role::Admin);
        let now = now_ms();
        let mut view = QueueView {
            queued_matches: 0,
            queued_builds: 0,
            leased: Vec::new(),
            failed: 0,
            workers: Vec::new(),
            troubles: Vec::new(),
        };
        for (kind, state, count) in self.store.job_counts().await? {
            match (kind, state.as_str()) {
                (JobKind::Match, "queued") => view.queued_matches = count,
                (JobKind::Build, "queued") => view.queued_builds = count,
                (_, "failed") => view.failed += count,
                _ => {}
            }
        }
        view.leased = self
            .store
            .leased_jobs()
            .await?
            .into_iter()
            .map(|j| LeasedView {
                id: j.id,
                kind: j.kind.as_str().to_owned(),
                worker: j.worker,
                lease_left_s: ((j.lease_expires_ms - now) / 1000).max(0),
                attempts: j.attempts,
            })
            .collect();
        view.workers = self
            .store
            .worker_rows(now - 3_600_000)
            .await?
            .into_iter()
            .map(|w| WorkerView {
                name: w.name,
                disabled: w.disabled,
                leased: w.leased,
                matches_last_hour: w.matches_since,
                last_match_ms: w.last_match_ms,
            })
            .collect();
        view.troubles = self
            .store
            .troubled_jobs(TROUBLES)
            .await?
            .into_iter()
            .map(|t| TroubleView {
                id: t.id,
                kind: t.kind.as_str().to_owned(),
                state: t.state,
                attempts: t.attempts,
                error: t.error.filter(|_| admin),
            })
            .collect();
        Ok(view)
    }
}
