//! A worker: claims jobs from a server under leases, keeps each lease with heartbeats, plays
//! the match (or builds the version) and reports it. The server's own workers and those on
//! other machines are this same code, talking HTTP. A job the worker cannot do for its own
//! reasons (an artifact it cannot fetch, the referee failing) is given back, never reported as
//! a bot's fault; a job whose lease it loses is abandoned, its processes stopped.

mod build;
mod cache;
mod dirs;
mod heartbeat;
mod kept;
mod play;

use crate::client::{Client, ClientError};
use crate::service::ClaimedJob;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::watch;

/// What a worker did, for its end line.
#[derive(Debug, Default)]
pub struct WorkerStats {
    /// Jobs whose result the server accepted.
    pub done: AtomicU64,
    /// Jobs given back (the platform failed).
    pub given_back: AtomicU64,
    /// Jobs abandoned (the lease was lost, or the server refused the result).
    pub abandoned: AtomicU64,
}

/// A worker's settings.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Jobs played at once.
    pub jobs: usize,
    /// Its own directory: the artifacts' cache, the jobs' files.
    pub dir: PathBuf,
    /// How long to wait before asking again when there is no job.
    pub idle: Duration,
    /// How many bot processes each slot keeps between matches (0: each seat's process is
    /// started for its match and stopped after it). See [`DEFAULT_KEEP`].
    pub keep: usize,
    /// Paths no bot, check or build may see beyond the worker's own directories: the ladder's
    /// home, for the server's local workers (its database holds every seed).
    pub hide: Vec<PathBuf>,
}

/// The bot processes a slot keeps between matches by default: more than a large field's, since
/// a slot's matches sweep the whole field in turn and a cap below it would stop each process
/// just before its next match (a sandboxed process of a sample bot holds about 7 MiB).
pub const DEFAULT_KEEP: usize = 512;

/// Why a worker cannot start.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// Its directory cannot be made or used.
    #[error("the worker's directory {path}: {error}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// What failed.
        error: String,
    },
}

/// Runs `options.jobs` job slots against the server of `client` until `stop` says `true`;
/// a job being played when it does is finished and reported first.
///
/// # Errors
/// [`WorkerError`] when its directory cannot be used.
pub async fn run(
    client: Client,
    options: WorkerOptions,
    stop: watch::Receiver<bool>,
) -> Result<Arc<WorkerStats>, WorkerError> {
    let root = crate::bot_users::root();
    let dirs =
        dirs::Dirs::make(&options.dir, root, Path::new(dirs::SPILL_BASE)).map_err(|error| {
            WorkerError::Dir {
                path: options.dir.clone(),
                error: error.to_string(),
            }
        })?;
    let dirs = dirs::Dirs {
        outside: options.hide.clone(),
        ..dirs
    };
    let stats = Arc::new(WorkerStats::default());
    let keep = kept::cap(options.keep, options.jobs.max(1), root);
    if keep < options.keep {
        eprintln!(
            "worker: each of its {} slots keeps at most {keep} bot processes, not {}: each holds a uid and a group of the bots' {} (docs/ladder.md#bot-processes-kept-between-matches)",
            options.jobs.max(1),
            options.keep,
            referee::seat::users::UidRange::DEFAULT,
        );
    }
    let mut dones = Vec::new();
    // Each slot is an OS thread with a one-thread runtime of its own, as the tournament's
    // workers are: a match's referee work stays on one thread, and the slots spread over the
    // cores.
    for slot in 0..options.jobs.max(1) {
        let (client, dirs, stats, mut stop) =
            (client.clone(), dirs.clone(), stats.clone(), stop.clone());
        let idle = options.idle;
        let stderr_path = dirs
            .jobs
            .join(format!("slot{slot}-{}", crate::auth::new_lease()));
        let stderr =
            referee::safe_fs::SafeDir::create(&stderr_path, referee::safe_fs::Privacy::Private)
                .map_err(|error| WorkerError::Dir {
                    path: stderr_path.clone(),
                    error: error.to_string(),
                })?;
        let stderr = Arc::new(stderr);
        let (done, finished) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name(format!("ladder-worker-{slot}"))
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a worker runtime");
                let mut kept = kept::Kept::new(keep, stderr, stderr_path, root);
                runtime.block_on(async {
                    while !*stop.borrow() {
                        match client.claim().await {
                            Ok(Some(job)) => one_job(&client, &dirs, &mut kept, job, &stats).await,
                            Ok(None) => wait(&mut stop, idle).await,
                            Err(error) => {
                                eprintln!("worker: cannot claim a job: {error}");
                                wait(&mut stop, idle.max(Duration::from_secs(1))).await;
                            }
                        }
                    }
                    kept.shutdown().await;
                });
                drop(runtime);
                // Before the worker may end: the last of its `Dirs` removes what it made.
                drop(dirs);
                let _ = done.send(());
            })
            .map_err(|e| WorkerError::Dir {
                path: options.dir.clone(),
                error: format!("cannot start a worker thread: {e}"),
            })?;
        dones.push(finished);
    }
    for done in dones {
        let _ = done.await;
    }
    Ok(stats)
}

