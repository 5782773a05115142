//! The work queue: jobs under leases. A worker claims a queued job (the lease: its token and
//! expiry), heartbeats extend the lease, the result is accepted only with the lease's token
//! and only once ([`Finish`]); a sweeper puts a job whose lease expired back in the queue, and
//! after too many lost leases fails it as a fault of the platform (never of a bot).

use super::{Backend, Store, StoreError};
use sqlx::Row;
use sqlx::any::AnyRow;

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Builds and checks a version.
    Build,
    /// Plays a match.
    Match,
}

impl JobKind {
    /// Its name in the store and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Build => "build",
            JobKind::Match => "match",
        }
    }

    pub(super) fn parse(name: &str) -> Option<JobKind> {
        [JobKind::Build, JobKind::Match]
            .into_iter()
            .find(|k| k.as_str() == name)
    }
}

/// Where a job is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobState {
    /// Waiting for a worker.
    Queued,
    /// A worker holds it under a lease.
    Leased,
    /// Its result was accepted.
    Done,
    /// It failed for the platform's reasons too often (or was cancelled).
    Failed,
}

impl JobState {
    /// Its name in the store and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Leased => "leased",
            JobState::Done => "done",
            JobState::Failed => "failed",
        }
    }

    fn parse(name: &str) -> Option<JobState> {
        [
            JobState::Queued,
            JobState::Leased,
            JobState::Done,
            JobState::Failed,
        ]
        .into_iter()
        .find(|s| s.as_str() == name)
    }
}

/// A job as the store holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRow {
    /// Its id.
    pub id: i64,
    /// What it does.
    pub kind: JobKind,
    /// Its spec ([`JobSpec`](crate::spec::JobSpec) as JSON).
    pub spec: String,
    /// Where it is.
    pub state: JobState,
    /// Leases it lost or gave back.
    pub attempts: i64,
    /// The worker holding it (leased) or that finished it (done).
    pub worker_id: Option<i64>,
    /// The account that asked for it (a challenge's owner), if any.
    pub requested_by: Option<i64>,
    /// Why its last attempt failed, if one did.
    pub error: Option<String>,
    /// When it was queued.
    pub created_ms: i64,
    /// When it ended.
    pub finished_ms: Option<i64>,
    /// Its duplicate group (a match's deal), if any.
    pub deal: Option<i64>,
    /// The final tournament it is a match of, and the match's id in its schedule.
    pub final_match: Option<FinalMatch>,
}

/// A match of a final tournament: which final, and the match's id in its schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinalMatch {
    /// The final's id.
    pub final_id: i64,
    /// The match's id in the final's schedule.
    pub index: i64,
}

/// A job a worker claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimed {
    /// The job's id.
    pub id: i64,
    /// What it does.
    pub kind: JobKind,
    /// Its spec as JSON.
    pub spec: String,
    /// Leases lost before this one.
    pub attempts: i64,
    /// When the lease ends unless a heartbeat extends it.
    pub expires_ms: i64,
}

/// What became of a result sent with a lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// It counts: the job is done (for a match, the id of its match).
    Counted(Option<i64>),
    /// The same lease's result was counted already: this one changes nothing.
    Duplicate(Option<i64>),
    /// The lease is not (or no longer) that worker's: refused.
    LeaseLost,
}

/// A job to queue.
#[derive(Clone, Copy, Debug)]
pub struct NewJob<'a> {
    /// What it does.
    pub kind: JobKind,
    /// Its spec as JSON.
    pub spec: &'a str,
    /// A higher priority is claimed first.
    pub priority: i64,
    /// The account that asked for it (a challenge's owner), if any.
    pub requested_by: Option<i64>,
    /// The versions it seats (marked seated now).
    pub seated: &'a [i64],
    /// Its duplicate group (a match's deal), if any.
    pub deal: Option<i64>,
    /// The final tournament it is a match of, if any.
    pub final_match: Option<FinalMatch>,
}

