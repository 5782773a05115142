//! Measurements for `referee bench`: the physical limit (a pipe round trip between two
//! processes, on one core and across cores), in-process games, decisions with real bot
//! processes, process start-up, and memory; and the user's own command, a whole tournament in
//! this process and out of it ([`tournament`]). This module computes; the command line renders.

pub mod machine;
pub mod machine_cpu;
pub mod pipe;
mod processes;
pub mod tournament;

pub use processes::{BotRun, decisions_per_second, spawn_cost};

use crate::runner::{MatchLog, MatchSettings, Player, play_match};
use crate::seat::Seat;
use engine::Game;
use std::time::{Duration, Instant};

/// The median of `values` (sorted in place); 0 when empty.
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Games per second of the engine alone: every decision the game's default action, no bot,
/// no view, for at least `budget`.
pub fn engine_games_per_second<G: Game>(players: usize, budget: Duration) -> f64 {
    let options = G::Options::default();
    let started = Instant::now();
    let mut games = 0u64;
    let mut events = Vec::new();
    while started.elapsed() < budget {
        let mut game = G::new(&options, players, games).expect("a valid setup");
        while game.to_move().is_some() {
            let action = game.default_action();
            events.clear();
            game.play(&action, &mut events)
                .expect("the default action is legal");
        }
        games += 1;
    }
    games as f64 / started.elapsed().as_secs_f64()
}

/// Games per second through the match runner with the game's baseline bots (views built, actions
/// checked, records kept, no log), on one thread, for at least `budget`.
pub fn builtin_games_per_second<G: Game>(players: usize, budget: Duration) -> f64 {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let options = G::Options::default();
    let started = Instant::now();
    let mut games = 0u64;
    runtime.block_on(async {
        while started.elapsed() < budget {
            let mut seats: Vec<Player<G>> = (0..players)
                .map(|s| {
                    let name = engine::strategy::baseline_bot::<G>();
                    let bot = engine::strategy::builtin::<G>(name).expect("the baseline bot");
                    Player::new(
                        format!("b{s}"),
                        format!("builtin:{name}"),
                        Seat::Builtin(bot),
                    )
                })
                .collect();
            let settings = MatchSettings {
                match_id: games.to_string(),
                seed: games,
                max_faults: 3,
                policy: Default::default(),
            };
            play_match(&settings, &options, &mut seats, &mut MatchLog::none())
                .await
                .expect("a valid setup");
            games += 1;
        }
    });
    games as f64 / started.elapsed().as_secs_f64()
}

/// The games per second of `jobs` threads each running [`builtin_games_per_second`] at once,
/// pinned to cores when `pin` is set: the scaling of in-process play.
pub fn builtin_games_per_second_parallel<G: Game>(
    players: usize,
    budget: Duration,
    jobs: usize,
    pin: bool,
) -> f64 {
    let cores = crate::affinity::allowed_cores();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|w| {
                let core = (pin && !cores.is_empty()).then(|| cores[w % cores.len()]);
                scope.spawn(move || {
                    if let Some(core) = core {
                        crate::affinity::pin_current_thread(core);
                    }
                    builtin_games_per_second::<G>(players, budget)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    })
}

/// The referee's peak resident memory so far, in KiB (`VmHWM`).
pub fn peak_rss_kib() -> Option<u64> {
    std::fs::read_to_string("/proc/self/status")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}
