//! `referee ladder serve`: the API, the matchmaker and the sweeper on one ladder, and by
//! default its own workers (the same code as remote ones, over HTTP on the loopback), so one
//! command on one machine is a whole ladder.

use crate::client::Client;
use crate::service::{Ladder, ServiceError};
use crate::worker::{WorkerOptions, WorkerStats};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The ladder's home.
    pub home: PathBuf,
    /// Where the API listens (`127.0.0.1:0`: a free port).
    pub listen: SocketAddr,
    /// Local worker slots (0: none; jobs wait for remote workers).
    pub jobs: usize,
    /// Bot processes each local worker slot keeps between matches ([`WorkerOptions::keep`]).
    pub keep: usize,
    /// How often the matchmaker and the sweeper run.
    pub tick: Duration,
}

/// What a server did, once stopped.
#[derive(Debug)]
pub struct Served {
    /// The local workers' counts.
    pub workers: Option<Arc<WorkerStats>>,
}

/// Runs the ladder in `options.home` until `stop` says `true`; `listening` is told the address
/// once the API accepts connections.
///
/// # Errors
/// [`ServiceError`] when the ladder cannot be opened or the address cannot be bound.
pub async fn serve(
    options: &ServeOptions,
    listening: impl FnOnce(SocketAddr),
    stop: watch::Receiver<bool>,
) -> Result<Served, ServiceError> {
    let ladder = Ladder::open(&options.home).await?;
    let listener = tokio::net::TcpListener::bind(options.listen).await?;
    let address = listener.local_addr()?;
    // The API stops last: the local workers report the jobs in hand first.
    let (stop_api, api_stopped) = tokio::sync::oneshot::channel::<()>();
    let api = tokio::spawn(crate::api::serve(ladder.clone(), listener, async move {
        let _ = api_stopped.await;
    }));
    let ticker = tokio::spawn(keep_going(ladder.clone(), options.tick, stop.clone()));
    listening(address);
    let workers = if options.jobs > 0 {
        let token = Ladder::local_worker_token(&options.home)?;
        let client = Client::new(&format!("http://{address}"), Some(&token));
        let worker = WorkerOptions {
            jobs: options.jobs,
            dir: options.home.join("worker"),
            idle: Duration::from_millis(200),
            keep: options.keep,
            hide: vec![options.home.clone()],
        };
        Some(
            crate::worker::run(client, worker, stop.clone())
                .await
                .map_err(|e| ServiceError::Io(std::io::Error::other(e)))?,
        )
    } else {
        let mut stop = stop.clone();
        let _ = stop.wait_for(|s| *s).await;
        None
    };
    let _ = ticker.await;
    let _ = stop_api.send(());
    let _ = api.await;
    ladder.store().close().await;
    Ok(Served { workers })
}

/// The matchmaker and the sweeper, every `tick`, until `stop`.
async fn keep_going(ladder: Ladder, tick: Duration, mut stop: watch::Receiver<bool>) {
    while !*stop.borrow() {
        if let Err(error) = ladder.sweep().await {
            eprintln!("ladder: sweeping expired leases failed: {error}");
        }
        if let Err(error) = ladder.schedule().await {
            eprintln!("ladder: the matchmaker failed: {error}");
        }
        // The next round at the tick, or as soon as a match is recorded (its table is free).
        tokio::select! {
            _ = tokio::time::timeout(tick, stop.changed()) => {}
            () = ladder.match_recorded() => {}
        }
    }
}

/// The default home of the ladder a config file describes: `NAME.ladder/` beside it.
pub fn default_home(config: &Path) -> PathBuf {
    let stem = config
        .file_stem()
        .map_or_else(|| "ladder".into(), |s| s.to_string_lossy().into_owned());
    config
        .parent()
        .unwrap_or_else(|| Path::new("."))
        .join(format!("{stem}.ladder"))
}
