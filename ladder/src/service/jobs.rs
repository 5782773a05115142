//! Jobs as workers see them: claim one under a lease, keep the lease with heartbeats, give it
//! back when the platform failed; and the sweeper that puts back the jobs of workers that went
//! silent.

use super::{Ladder, ServiceError, now_ms, require};
use crate::spec::JobSpec;
use crate::store::{Account, Role, VersionState};
use serde::{Deserialize, Serialize};

/// A job a worker claimed: what to do, and the lease to report it with.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClaimedJob {
    /// The job's id.
    pub id: i64,
    /// The lease's token: the only key to this job's result.
    pub lease: String,
    /// When the lease ends unless a heartbeat extends it (ms since the epoch, the server's
    /// clock).
    pub expires_ms: i64,
    /// Seconds between heartbeats.
    pub heartbeat_s: u64,
    /// The ladder's caps on builds and artifacts (a worker unpacks artifacts within them).
    #[schemars(with = "serde_json::Value")]
    pub build: crate::config::BuildSettings,
    /// What to do: `{"kind": "build", …}` or `{"kind": "match", …}` (`ladder/src/spec.rs`).
    #[schemars(with = "serde_json::Value")]
    pub spec: JobSpec,
}

impl Ladder {
    fn lease_ms(&self) -> i64 {
        (self.config.lease.seconds * 1000) as i64
    }

    /// Gives worker `caller` the next job under a new lease, or `None` when there is none.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for a token that is not a worker's.
    pub async fn claim(&self, caller: &Account) -> Result<Option<ClaimedJob>, ServiceError> {
        require(caller, Role::Worker)?;
        let lease = crate::auth::new_lease();
        let Some(claimed) = self
            .store
            .claim(caller.id, &lease, now_ms(), self.lease_ms())
            .await?
        else {
            return Ok(None);
        };
        let spec: JobSpec = serde_json::from_str(&claimed.spec).map_err(|e| {
            crate::store::StoreError::Corrupt(format!("job {}'s spec ({e})", claimed.id))
        })?;
        Ok(Some(ClaimedJob {
            id: claimed.id,
            lease,
            expires_ms: claimed.expires_ms,
            heartbeat_s: self.config.lease.heartbeat_s,
            build: self.config.build.clone(),
            spec,
        }))
    }

    /// Extends worker `caller`'s lease `lease` of job `job`; returns its new end.
    ///
    /// # Errors
    /// [`ServiceError::LeaseLost`] when the lease is not current.
    pub async fn heartbeat(
        &self,
        caller: &Account,
        job: i64,
        lease: &str,
    ) -> Result<i64, ServiceError> {
        require(caller, Role::Worker)?;
        let now = now_ms();
        if self
            .store
            .heartbeat(job, lease, now, self.lease_ms())
            .await?
        {
            Ok(now + self.lease_ms())
        } else {
            Err(ServiceError::LeaseLost(job))
        }
    }

    /// Worker `caller` gives job `job` back because the platform failed (`error`): it is
    /// played again (by any worker), never counted against a bot.
    ///
    /// # Errors
    /// [`ServiceError::LeaseLost`] when the lease is not current.
    pub async fn give_back(
        &self,
        caller: &Account,
        job: i64,
        lease: &str,
        error: &str,
    ) -> Result<(), ServiceError> {
        require(caller, Role::Worker)?;
        let error: String = error.chars().take(2000).collect();
        match self
            .store
            .give_back(job, lease, &error, now_ms(), self.max_attempts())
            .await?
        {
            Some(failed) => {
                if failed {
                    self.platform_failed(job).await?;
                }
                Ok(())
            }
            None => Err(ServiceError::LeaseLost(job)),
        }
    }

    fn max_attempts(&self) -> i64 {
        i64::from(self.config.lease.attempts.max(1))
    }

    /// Puts back every job whose lease expired; returns how many.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn sweep(&self) -> Result<usize, ServiceError> {
        let swept = self.store.sweep(now_ms(), self.max_attempts()).await?;
        for job in swept.iter().filter(|s| s.failed) {
            self.platform_failed(job.id).await?;
        }
        Ok(swept.len())
    }

    /// A job failed for good for the platform's reasons: a match is simply not counted (the
    /// matchmaker seats its versions again); a build leaves its version failed, saying the
    /// platform failed, not the bot.
    async fn platform_failed(&self, job: i64) -> Result<(), ServiceError> {
        let Some(row) = self.store.job(job).await? else {
            return Ok(());
        };
        if let Ok(JobSpec::Build(build)) = serde_json::from_str::<JobSpec>(&row.spec) {
            let log = format!(
                "The platform failed to build this version {} times (last: {}); this is not the \
                 bot's fault. Submit it again to retry.\n",
                row.attempts,
                row.error.as_deref().unwrap_or("unknown")
            );
            let log_hash = self.artifacts.put(log.as_bytes())?;
            self.store
                .set_version_build(
                    build.version,
                    &crate::store::BuildResult {
                        state: VersionState::BuildFailed,
                        artifact_hash: None,
                        run_command: None,
                        build_log_hash: Some(log_hash),
                        check_report: None,
                    },
                )
                .await?;
        }
        Ok(())
    }
}
