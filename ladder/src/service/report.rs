//! What a worker reports, and how the server accepts it: a match's log is replayed by the
//! engine (the replay's rules check) and must say what the record says, for the seats, seed
//! and rules of the job's spec, before anything counts; a build's artifact and log are kept.

use super::{Ladder, ServiceError, now_ms, require};
use crate::spec::{JobSpec, MatchSpec};
use crate::store::{Account, BuildResult, Finish, NewMatch, Role, SeatResult, VersionState};
use referee::runner::{LogRecord, MatchRecord};
use std::io::Read;

/// The most a match log may hold once decompressed.
pub const LOG_BYTES: u64 = 256 << 20;

/// A worker's report of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The match's record, as the worker's referee wrote it.
    pub record: MatchRecord,
    /// Its log, gzip-compressed.
    pub log_gz: Vec<u8>,
    /// Each seat's stderr, by seat (`None`: nothing written).
    pub stderr: Vec<Option<Vec<u8>>>,
}

/// A worker's report of a build.
#[derive(Clone, Debug)]
pub struct BuildReport {
    /// The build's log.
    pub log: String,
    /// The built artifact (a deterministic `.tar.gz`) and the command that runs it, when it
    /// built.
    pub built: Option<(Vec<u8>, String)>,
    /// The checklist (JSON), when it built and was checked.
    pub check: Option<serde_json::Value>,
    /// Whether it passed the check.
    pub passed: bool,
}

fn refuse(job: i64, why: impl Into<String>) -> ServiceError {
    ServiceError::BadResult {
        job,
        why: why.into(),
    }
}

impl Ladder {
    async fn job_spec(&self, job: i64) -> Result<JobSpec, ServiceError> {
        let row = self
            .store
            .job(job)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no job {job}")))?;
        serde_json::from_str(&row.spec).map_err(|e| {
            crate::store::StoreError::Corrupt(format!("job {job}'s spec ({e})")).into()
        })
    }

    /// Accepts worker `caller`'s report of match job `job` under `lease`, once its log
    /// replays and agrees with the record and the spec; returns the match's id. A report
    /// that does not hold is refused and the job goes back in the queue (played again by
    /// another worker: never counted against a bot).
    ///
    /// # Errors
    /// [`ServiceError::LeaseLost`], [`ServiceError::BadResult`], [`ServiceError::NotFound`].
    pub async fn report_match(
        &self,
        caller: &Account,
        job: i64,
        lease: &str,
        report: MatchReport,
    ) -> Result<i64, ServiceError> {
        require(caller, Role::Worker)?;
        let JobSpec::Match(spec) = self.job_spec(job).await? else {
            return Err(refuse(job, "it is a build job, not a match"));
        };
        let log = match self.checked_log(job, &spec, &report) {
            Ok(log) => log,
            Err(refusal) => {
                let why = refusal.to_string();
                let _ = self.give_back(caller, job, lease, &why).await;
                return Err(refusal);
            }
        };
        let log_hash = self.artifacts.put(&log)?;
        let stderr: Vec<Option<String>> = report
            .stderr
            .iter()
            .map(|bytes| bytes.as_deref().map(|b| self.artifacts.put(b)).transpose())
            .collect::<Result<_, _>>()?;
        let record = &report.record;
        let seats = spec
            .seats
            .iter()
            .enumerate()
            .map(|(i, seat)| SeatResult {
                version: seat.version,
                score: record.scores[i],
                rank: record.ranks[i],
                faults: record.faults.iter().filter(|f| f.seat == i).count() as i64,
                times: record
                    .stats
                    .get(i)
                    .map(|stats| stats.times.clone())
                    .unwrap_or_default(),
            })
            .collect();
        let result = NewMatch {
            // A void match (the game itself failed) is kept, but moves no rating.
            ranked: spec.ranked && record.internal_error.is_none(),
            spec: serde_json::to_string(&spec).map_err(std::io::Error::other)?,
            record: serde_json::to_string(record).map_err(std::io::Error::other)?,
            log_hash,
            stderr_hashes: serde_json::to_string(&stderr).map_err(std::io::Error::other)?,
            seats,
        };
        let finish = self
            .store
            .finish_match(
                job,
                lease,
                caller.id,
                now_ms(),
                &result,
                &referee::tournament::ratings::updated,
            )
            .await?;
        if matches!(finish, Finish::Counted(Some(_))) {
            self.recorded.notify_one();
        }
        match finish {
            Finish::Counted(Some(id)) | Finish::Duplicate(Some(id)) => Ok(id),
            _ => Err(ServiceError::LeaseLost(job)),
        }
    }