impl<'a> NewJob<'a> {
    /// A job of `kind` with `spec`, priority 0, asked by nobody, seating nobody.
    pub fn new(kind: JobKind, spec: &'a str) -> NewJob<'a> {
        NewJob {
            kind,
            spec,
            priority: 0,
            requested_by: None,
            seated: &[],
            deal: None,
            final_match: None,
        }
    }
}

/// What the sweeper did with one job whose lease expired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swept {
    /// The job.
    pub id: i64,
    /// What it does.
    pub kind: JobKind,
    /// Its spec as JSON.
    pub spec: String,
    /// Whether it failed for good (too many lost leases) rather than going back in the queue.
    pub failed: bool,
}

fn job(row: &AnyRow) -> Result<JobRow, StoreError> {
    let kind: String = row.try_get("kind")?;
    let state: String = row.try_get("state")?;
    Ok(JobRow {
        id: row.try_get("id")?,
        kind: JobKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("the job kind {kind:?}")))?,
        spec: row.try_get("spec")?,
        state: JobState::parse(&state)
            .ok_or_else(|| StoreError::Corrupt(format!("the job state {state:?}")))?,
        attempts: row.try_get("attempts")?,
        worker_id: row.try_get("worker_id")?,
        requested_by: row.try_get("requested_by")?,
        error: row.try_get("error")?,
        created_ms: row.try_get("created_ms")?,
        finished_ms: row.try_get("finished_ms")?,
        deal: row.try_get("deal")?,
        final_match: match (row.try_get("final_id")?, row.try_get("final_index")?) {
            (Some(final_id), Some(index)) => Some(FinalMatch { final_id, index }),
            _ => None,
        },
    })
}

impl Store {
    /// Queues a job of `kind` with `spec` (JSON); a higher `priority` is claimed first. The
    /// versions it seats are marked seated at `now` (the matchmaker seats first those seated
    /// least recently).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn enqueue(&self, job: &NewJob<'_>, now: i64) -> Result<i64, StoreError> {
        let NewJob {
            kind,
            spec,
            priority,
            requested_by,
            seated,
            deal,
            final_match,
        } = *job;
        let mut tx = self.write().await?;
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO jobs (kind, spec, priority, state, requested_by, deal, created_ms, \
             final_id, final_index) \
             VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(kind.as_str())
        .bind(spec)
        .bind(priority)
        .bind(requested_by)
        .bind(deal)
        .bind(now)
        .bind(final_match.map(|f| f.final_id))
        .bind(final_match.map(|f| f.index))
        .fetch_one(&mut *tx)
        .await?;
        // In id order, as a report takes them (`in_id_order`).
        for version in super::matches::in_id_order(seated.iter().copied()) {
            sqlx::query("UPDATE versions SET last_seated = $1 WHERE id = $2")
                .bind(now)
                .bind(version)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    /// Gives the next queued job (the highest priority, then the oldest) to worker `worker`
    /// under the lease `lease` until `now + lease_ms`, or `None` when the queue is empty.
    /// PostgreSQL: `FOR UPDATE SKIP LOCKED`, so workers never wait on one another; SQLite: one
    /// writer at a time.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn claim(
        &self,
        worker: i64,
        lease: &str,
        now: i64,
        lease_ms: i64,
    ) -> Result<Option<Claimed>, StoreError> {
        let sql = match self.backend {
            Backend::Postgres => {
                "UPDATE jobs SET state = 'leased', worker_id = $1, lease_token = $2, \
                 lease_expires_ms = $3 WHERE id = (SELECT id FROM jobs WHERE state = 'queued' \
                 ORDER BY priority DESC, id LIMIT 1 FOR UPDATE SKIP LOCKED) \
                 RETURNING id, kind, spec, attempts, lease_expires_ms"
            }
            Backend::Sqlite => {
                "UPDATE jobs SET state = 'leased', worker_id = $1, lease_token = $2, \
                 lease_expires_ms = $3 WHERE id = (SELECT id FROM jobs WHERE state = 'queued' \
                 ORDER BY priority DESC, id LIMIT 1) \
                 RETURNING id, kind, spec, attempts, lease_expires_ms"
            }
        };
        let mut tx = self.write().await?;
        let row = sqlx::query(sql)
            .bind(worker)
            .bind(lease)
            .bind(now + lease_ms)
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await?;
        let Some(row) = row else { return Ok(None) };
        let kind: String = row.try_get("kind")?;
        Ok(Some(Claimed {
            id: row.try_get("id")?,
            kind: JobKind::parse(&kind)
                .ok_or_else(|| StoreError::Corrupt(format!("the job kind {kind:?}")))?,
            spec: row.try_get("spec")?,
            attempts: row.try_get("attempts")?,
            expires_ms: row.try_get("lease_expires_ms")?,
        }))
    }

