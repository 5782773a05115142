//! Playing scheduled matches in parallel with bot processes kept alive between matches.
//!
//! `jobs` workers take matches from one queue. Each worker keeps one process per bot it has
//! played (a bot never sits twice in a match), so a bot has at most `jobs` processes — one per
//! match it can be playing at once, never one per match — and reuses it for every match it plays
//! there (the protocol's multi-match lifecycle). With duplicate play, no process plays two
//! matches of the same group: the matches of a group replay one deal, and a process that had
//! played one of them would know every hand of the next (it saw every card played). A worker
//! then keeps as many processes of a bot as it plays matches of one group with that bot (at most
//! P), and gives each later group's matches to the processes that have finished with earlier
//! groups, most recently used first. So that this is as few as it can be, each worker takes
//! first the next match whose place in its group is its own, modulo `jobs` (with two workers,
//! worker 0 the first and third match of every group, worker 1 the second and fourth), and
//! only when none is left the next match of all ([`take`]): with duplicate play a worker then
//! needs about P / `jobs` processes of a bot rather than P, and each start of a sandboxed bot
//! costs tens of milliseconds. Which worker plays a match changes no result. A process that crashed or was stopped during a
//! match is dropped, and a new one is started for its next match; the crash is in that match's
//! record. A process found to have exited by the time its next match begins is restarted without
//! charging that match. (A bot that quits right after `match_end`, instead of waiting for
//! `goodbye`, may still look alive then, and its exit is charged to the next match it was given,
//! which can depend on `-j`: bots must stay until `goodbye`.) Results go to the coordinator over
//! a channel, as each finishes.

use super::format::ScheduledMatch;
use super::match_result::{MatchResult, StderrRange};
use crate::affinity;
use crate::runner::{
    MatchLog, MatchSettings, Player, RunError, play_match, shutdown_players, start_players,
};
use crate::safe_fs::SafeDir;
use crate::seat::{BotSpec, ProcessOptions, Seat, StderrFile};
use engine::Game;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc::UnboundedSender;

/// How the pool plays.
#[derive(Clone)]
pub struct PoolSettings<G: Game> {
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
    pub stderr_dir: Option<Arc<SafeDir>>,
    /// Where each match's full log is written (`ID.jsonl`), if anywhere.
    pub logs_dir: Option<Arc<SafeDir>>,
    /// Whether the matches of a group replay one deal: then each bot process plays at most one
    /// match of every group (see the module's documentation).
    pub duplicate: bool,
    /// Matches played at once.
    pub jobs: usize,
    /// Whether each worker, and every bot process it starts, is pinned to a core of its own
    /// (worker `w` to the `w mod n`-th core the referee may use).
    pub pin: bool,
}

/// Plays `matches` with `settings.jobs` workers and sends each result on `results` as it
/// finishes. Returns when every match is played, or at the first failure of the referee itself.
///
/// Each worker is an OS thread with a one-thread runtime of its own, so that the referee's
/// work spreads over the cores; when `settings.pin` is set, the thread is pinned to one core and
/// the bot processes it starts inherit that core, so a match's referee work and its bots never
/// wait for a cross-core wake-up. Dropping the returned future stops every worker and every bot
/// before it returns.
///
/// # Errors
/// [`RunError`] when a match log cannot be written or the game refuses a setup.
pub async fn run_pool<G: Game>(
    settings: Arc<PoolSettings<G>>,
    matches: Vec<ScheduledMatch>,
    results: UnboundedSender<MatchResult>,
) -> Result<(), RunError> {
    let queue = Arc::new(Mutex::new(places_in_groups(matches)));
    let (cancel, cancelled) = tokio::sync::watch::channel(false);
    let cores = affinity::allowed_cores();
    let mut stop = StopOnDrop {
        cancel,
        threads: Vec::new(),
    };
    let mut dones = futures::stream::FuturesUnordered::new();
    for w in 0..settings.jobs.max(1) {
        let (done, finished) = tokio::sync::oneshot::channel();
        let (settings, queue, results) = (settings.clone(), queue.clone(), results.clone());
        let mut cancelled = cancelled.clone();
        let core = (settings.pin && !cores.is_empty()).then(|| cores[w % cores.len()]);
        let thread = std::thread::Builder::new()
            .name(format!("worker-{w}"))
            .spawn(move || {
                if let Some(core) = core {
                    affinity::pin_current_thread(core);
                }
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a worker runtime");
                let outcome = runtime.block_on(async {
                    tokio::select! {
                        outcome = worker(w, &settings, &queue, results) => outcome,
                        _ = cancelled.wait_for(|stop| *stop) => Ok(()),
                    }
                });
                // Dropping the runtime drops whatever the worker held: its bots are killed.
                drop(runtime);
                let _ = done.send(outcome);
            })
            .expect("a worker thread");
        stop.threads.push(thread);
        dones.push(finished);
    }
    let mut outcome = Ok(());
    while let Some(done) = futures::StreamExt::next(&mut dones).await {
        // A worker that panicked dropped its sender without a word: a failure too.
        let failed = match done {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e),
            Err(_) => Some(RunError::Worker),
        };
        if let (Some(e), true) = (failed, outcome.is_ok()) {
            // The first failure stops the others.
            let _ = stop.cancel.send(true);
            outcome = Err(e);
        }
    }
    outcome
}

