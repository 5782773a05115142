//! The bot processes a worker slot keeps between matches, as `referee tournament`'s workers
//! keep theirs (the protocol's multi-match lifecycle): starting a process (an interpreter, a
//! sandbox, a copy of the artifact) costs more than most matches' play.
//!
//! A process is kept for the seat it was started for (the same version, limits, game options
//! and sandbox) and given to a later match of that seat only if it has never played that
//! match's deal (its seed): the matches of a duplicate group replay one deal, and a process that
//! saw it would know every hand. A process that crashed, was stopped or faulted at its start is
//! not kept. Built-in bots are made anew for each match (they cost nothing to make).
//!
//! Each kept process has its own workdir (a copy of its artifact) under the worker's `seats/`,
//! which is sealed in every bot's sandbox: a bot sees its own workdir there and nothing else,
//! not even the workdirs made after it started. Its stderr goes to one file for its life; each
//! match takes the part written during it. At most `cap` processes are kept per slot: past
//! that, the least recently used are stopped. All are stopped when the worker stops.

use engine::Game;
use referee::policy::{PreparedPolicy, ProcessPolicy};
use referee::runner::{Player, shutdown_players};
use referee::safe_fs::SafeDir;
use referee::seat::users::UidRange;
use referee::seat::{SandboxMode, Seat};
use std::any::Any;
use std::collections::HashSet;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// How long a process stopped for good is given to leave after `goodbye`.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// A process whose stderr file has grown this large is not kept: its file would reach its cap
/// (`ProcessOptions::stderr_cap`, 1 MiB), and its later matches' stderr be lost.
const RETIRE_STDERR_BYTES: u64 = 512 << 10;

/// How many processes each of `slots` slots may keep when they are asked to keep `asked`: as
/// root, each bot process runs as a uid of its own in a group of its own, leased from the
/// range of the machine's bots ([`UidRange::DEFAULT`], 1,000 ids), so the slots together keep
/// at most three quarters of it, and the rest stays free for the processes each match starts
/// and for other referees of the machine. A range run out of would leave a bot without a uid.
pub(super) fn cap(asked: usize, slots: usize, root: bool) -> usize {
    if !root {
        return asked;
    }
    let ids = UidRange::DEFAULT.ids().count();
    asked.min(ids * 3 / 4 / slots.max(1))
}

/// The processes one slot keeps, of whichever game its ladder plays.
pub(super) struct Kept {
    /// The `Processes<G>` of the game last played.
    processes: Option<Box<dyn Pool>>,
    /// How many processes are kept at most (0: none, every seat is started anew).
    pub(super) cap: usize,
    /// Where the kept processes' stderr files are.
    pub(super) stderr: Arc<SafeDir>,
    /// Its path.
    pub(super) stderr_path: PathBuf,
    /// Processes started so far (they name the stderr files and workdirs).
    pub(super) started: u64,
    /// Whether the worker is root: its processes then run as uids of their own
    /// ([`crate::bot_users`]).
    pub(super) root: bool,
    /// The process policy of each sandbox mode asked for so far, the machine probed once
    /// for each (a probe starts processes and reads all of `/proc`: more than most matches).
    policies: Vec<(SandboxMode, Arc<PreparedPolicy>)>,
}

/// [`Processes`] of some game.
trait Pool {
    fn as_any(&mut self) -> &mut dyn Any;
    fn stop_all(&mut self) -> Pin<Box<dyn Future<Output = ()> + '_>>;
}

impl<G: Game> Pool for Processes<G> {
    fn as_any(&mut self) -> &mut dyn Any {
        self
    }

    fn stop_all(&mut self) -> Pin<Box<dyn Future<Output = ()> + '_>> {
        Box::pin(async move {
            let mut live: Vec<Live<G>> = self.live.drain(..).collect();
            stop(&mut live).await;
        })
    }
}

impl Kept {
    /// None kept yet, at most `cap`; stderr files in `stderr` (at `stderr_path`); `root`:
    /// whether the worker is.
    pub(super) fn new(cap: usize, stderr: Arc<SafeDir>, stderr_path: PathBuf, root: bool) -> Kept {
        Kept {
            processes: None,
            cap,
            stderr,
            stderr_path,
            started: 0,
            root,
            policies: Vec::new(),
        }
    }

    /// The policy for seats in `sandbox`: made by `make` and prepared the first time.
    pub(super) fn policy(
        &mut self,
        sandbox: SandboxMode,
        make: impl FnOnce() -> ProcessPolicy,
    ) -> Arc<PreparedPolicy> {
        if let Some((_, policy)) = self.policies.iter().find(|(mode, _)| *mode == sandbox) {
            return policy.clone();
        }
        let policy = Arc::new(make().prepared());
        self.policies.push((sandbox, policy.clone()));
        policy
    }