    /// The decompressed log of `report`, once it replays and agrees with the record and the
    /// spec.
    fn checked_log(
        &self,
        job: i64,
        spec: &MatchSpec,
        report: &MatchReport,
    ) -> Result<Vec<u8>, ServiceError> {
        let mut log = Vec::new();
        flate2::read::GzDecoder::new(&report.log_gz[..])
            .take(LOG_BYTES + 1)
            .read_to_end(&mut log)
            .map_err(|e| refuse(job, format!("the log is not gzip ({e})")))?;
        if log.len() as u64 > LOG_BYTES {
            return Err(refuse(
                job,
                format!("the log is over {} MiB", LOG_BYTES >> 20),
            ));
        }
        let path = self
            .scratch
            .join(format!("job-{job}-{}.jsonl", crate::auth::new_lease()));
        std::fs::write(&path, &log)?;
        let checked = referee::replay::read_match(&path);
        let _ = std::fs::remove_file(&path);
        let checked = checked.map_err(|e| refuse(job, format!("its log does not replay: {e}")))?;
        let names: Vec<&str> = spec.seats.iter().map(|s| s.bot.name.as_str()).collect();
        let Some(LogRecord::Header {
            game,
            seed,
            players,
            max_faults,
            policy,
            ..
        }) = checked.records.first()
        else {
            return Err(refuse(job, "its log has no header"));
        };
        let logged: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        if *game != spec.game || *seed != spec.seed || logged != names {
            return Err(refuse(
                job,
                "its log is of another match (game, seed or players differ from the job's)",
            ));
        }
        if *max_faults != spec.max_faults || *policy != spec.policy {
            return Err(refuse(job, "its log was played under other fault rules"));
        }
        let summary = &checked.summary;
        let record = &report.record;
        if record.players != summary.players
            || record.scores != summary.scores
            || record.ranks != summary.ranks
            || record.seed != spec.seed
        {
            return Err(refuse(
                job,
                format!(
                    "its record says scores {:?}, ranks {:?}; its log replays to {:?}, {:?}",
                    record.scores, record.ranks, summary.scores, summary.ranks
                ),
            ));
        }
        if report.stderr.len() > spec.seats.len() {
            return Err(refuse(job, "stderr for more seats than the match has"));
        }
        Ok(log)
    }

    /// Accepts worker `caller`'s report of build job `job` under `lease`: the version becomes
    /// ready (it built and passed the check), or failed with its log and checklist.
    ///
    /// # Errors
    /// [`ServiceError::LeaseLost`], [`ServiceError::BadResult`].
    pub async fn report_build(
        &self,
        caller: &Account,
        job: i64,
        lease: &str,
        report: BuildReport,
    ) -> Result<VersionState, ServiceError> {
        require(caller, Role::Worker)?;
        let JobSpec::Build(spec) = self.job_spec(job).await? else {
            return Err(refuse(job, "it is a match job, not a build"));
        };
        let build_log_hash = Some(self.artifacts.put(report.log.as_bytes())?);
        let (artifact_hash, run_command) = match &report.built {
            Some((bytes, command)) => (Some(self.artifacts.put(bytes)?), Some(command.clone())),
            None => (None, None),
        };
        let state = match (&report.built, report.passed) {
            (None, _) => VersionState::BuildFailed,
            (Some(_), false) => VersionState::CheckFailed,
            (Some(_), true) => VersionState::Ready,
        };
        let result = BuildResult {
            state,
            artifact_hash,
            run_command,
            build_log_hash,
            check_report: report.check.as_ref().map(|c| c.to_string()),
        };
        match self
            .store
            .finish_build(job, lease, now_ms(), spec.version, &result)
            .await?
        {
            Finish::LeaseLost => Err(ServiceError::LeaseLost(job)),
            _ => Ok(state),
        }
    }
}