/// Stops and joins the worker threads when the pool is dropped (finished or not).
struct StopOnDrop {
    cancel: tokio::sync::watch::Sender<bool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let _ = self.cancel.send(true);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The matches still to play, in schedule order, each with its place in its group (0 for the
/// first match of a group).
type Queue = VecDeque<(usize, ScheduledMatch)>;

/// `matches` (in schedule order, a group's matches one after another) with their places in
/// their groups.
fn places_in_groups(matches: Vec<ScheduledMatch>) -> Queue {
    let mut previous = None;
    let mut place = 0;
    matches
        .into_iter()
        .map(|m| {
            place = if previous == Some(m.group) {
                place + 1
            } else {
                0
            };
            previous = Some(m.group);
            (place, m)
        })
        .collect()
}

/// The next match for worker `w`: with duplicate play, the first whose place in its group is
/// `w` modulo the number of workers, else (and without duplicate play) the first of all.
fn take<G: Game>(
    queue: &mut Queue,
    w: usize,
    settings: &PoolSettings<G>,
) -> Option<ScheduledMatch> {
    let jobs = settings.jobs.max(1);
    let own = settings
        .duplicate
        .then(|| queue.iter().position(|(place, _)| place % jobs == w))
        .flatten();
    queue.remove(own.unwrap_or(0)).map(|(_, m)| m)
}

/// A process (or built-in bot) a worker keeps between matches.
struct Kept<G: Game> {
    player: Player<G>,
    /// The group of the last match it played.
    last_group: Option<u64>,
}

/// The players one worker keeps between matches, by bot, and how many processes of each bot it
/// has started (they name the stderr files).
struct Keeper<'a, G: Game> {
    w: usize,
    settings: &'a PoolSettings<G>,
    kept: Vec<Vec<Kept<G>>>,
    starts: Vec<u32>,
}

impl<'a, G: Game> Keeper<'a, G> {
    fn new(w: usize, settings: &'a PoolSettings<G>) -> Self {
        Keeper {
            w,
            settings,
            kept: settings.specs.iter().map(|_| Vec::new()).collect(),
            starts: vec![0; settings.specs.len()],
        }
    }

    /// The players of `scheduled`, in seat order: a kept one where it may play this match,
    /// started anew otherwise.
    async fn players_for(&mut self, scheduled: &ScheduledMatch) -> Vec<Player<G>> {
        let group = scheduled.group;
        let duplicate = self.settings.duplicate;
        // A kept process may play this match if it is still running and, with duplicate play,
        // has only played earlier groups (groups reach a worker in increasing order; a process
        // that has seen a later one is not reused for an earlier one).
        let reusable = |k: &Kept<G>| !duplicate || k.last_group < Some(group);
        let mut taken: Vec<Option<Player<G>>> = Vec::with_capacity(scheduled.seats.len());
        for &b in &scheduled.seats {
            self.kept[b].retain_mut(|k| match &mut k.player.seat {
                Seat::Process(bot) => !bot.has_exited(),
                _ => true,
            });
            // The most recently used first: its pages are the likeliest to be warm.
            let at = self.kept[b].iter().rposition(reusable);
            taken.push(at.map(|i| self.kept[b].remove(i).player));
        }
        let missing: Vec<usize> = scheduled
            .seats
            .iter()
            .zip(&taken)
            .filter(|(_, t)| t.is_none())
            .map(|(&b, _)| b)
            .collect();
        if !missing.is_empty() {
            let mut started = self.start(&missing).await.into_iter();
            for slot in taken.iter_mut().filter(|t| t.is_none()) {
                *slot = started.next();
            }
        }
        taken
            .into_iter()
            .map(|t| t.expect("started above"))
            .collect()
    }

    /// Starts a player of each of the bots `missing` (indices into the specs).
    async fn start(&mut self, missing: &[usize]) -> Vec<Player<G>> {
        let settings = self.settings;
        let specs: Vec<BotSpec> = missing.iter().map(|&b| settings.specs[b].clone()).collect();
        for &b in missing {
            self.starts[b] += 1;
        }
        let (w, starts) = (self.w, &self.starts);
        let name_file = |spec: &BotSpec| {
            let b = settings
                .specs
                .iter()
                .position(|s| s.name == spec.name)
                .expect("a known bot");
            settings.stderr_dir.as_ref().map(|dir| StderrFile {
                dir: dir.clone(),
                name: format!("{}.w{w}.{}.stderr", spec.name, starts[b]),
            })
        };
        start_players::<G>(&specs, &settings.options, &settings.process, &name_file).await
    }

