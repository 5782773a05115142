//! A match the platform spoiled, played again: a void match (the game itself failed) or a
//! match job that failed for good (its workers were lost `[lease] attempts` times) is queued
//! anew with the same spec — the same seats, seed and deal — and, for a final's match, the same
//! place in the final's schedule (the final's standings are made again once it is in).

use super::{Ladder, ServiceError, now_ms, require};
use crate::store::{Account, JobKind, JobRow, JobState, NewJob, Role};

/// A spoiled match goes before the others.
const AGAIN_PRIORITY: i64 = 6;

impl Ladder {
    /// Queues void match `id` again (the admin only); the new job's id.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin, [`ServiceError::NotFound`],
    /// [`ServiceError::Conflict`] for a match that was played out (its result stands).
    pub async fn play_again(&self, caller: &Account, id: i64) -> Result<i64, ServiceError> {
        require(caller, Role::Admin)?;
        let row = self
            .store
            .match_row(id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no match {id}")))?;
        let (_, record) = super::matches_view::parsed(&row)?;
        if !record.is_void() {
            return Err(ServiceError::Conflict(format!(
                "match {id} was played out: its result stands (only a void match is played again)"
            )));
        }
        let job = self
            .store
            .job(row.job_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no job of match {id}")))?;
        self.queue_again(&job).await
    }

    /// Queues match job `id`, which failed for good, again (the admin only); the new job's id.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin, [`ServiceError::NotFound`],
    /// [`ServiceError::Conflict`] for a job that did not fail or is a build's (a version is
    /// built again by submitting it again).
    pub async fn retry_job(&self, caller: &Account, id: i64) -> Result<i64, ServiceError> {
        require(caller, Role::Admin)?;
        let job = self
            .store
            .job(id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no job {id}")))?;
        if job.kind != JobKind::Match || job.state != JobState::Failed {
            return Err(ServiceError::Conflict(format!(
                "job {id} is not a match job that failed for good"
            )));
        }
        self.queue_again(&job).await
    }

    /// Queues `job`'s match again, as it was asked for.
    async fn queue_again(&self, job: &JobRow) -> Result<i64, ServiceError> {
        let again = self
            .store
            .enqueue(
                &NewJob {
                    priority: AGAIN_PRIORITY,
                    requested_by: job.requested_by,
                    deal: job.deal,
                    final_match: job.final_match,
                    ..NewJob::new(JobKind::Match, &job.spec)
                },
                now_ms(),
            )
            .await?;
        if let Some(of) = job.final_match {
            self.store.clear_final_standings(of.final_id).await?;
        }
        Ok(again)
    }
}
