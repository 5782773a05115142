//! Tournaments of built-in bots for the report's unit tests.

use crate::seat::{BotSpec, Launch};
use crate::tournament::{FormatSettings, FormatSpec, NavaSpec, ScheduleKind, TournamentConfig};
use engine::GameKind;

/// Plays a tournament of built-in bots into a fresh temporary directory (its match logs kept if
/// `logs`), removed when the returned guard is dropped; the results are in its `path()`.
pub fn played(
    game: GameKind,
    bots: &[(&str, &str)],
    schedule: ScheduleKind,
    logs: bool,
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_path_buf();
    let nava = schedule == ScheduleKind::Nava;
    let config = TournamentConfig {
        game,
        options: serde_json::json!({}),
        bots: bots
            .iter()
            .map(|(name, builtin)| {
                BotSpec::new(Some(name.to_string()), Launch::Builtin(builtin.to_string()))
                    .expect("a valid bot")
            })
            .collect(),
        players: (!nava).then_some(3),
        matches: (!nava).then_some(24),
        seed: 5,
        format: FormatSpec {
            kind: schedule,
            settings: nava.then_some(FormatSettings::Nava(NavaSpec {
                rounds: 3,
                hands: 3,
            })),
        },
        candidate: 0,
        duplicate: true,
        shard: None,
        resume: false,
        out: out.clone(),
        logs,
        jobs: 1,
        pin: false,
        max_faults: 3,
        policy: crate::runner::FaultPolicy::default(),
        process: Default::default(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime
        .block_on(crate::tournament::run(
            &config,
            &mut (),
            std::future::pending(),
        ))
        .expect("the tournament runs");
    dir
}

/// Four built-in Vabanque bots.
pub const FIELD: [(&str, &str); 4] = [
    ("h", "heuristic"),
    ("r1", "random"),
    ("r2", "random"),
    ("r3", "random"),
];