    /// Extends the lease `lease` of job `job` to `now + lease_ms`; `false` when the lease is
    /// not current (expired, swept, or another's).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn heartbeat(
        &self,
        job: i64,
        lease: &str,
        now: i64,
        lease_ms: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE jobs SET lease_expires_ms = $1 WHERE id = $2 AND state = 'leased' \
             AND lease_token = $3 AND lease_expires_ms >= $4",
        )
        .bind(now + lease_ms)
        .bind(job)
        .bind(lease)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Puts back every job whose lease expired before `now`: in the queue again, or failed
    /// for good once it has lost `max_attempts` leases.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn sweep(&self, now: i64, max_attempts: i64) -> Result<Vec<Swept>, StoreError> {
        let mut tx = self.write().await?;
        let rows = sqlx::query(
            "UPDATE jobs SET attempts = attempts + 1, worker_id = NULL, lease_token = NULL, \
             lease_expires_ms = NULL, error = 'the worker stopped answering (its lease expired)', \
             state = CASE WHEN attempts + 1 >= $2 THEN 'failed' ELSE 'queued' END, \
             finished_ms = CASE WHEN attempts + 1 >= $2 THEN $1 ELSE NULL END \
             WHERE state = 'leased' AND lease_expires_ms < $1 RETURNING id, kind, spec, state",
        )
        .bind(now)
        .bind(max_attempts)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        rows.iter()
            .map(|row| {
                let kind: String = row.try_get("kind")?;
                let state: String = row.try_get("state")?;
                Ok(Swept {
                    id: row.try_get("id")?,
                    kind: JobKind::parse(&kind)
                        .ok_or_else(|| StoreError::Corrupt(format!("the job kind {kind:?}")))?,
                    spec: row.try_get("spec")?,
                    failed: state == "failed",
                })
            })
            .collect()
    }

    /// Gives back job `job` held under `lease` because of the platform (`error`: the worker
    /// could not fetch an artifact, the referee failed): queued again, or failed for good
    /// once it has lost `max_attempts` leases. `None` when the lease is not current, else
    /// whether it failed for good.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn give_back(
        &self,
        job: i64,
        lease: &str,
        error: &str,
        now: i64,
        max_attempts: i64,
    ) -> Result<Option<bool>, StoreError> {
        let mut tx = self.write().await?;
        let row: Option<(String,)> = sqlx::query_as(
            "UPDATE jobs SET attempts = attempts + 1, worker_id = NULL, lease_token = NULL, \
             lease_expires_ms = NULL, error = $1, \
             state = CASE WHEN attempts + 1 >= $2 THEN 'failed' ELSE 'queued' END, \
             finished_ms = CASE WHEN attempts + 1 >= $2 THEN $3 ELSE NULL END \
             WHERE id = $4 AND state = 'leased' AND lease_token = $5 AND lease_expires_ms >= $3 \
             RETURNING state",
        )
        .bind(error)
        .bind(max_attempts)
        .bind(now)
        .bind(job)
        .bind(lease)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(row.map(|(state,)| state == "failed"))
    }

    /// Marks job `job` done with lease `lease` inside `tx`, if that lease is current.
    pub(super) async fn complete(
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        job: i64,
        lease: &str,
        now: i64,
    ) -> Result<Finish, StoreError> {
        let done = sqlx::query(
            "UPDATE jobs SET state = 'done', finished_ms = $1 WHERE id = $2 AND state = 'leased' \
             AND lease_token = $3 AND lease_expires_ms >= $1",
        )
        .bind(now)
        .bind(job)
        .bind(lease)
        .execute(&mut **tx)
        .await?;
        if done.rows_affected() == 1 {
            return Ok(Finish::Counted(None));
        }
        let row: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT state, lease_token FROM jobs WHERE id = $1")
                .bind(job)
                .fetch_optional(&mut **tx)
                .await?;
        Ok(match row {
            Some((state, Some(token))) if state == "done" && token == lease => {
                let matched: Option<(i64,)> =
                    sqlx::query_as("SELECT id FROM matches WHERE job_id = $1")
                        .bind(job)
                        .fetch_optional(&mut **tx)
                        .await?;
                Finish::Duplicate(matched.map(|(id,)| id))
            }
            _ => Finish::LeaseLost,
        })
    }

    /// Job `id`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn job(&self, id: i64) -> Result<Option<JobRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, kind, spec, state, attempts, worker_id, requested_by, error, created_ms, deal, final_id, final_index, \
             finished_ms FROM jobs WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(job).transpose()
    }

    /// Whether a match of duplicate group `deal` is still to be played (queued or leased):
    /// its deal is then still secret.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn deal_in_play(&self, deal: i64) -> Result<bool, StoreError> {
        let (count,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM jobs WHERE deal = $1 AND state IN ('queued', 'leased')",
        )
        .bind(deal)
        .fetch_one(&self.pool)
        .await?;
        Ok(count > 0)
    }

    /// The jobs in state `state`, oldest first (at most 1000).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn jobs_in(&self, state: JobState) -> Result<Vec<JobRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, kind, spec, state, attempts, worker_id, requested_by, error, created_ms, deal, final_id, final_index, \
             finished_ms FROM jobs WHERE state = $1 ORDER BY id LIMIT 1000",
        )
        .bind(state.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(job).collect()
    }

    /// The match jobs queued or leased (what the matchmaker keeps ahead of the workers).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn pending_matches(&self) -> Result<i64, StoreError> {
        let (count,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM jobs WHERE kind = 'match' AND state IN ('queued', 'leased') \
             AND requested_by IS NULL",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(count)
    }

    /// The specs of the match jobs queued since `since` (the tables seated lately), oldest
    /// first, with when each was queued (read through the index on `created_ms`: a ladder's
    /// old jobs are not read).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn recent_matches(&self, since: i64) -> Result<Vec<(i64, String)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT created_ms, spec FROM jobs WHERE kind = 'match' AND created_ms >= $1 \
             ORDER BY created_ms, id",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Finishes build job `job` held under `lease`: version `version` becomes what `result`
    /// says, if the lease is current.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn finish_build(
        &self,
        job: i64,
        lease: &str,
        now: i64,
        version: i64,
        result: &super::BuildResult,
    ) -> Result<Finish, StoreError> {
        let mut tx = self.write().await?;
        let finish = Self::complete(&mut tx, job, lease, now).await?;
        if finish != Finish::Counted(None) {
            tx.rollback().await?;
            return Ok(finish);
        }
        Self::write_build(&mut tx, version, result).await?;
        tx.commit().await?;
        Ok(finish)
    }

    /// Sets version `version` to what `result` says, with no job (a build the platform
    /// failed, a built-in bot that needs no build).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_version_build(
        &self,
        version: i64,
        result: &super::BuildResult,
    ) -> Result<(), StoreError> {
        let mut tx = self.write().await?;
        Self::write_build(&mut tx, version, result).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn write_build(
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        version: i64,
        result: &super::BuildResult,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE versions SET state = $1, artifact_hash = $2, run_command = $3, \
             build_log_hash = $4, check_report = $5 WHERE id = $6",
        )
        .bind(result.state.as_str())
        .bind(result.artifact_hash.as_deref())
        .bind(result.run_command.as_deref())
        .bind(result.build_log_hash.as_deref())
        .bind(result.check_report.as_deref())
        .bind(version)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