async fn wait(stop: &mut watch::Receiver<bool>, idle: Duration) {
    let _ = tokio::time::timeout(idle, stop.changed()).await;
}

/// Plays (or builds) one claimed job and reports it, keeping its lease meanwhile.
async fn one_job(
    client: &Client,
    dirs: &dirs::Dirs,
    kept: &mut kept::Kept,
    job: ClaimedJob,
    stats: &WorkerStats,
) {
    let (id, lease) = (job.id, job.lease.clone());
    let keeper = heartbeat::keep(client.clone(), id, lease.clone(), job.heartbeat_s);
    let outcome = tokio::select! {
        outcome = play::perform(client, dirs, kept, &job) => Some(outcome),
        () = keeper.lost() => None,
    };
    keeper.stop();
    let counter = match outcome {
        None => {
            eprintln!("worker: job {id}: the lease was lost; its result is dropped");
            &stats.abandoned
        }
        Some(Err(error)) => {
            eprintln!("worker: job {id}: given back: {error}");
            match client.give_back(id, &lease, &error).await {
                Ok(()) => &stats.given_back,
                Err(_) => &stats.abandoned,
            }
        }
        Some(Ok(report)) => match report.send(client, id).await {
            Ok(()) => &stats.done,
            // The server failed (a 5xx): the job is given back to be played again now, not
            // left leased until its lease expires.
            Err(error) if error.status().is_some_and(|s| s >= 500) => {
                eprintln!(
                    "worker: job {id}: the server failed on the result ({error}); given back"
                );
                match client.give_back(id, &lease, &error.to_string()).await {
                    Ok(()) => &stats.given_back,
                    Err(_) => &stats.abandoned,
                }
            }
            Err(error) => {
                eprintln!("worker: job {id}: the server did not take the result: {error}");
                &stats.abandoned
            }
        },
    };
    counter.fetch_add(1, Ordering::Relaxed);
}

/// A job's result, ready to send.
pub(crate) enum Report {
    /// A match's.
    Match(crate::api::wire::MatchResultBody),
    /// A build's.
    Build(crate::api::wire::BuildResultBody),
}

impl Report {
    /// Sends it, trying again a few times while the server cannot be reached.
    async fn send(&self, client: &Client, job: i64) -> Result<(), ClientError> {
        let mut delay = Duration::from_millis(500);
        for attempt in 0.. {
            let sent = match self {
                Report::Match(body) => client.match_result(job, body).await.map(drop),
                Report::Build(body) => client.build_result(job, body).await.map(drop),
            };
            match sent {
                Err(ClientError::Unreachable { .. }) if attempt < 8 => {
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_secs(10));
                }
                other => return other,
            }
        }
        unreachable!("the loop returns")
    }
}
