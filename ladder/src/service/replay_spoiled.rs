//! A match the platform spoiled, played again: a void match (the game itself failed, or the
//! worker's machine did) is queued anew with the same spec — the same seats, seed and deal —
//! and, for a final's match, the same place in the final's schedule.

use super::{Ladder, ServiceError, now_ms, require};
use crate::store::{Account, JobKind, NewJob, Role};

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
        Ok(self
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
            .await?)
    }
}
