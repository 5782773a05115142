//! Playing scheduled matches in parallel with bot processes kept alive between matches.
//!
//! `jobs` workers take matches from one queue. Each worker keeps one process per bot it has
//! played (a bot never sits twice in a match), so a bot has at most `jobs` processes — one per
//! match it can be playing at once, never one per match — and reuses it for every match it plays
//! there (the protocol's multi-match lifecycle). A process that crashed or was stopped during a
//! match is dropped, and a new one is started for its next match; the crash is in that match's
//! record. A process found to have exited by the time its next match begins is restarted without
//! charging that match. (A bot that quits right after `match_end`, instead of waiting for
//! `goodbye`, may still look alive then, and its exit is charged to the next match it was given,
//! which can depend on `-j`: bots must stay until `goodbye`.) Results go to the coordinator over
//! a channel, as each finishes.

use super::results::MatchResult;
use super::schedule::ScheduledMatch;
use crate::bots::Builtins;
use crate::runner::{
    MatchLog, MatchSettings, Player, RunError, play_match, shutdown_players, start_players,
};
use crate::seat::{BotSpec, ProcessOptions, Seat};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// How the pool plays.
pub struct PoolSettings<G: Builtins> {
    /// The bots, indexed as in the schedule.
    pub specs: Vec<BotSpec>,
    /// Game options.
    pub options: G::Options,
    /// Fault limit per bot and match.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: crate::runner::FaultPolicy,
    /// How processes are run.
    pub process: ProcessOptions,
    /// Where each bot process's stderr is saved (`NAME.wW.K.stderr`: worker W, K-th start).
    pub stderr_dir: Option<PathBuf>,
    /// Where each match's full log is written (`ID.jsonl`), if anywhere.
    pub logs_dir: Option<PathBuf>,
    /// Matches played at once.
    pub jobs: usize,
}

/// Plays `matches` with `settings.jobs` workers and sends each result on `results` as it
/// finishes. Returns when every match is played, or at the first failure of the referee itself.
///
/// # Errors
/// [`RunError`] when a match log cannot be written or the game refuses a setup.
pub async fn run_pool<G: Builtins>(
    settings: &PoolSettings<G>,
    matches: Vec<ScheduledMatch>,
    results: UnboundedSender<MatchResult>,
) -> Result<(), RunError> {
    let queue = Mutex::new(VecDeque::from(matches));
    let workers = (0..settings.jobs.max(1)).map(|w| worker(w, settings, &queue, results.clone()));
    futures::future::join_all(workers)
        .await
        .into_iter()
        .collect()
}

async fn worker<G: Builtins>(
    w: usize,
    settings: &PoolSettings<G>,
    queue: &Mutex<VecDeque<ScheduledMatch>>,
    results: UnboundedSender<MatchResult>,
) -> Result<(), RunError> {
    let mut cache: Vec<Option<Player<G>>> = settings.specs.iter().map(|_| None).collect();
    let mut starts = vec![0u32; settings.specs.len()];
    let outcome = async {
        loop {
            let Some(scheduled) = queue.lock().expect("queue lock").pop_front() else {
                return Ok(());
            };
            for &b in &scheduled.seats {
                let exited = match cache[b].as_mut().map(|p| &mut p.seat) {
                    Some(Seat::Process(bot)) => bot.has_exited(),
                    _ => false,
                };
                if exited {
                    cache[b] = None;
                }
            }
            let missing: Vec<usize> = scheduled
                .seats
                .iter()
                .copied()
                .filter(|&b| cache[b].is_none())
                .collect();
            if !missing.is_empty() {
                let specs: Vec<BotSpec> =
                    missing.iter().map(|&b| settings.specs[b].clone()).collect();
                for &b in &missing {
                    starts[b] += 1;
                }
                let name_file = |spec: &BotSpec| {
                    let b = settings
                        .specs
                        .iter()
                        .position(|s| s.name == spec.name)
                        .expect("a known bot");
                    settings
                        .stderr_dir
                        .as_ref()
                        .map(|d| d.join(format!("{}.w{w}.{}.stderr", spec.name, starts[b])))
                };
                let started =
                    start_players::<G>(&specs, &settings.options, &settings.process, &name_file)
                        .await;
                for (&b, player) in missing.iter().zip(started) {
                    cache[b] = Some(player);
                }
            }
            let mut players: Vec<Player<G>> = scheduled
                .seats
                .iter()
                .map(|&b| cache[b].take().expect("started above"))
                .collect();
            let mut log = match &settings.logs_dir {
                Some(dir) => MatchLog::create(&dir.join(format!("{}.jsonl", scheduled.id)))?,
                None => MatchLog::none(),
            };
            let match_settings = MatchSettings {
                match_id: scheduled.id.to_string(),
                seed: scheduled.seed,
                max_faults: settings.max_faults,
                policy: settings.policy,
            };
            let record =
                play_match(&match_settings, &settings.options, &mut players, &mut log).await;
            for (&b, player) in scheduled.seats.iter().zip(players) {
                // A crashed or stopped process is dropped (and so killed); the next match starts anew.
                if crate::runner::is_usable(&player) {
                    cache[b] = Some(player);
                }
            }
            let _ = results.send(MatchResult {
                id: scheduled.id,
                group: scheduled.group,
                record: record?,
            });
        }
    }
    .await;
    let mut alive: Vec<Player<G>> = cache.into_iter().flatten().collect();
    shutdown_players(&mut alive, Duration::from_secs(1)).await;
    outcome
}
