//! Doing a job: a match played exactly as `referee tournament` plays one (the same
//! `run_match`, the sandbox and limits of its spec), its log and each seat's stderr read back
//! for the report; a build (the uploads part).

use super::Report;
use super::cache::{copy_tree, ensure};
use crate::api::wire::MatchResultBody;
use crate::client::Client;
use crate::service::ClaimedJob;
use crate::spec::{JobSpec, MatchSpec};
use base64::Engine;
use referee::policy::ProcessPolicy;
use referee::runner::{MatchConfig, MatchLog, run_match};
use referee::safe_fs::{Privacy, SafeDir};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The worker's directories: `cache/` (artifacts, hidden from bots), `jobs/` (each job's log
/// and stderr: the match's outputs, hidden from bots), `seats/` (each seat's workdir),
/// `builds/` (the build in progress).
#[derive(Clone, Debug)]
pub(super) struct Dirs {
    pub(super) cache: PathBuf,
    pub(super) jobs: PathBuf,
    pub(super) seats: PathBuf,
    pub(super) builds: PathBuf,
}

impl Dirs {
    /// Makes them under `dir`, private.
    pub(super) fn make(dir: &Path) -> std::io::Result<Dirs> {
        std::fs::create_dir_all(dir)?;
        let dir = dir.canonicalize()?;
        let dirs = Dirs {
            cache: dir.join("cache"),
            jobs: dir.join("jobs"),
            seats: dir.join("seats"),
            builds: dir.join("builds"),
        };
        for d in [&dirs.cache, &dirs.jobs, &dirs.seats, &dirs.builds] {
            SafeDir::create(d, Privacy::Private).map_err(std::io::Error::other)?;
        }
        Ok(dirs)
    }
}

/// Does job `job`; an error is the platform's (the job is given back).
pub(super) async fn perform(
    client: &Client,
    dirs: &Dirs,
    slot: usize,
    job: &ClaimedJob,
) -> Result<Report, String> {
    match &job.spec {
        JobSpec::Match(spec) => {
            let scratch = Scratch::new(dirs, job.id, slot);
            let report = play(client, dirs, &scratch, job, spec).await;
            scratch.remove();
            report.map(Report::Match)
        }
        JobSpec::Build(spec) => super::build::build(client, dirs, job, spec)
            .await
            .map(Report::Build),
    }
}

/// One job's own directories, removed after it.
struct Scratch {
    job: PathBuf,
    seats: Vec<PathBuf>,
    seats_root: PathBuf,
    tag: String,
}

impl Scratch {
    fn new(dirs: &Dirs, job: i64, slot: usize) -> Scratch {
        let tag = format!("{job}-{slot}-{}", crate::auth::new_lease());
        Scratch {
            job: dirs.jobs.join(&tag),
            seats: Vec::new(),
            seats_root: dirs.seats.clone(),
            tag,
        }
    }

    fn seat(&mut self, seat: usize) -> PathBuf {
        let dir = self.seats_root.join(format!("{}-{seat}", self.tag));
        self.seats.push(dir.clone());
        dir
    }

    fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.job);
        for seat in &self.seats {
            let _ = std::fs::remove_dir_all(seat);
        }
    }
}

async fn play(
    client: &Client,
    dirs: &Dirs,
    scratch: &Scratch,
    claimed: &ClaimedJob,
    spec: &MatchSpec,
) -> Result<MatchResultBody, String> {
    let job = claimed.id;
    let mut scratch_seats = Scratch {
        job: scratch.job.clone(),
        seats: Vec::new(),
        seats_root: scratch.seats_root.clone(),
        tag: scratch.tag.clone(),
    };
    let game = engine::GameKind::from_name(&spec.game).map_err(|e| e.to_string())?;
    let mut bots = Vec::with_capacity(spec.seats.len());
    for (i, seat) in spec.seats.iter().enumerate() {
        let mut bot = seat.bot.spec(None).map_err(|e| e.to_string())?;
        if let Some(hash) = &seat.artifact {
            let unpacked = ensure(client, &dirs.cache, hash, &claimed.build).await?;
            let workdir = scratch_seats.seat(i);
            copy_tree(&unpacked, &workdir)
                .map_err(|e| format!("cannot copy artifact {hash} for seat {i}: {e}"))?;
            bot.settings.workdir = Some(workdir);
        }
        bots.push(bot);
    }
    let outcome = async {
        let out = SafeDir::create(&scratch.job, Privacy::Private).map_err(|e| e.to_string())?;
        let stderr = Arc::new(
            SafeDir::create(&scratch.job.join("stderr"), Privacy::Private)
                .map_err(|e| e.to_string())?,
        );
        let log_path = scratch.job.join("log.jsonl");
        let mut log = MatchLog::create(&log_path).map_err(|e| e.to_string())?;
        let config = MatchConfig {
            game,
            options: spec.options.clone(),
            bots,
            seed: spec.seed,
            match_id: format!("job-{job}"),
            max_faults: spec.max_faults,
            policy: spec.policy,
            process: ProcessPolicy {
                sandbox: spec.sandbox,
                hide: vec![dirs.cache.clone(), dirs.jobs.clone(), dirs.builds.clone()],
                ..ProcessPolicy::default()
            },
            outputs: vec![scratch.job.clone()],
        };
        let record = run_match(&config, Some(&stderr), &mut log, &mut ())
            .await
            .map_err(|e| format!("the referee could not play the match: {e}"))?;
        log.flush().map_err(|e| e.to_string())?;
        drop(log);
        drop(out);
        let text = std::fs::read(&log_path).map_err(|e| e.to_string())?;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text).map_err(|e| e.to_string())?;
        let log_gz = gz.finish().map_err(|e| e.to_string())?;
        let b64 = base64::engine::general_purpose::STANDARD;
        let stderr = spec
            .seats
            .iter()
            .map(|seat| {
                std::fs::read(
                    scratch
                        .job
                        .join("stderr")
                        .join(format!("{}.stderr", seat.bot.name)),
                )
                .ok()
                .filter(|bytes| !bytes.is_empty())
                .map(|bytes| b64.encode(bytes))
            })
            .collect();
        Ok(MatchResultBody {
            lease: claimed.lease.clone(),
            record: serde_json::to_value(&record).map_err(|e| e.to_string())?,
            log_gz: b64.encode(log_gz),
            stderr,
        })
    }
    .await;
    for seat in scratch_seats.seats.drain(..) {
        let _ = std::fs::remove_dir_all(seat);
    }
    outcome
}
