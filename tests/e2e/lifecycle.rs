//! One bot process plays many matches in a row (the protocol's multi-match lifecycle).

use crate::util::*;
use protocol::Limits;
use referee::engine::vabanque::{Options, Vabanque};
use referee::runner::{MatchLog, MatchSettings, play_match, shutdown_players, start_players};
use referee::seat::{BotSpec, ProcessOptions, Seat};

#[test]
fn bot_processes_are_reused_across_matches() {
    let specs: Vec<BotSpec> = [
        format!(
            "py=python3 {}",
            file("sample-bots/python/vabanque_heuristic.py")
        ),
        format!(
            "js=node {}",
            file("sample-bots/javascript/vabanque_random.js")
        ),
        format!("rs={}", bin("vabanque-heuristic").display()),
        "builtin:random".to_string(),
    ]
    .iter()
    .map(|s| BotSpec::parse(s).unwrap())
    .collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let limits = Limits {
            startup_ms: 10_000,
            decision_ms: 2_000,
        };
        let mut players = start_players::<Vabanque>(
            &specs,
            &Options::default(),
            limits,
            &ProcessOptions::default(),
            None,
        )
        .await;
        let pids = |players: &[referee::runner::Player<Vabanque>]| -> Vec<u32> {
            players
                .iter()
                .filter_map(|p| match &p.seat {
                    Seat::Process(b) => Some(b.pid()),
                    _ => None,
                })
                .collect()
        };
        let before = pids(&players);
        assert_eq!(before.len(), 3);
        for m in 0..3u64 {
            let settings = MatchSettings {
                match_id: format!("m{m}"),
                seed: 100 + m,
                limits,
                max_faults: 3,
            };
            let record = play_match(
                &settings,
                &Options::default(),
                &mut players,
                &mut MatchLog::none(),
            )
            .await
            .unwrap();
            assert!(record.faults.is_empty(), "match {m}: {:?}", record.faults);
            assert!(record.stats.iter().all(|s| s.substituted == 0));
        }
        assert_eq!(
            pids(&players),
            before,
            "the same processes played every match"
        );
        shutdown_players(&mut players, std::time::Duration::from_secs(1)).await;
        for p in &players {
            if let Seat::Process(bot) = &p.seat {
                assert!(!bot.is_alive());
            }
        }
    });
}
