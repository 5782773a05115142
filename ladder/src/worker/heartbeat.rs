//! Keeping a lease: a heartbeat every few seconds while the job is played; a lease the server
//! says is lost ends the job.

use crate::client::Client;
use std::time::Duration;
use tokio::sync::watch;

/// The heartbeats of one job.
pub(super) struct Keeper {
    task: tokio::task::JoinHandle<()>,
    lost: watch::Receiver<bool>,
}

/// Starts sending heartbeats for job `job` under `lease` every `every_s` seconds.
pub(super) fn keep(client: Client, job: i64, lease: String, every_s: u64) -> Keeper {
    let (tell, lost) = watch::channel(false);
    let every = Duration::from_secs(every_s.max(1));
    let task = tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            match client.heartbeat(job, &lease).await {
                Ok(_) => {}
                // Refused: the lease is another's now (or the job is gone).
                Err(error) if error.status().is_some() => {
                    let _ = tell.send(true);
                    return;
                }
                // Unreachable: try again at the next beat; the lease may still hold.
                Err(error) => eprintln!("worker: job {job}: heartbeat failed: {error}"),
            }
        }
    });
    Keeper { task, lost }
}

impl Keeper {
    /// Resolves when the server says the lease is lost.
    pub(super) async fn lost(&self) {
        let mut lost = self.lost.clone();
        let _ = lost.wait_for(|lost| *lost).await;
        if !*lost.borrow() {
            // The keeper stopped without losing the lease: never resolve.
            std::future::pending::<()>().await;
        }
    }

    /// Stops the heartbeats.
    pub(super) fn stop(self) {
        self.task.abort();
    }
}
