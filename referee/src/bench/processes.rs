//! Decisions per second with real bot processes, and what starting one costs.

use crate::runner::{shutdown_players, start_players};
use crate::seat::{BotSpec, ProcessOptions};
use crate::tournament::{PoolSettings, ScheduledMatch, run_pool};
use engine::Game;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a pool of real bot processes did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BotRun {
    /// Decisions taken.
    pub decisions: u64,
    /// Wall-clock seconds, process starts included.
    pub seconds: f64,
    /// Matches played.
    pub matches: u64,
}

impl BotRun {
    /// Decisions per second.
    pub fn per_second(&self) -> f64 {
        self.decisions as f64 / self.seconds
    }

    /// Microseconds of wall-clock time per decision, per worker.
    pub fn us_per_decision(&self, jobs: usize) -> f64 {
        self.seconds * 1e6 * jobs as f64 / self.decisions as f64
    }
}

/// Plays `matches` matches of `specs` (all of them at every match, seats rotated) with `jobs`
/// workers, pinned or not, through the tournament pool, without a sandbox.
pub fn decisions_per_second<G: Game>(
    specs: &[BotSpec],
    matches: u64,
    jobs: usize,
    pin: bool,
) -> BotRun {
    let n = specs.len();
    let schedule: Vec<ScheduledMatch> = (0..matches)
        .map(|id| ScheduledMatch {
            id,
            group: id,
            seats: (0..n).map(|s| (s + id as usize) % n).collect(),
            seed: id,
        })
        .collect();
    let settings = Arc::new(PoolSettings::<G> {
        specs: specs.to_vec(),
        options: G::Options::default(),
        max_faults: 3,
        policy: Default::default(),
        process: ProcessOptions::default(),
        stderr_dir: None,
        logs_dir: None,
        duplicate: false,
        jobs,
        pin,
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let started = Instant::now();
    let decisions = runtime.block_on(async {
        let pool = run_pool(settings, schedule, tx);
        let count = async {
            let mut decisions = 0;
            while let Some(result) = rx.recv().await {
                decisions += result.record.stats.iter().map(|s| s.decisions).sum::<u64>();
            }
            decisions
        };
        let (outcome, decisions) = tokio::join!(pool, count);
        outcome.expect("the bench writes no log");
        decisions
    });
    BotRun {
        decisions,
        seconds: started.elapsed().as_secs_f64(),
        matches,
    }
}

/// The mean time, over `times` starts, from spawning the bot of `spec` to its `hello` reply,
/// in milliseconds (the bot is then stopped).
pub fn spawn_cost<G: Game>(spec: &BotSpec, times: usize) -> f64 {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut total = Duration::ZERO;
    runtime.block_on(async {
        for _ in 0..times {
            let started = Instant::now();
            let process = ProcessOptions::default();
            let mut players = start_players::<G>(
                std::slice::from_ref(spec),
                &G::Options::default(),
                &process,
                &|_| None,
            )
            .await;
            total += started.elapsed();
            shutdown_players(&mut players, process.exit_grace).await;
        }
    });
    total.as_secs_f64() * 1e3 / times as f64
}