    /// The processes kept of game `G` (those of another game, if any, are dropped: killed).
    pub(super) fn of<G: Game>(&mut self) -> &mut Processes<G> {
        let same = self
            .processes
            .as_mut()
            .is_some_and(|p| p.as_any().is::<Processes<G>>());
        if !same {
            self.processes = Some(Box::new(Processes::<G> {
                live: Vec::new(),
                tick: 0,
            }));
        }
        self.processes
            .as_mut()
            .and_then(|p| p.as_any().downcast_mut::<Processes<G>>())
            .expect("made above")
    }

    /// Stops every kept process (`goodbye`, then a kill after a grace) and removes the
    /// stderr directory.
    pub(super) async fn shutdown(mut self) {
        if let Some(mut processes) = self.processes.take() {
            processes.stop_all().await;
        }
        let _ = std::fs::remove_dir_all(&self.stderr_path);
    }
}

/// The kept processes of game `G`.
pub(super) struct Processes<G: Game> {
    live: Vec<Live<G>>,
    /// Counts matches: a process's last use.
    tick: u64,
}

/// A bot process with what belongs to it: its workdir and stderr file go with it.
pub(super) struct Live<G: Game> {
    /// What it was started for (see the module's documentation).
    pub(super) key: String,
    /// The player: `None` only while being dropped.
    pub(super) player: Option<Player<G>>,
    /// Its workdir, removed when it is dropped.
    pub(super) workdir: Option<PathBuf>,
    /// Its stderr file, removed when it is dropped.
    pub(super) stderr: Option<PathBuf>,
    /// The seeds of the matches it has played.
    pub(super) seeds: HashSet<u64>,
    /// When it last played.
    used: u64,
}

impl<G: Game> Live<G> {
    /// A process just started for `key`.
    pub(super) fn new(
        key: String,
        player: Player<G>,
        workdir: Option<PathBuf>,
        stderr: Option<PathBuf>,
    ) -> Live<G> {
        Live {
            key,
            player: Some(player),
            workdir,
            stderr,
            seeds: HashSet::new(),
            used: 0,
        }
    }

    /// The player.
    pub(super) fn player(&mut self) -> &mut Player<G> {
        self.player.as_mut().expect("a live player")
    }
}

impl<G: Game> Drop for Live<G> {
    fn drop(&mut self) {
        // The process first (dropping it kills its group), then its files.
        drop(self.player.take());
        if let Some(dir) = &self.workdir {
            let _ = std::fs::remove_dir_all(dir);
        }
        if let Some(file) = &self.stderr {
            let _ = std::fs::remove_file(file);
        }
    }
}

impl<G: Game> Processes<G> {
    /// A kept process for `key` that has never played `seed`, taken out, if there is one
    /// still running.
    pub(super) fn take(&mut self, key: &str, seed: u64) -> Option<Live<G>> {
        loop {
            // The most recently used first: its pages are the likeliest to be warm.
            let at = self
                .live
                .iter()
                .enumerate()
                .filter(|(_, l)| l.key == key && !l.seeds.contains(&seed))
                .max_by_key(|(_, l)| l.used)
                .map(|(i, _)| i)?;
            let mut live = self.live.swap_remove(at);
            // Only the one chosen is asked whether it still runs (one system call each): one
            // that has exited is dropped, and the next is tried.
            let running = match &mut live.player().seat {
                Seat::Process(bot) => !bot.has_exited(),
                _ => true,
            };
            if running {
                return Some(live);
            }
        }
    }

    /// Keeps `played` (the processes of a match of `seed` just played) that may play again,
    /// and stops the others and the least recently used past `cap`.
    pub(super) async fn keep(&mut self, played: Vec<Live<G>>, seed: u64, cap: usize) {
        self.tick += 1;
        let mut gone = Vec::new();
        for mut live in played {
            let usable = live.player.as_ref().is_some_and(|p| {
                referee::runner::is_usable(p) && matches!(p.seat, Seat::Process(_))
            });
            let stderr_full = live
                .stderr
                .as_ref()
                .and_then(|f| std::fs::metadata(f).ok())
                .is_some_and(|m| m.len() >= RETIRE_STDERR_BYTES);
            if usable && !stderr_full && cap > 0 {
                live.seeds.insert(seed);
                live.used = self.tick;
                self.live.push(live);
            } else {
                gone.push(live);
            }
        }
        if self.live.len() > cap {
            self.live.sort_by_key(|l| std::cmp::Reverse(l.used));
            gone.extend(self.live.split_off(cap));
        }
        stop(&mut gone).await;
    }
}

/// Stops `live` (`goodbye`, then a kill after a grace); their files go with them.
async fn stop<G: Game>(live: &mut Vec<Live<G>>) {
    let mut players: Vec<Player<G>> = live.iter_mut().filter_map(|l| l.player.take()).collect();
    shutdown_players(&mut players, EXIT_GRACE).await;
    drop(players);
    live.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_root_the_slots_keep_at_most_three_quarters_of_the_bots_ids() {
        assert_eq!(cap(512, 4, false), 512);
        assert_eq!(cap(512, 4, true), 187);
        assert_eq!(cap(512, 1, true), 512);
        assert_eq!(cap(100, 2, true), 100);
        assert_eq!(cap(512, 0, true), 512);
        assert_eq!(cap(0, 4, true), 0);
    }
}