    /// Keeps the `players` of a match of `group` just played by the bots `seats`, those still
    /// usable; a crashed or stopped process is dropped (and so killed), and the next match
    /// starts its bot anew.
    fn keep(&mut self, seats: &[usize], players: Vec<Player<G>>, group: u64) {
        for (&b, player) in seats.iter().zip(players) {
            if crate::runner::is_usable(&player) {
                self.kept[b].push(Kept {
                    player,
                    last_group: Some(group),
                });
            }
        }
    }

    /// Shuts down every kept process.
    async fn shutdown(self) {
        let mut alive: Vec<Player<G>> = self.kept.into_iter().flatten().map(|k| k.player).collect();
        shutdown_players(&mut alive, self.settings.process.exit_grace).await;
    }
}

async fn worker<G: Game>(
    w: usize,
    settings: &PoolSettings<G>,
    queue: &Mutex<Queue>,
    results: UnboundedSender<MatchResult>,
) -> Result<(), RunError> {
    let mut keeper = Keeper::new(w, settings);
    let outcome = async {
        loop {
            let taken = take(&mut queue.lock().expect("queue lock"), w, settings);
            let Some(scheduled) = taken else {
                return Ok(());
            };
            let mut players = keeper.players_for(&scheduled).await;
            let mut log = match &settings.logs_dir {
                Some(dir) => {
                    MatchLog::to_file(dir.create_file(&format!("{}.jsonl", scheduled.id))?)
                }
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
            let stderr = stderr_ranges(&mut players).await;
            keeper.keep(&scheduled.seats, players, scheduled.group);
            let _ = results.send(MatchResult {
                id: scheduled.id,
                group: scheduled.group,
                record: record?,
                stderr,
            });
        }
    }
    .await;
    keeper.shutdown().await;
    outcome
}

/// Where each seat's stderr of the match just played is in its file (see
/// [`ProcessBot::stderr_span`](crate::seat::ProcessBot::stderr_span)); empty when no seat's
/// stderr is saved.
async fn stderr_ranges<G: Game>(players: &mut [Player<G>]) -> Vec<Option<StderrRange>> {
    let mut ranges = Vec::with_capacity(players.len());
    for player in players.iter_mut() {
        let span = match &mut player.seat {
            Seat::Process(bot) => bot.stderr_span().await,
            _ => None,
        };
        ranges.push(span.map(|s| {
            StderrRange {
                file: s
                    .file
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                from: s.from,
                to: s.to,
            }
        }));
    }
    if ranges.iter().all(Option::is_none) {
        ranges.clear();
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(groups: u64, per_group: u64) -> Vec<ScheduledMatch> {
        (0..groups * per_group)
            .map(|id| ScheduledMatch {
                id,
                group: id / per_group,
                seats: vec![0, 1],
                seed: id,
            })
            .collect()
    }

    fn settings(jobs: usize, duplicate: bool) -> PoolSettings<engine::vabanque::Vabanque> {
        PoolSettings {
            specs: Vec::new(),
            options: Default::default(),
            max_faults: 3,
            policy: Default::default(),
            process: ProcessOptions::default(),
            stderr_dir: None,
            logs_dir: None,
            duplicate,
            jobs,
            pin: false,
        }
    }

    /// With duplicate play each of two workers takes its own places of every group, in group
    /// order, so that it plays two matches of a group of four (two processes of a bot, not
    /// four); when its own are gone it takes what is left, and every match is taken once.
    #[test]
    fn workers_take_their_own_places_in_each_group_first() {
        let settings = settings(2, true);
        let mut queue = places_in_groups(schedule(3, 4));
        let ids = |queue: &mut Queue, w: usize, n: usize| -> Vec<u64> {
            (0..n)
                .filter_map(|_| take(queue, w, &settings).map(|m| m.id))
                .collect()
        };
        assert_eq!(ids(&mut queue, 0, 6), [0, 2, 4, 6, 8, 10]);
        assert_eq!(ids(&mut queue, 1, 2), [1, 3]);
        // Worker 0 has none of its own left: it takes the next of all.
        assert_eq!(ids(&mut queue, 0, 2), [5, 7]);
        assert_eq!(ids(&mut queue, 1, 5), [9, 11]);
        assert!(queue.is_empty());
    }

    /// Without duplicate play, or with one worker, matches are taken in schedule order.
    #[test]
    fn otherwise_matches_are_taken_in_order() {
        for settings in [settings(2, false), settings(1, true)] {
            let mut queue = places_in_groups(schedule(2, 4));
            let taken: Vec<u64> = (0..8)
                .map(|i| {
                    take(&mut queue, i % 2 * (settings.jobs - 1), &settings)
                        .unwrap()
                        .id
                })
                .collect();
            assert_eq!(taken, (0..8).collect::<Vec<_>>());
        }
    }
}
