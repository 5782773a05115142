//! One bot process plays many matches in a row (the protocol's multi-match lifecycle).

use crate::util::*;
use engine::vabanque::{Options, Vabanque};
use referee::runner::{
    MatchLog, MatchSettings, Player, play_match, shutdown_players, start_players,
};
use referee::seat::{BotSpec, ProcessOptions, Seat};

/// Parses `bots`, starts them (processes greeted) with `decision_ms`, and runs `body` with the
/// players on a one-thread runtime.
fn with_players<F: std::future::Future<Output = ()>>(
    bots: &[String],
    decision_ms: u64,
    body: impl FnOnce(Vec<Player<Vabanque>>) -> F,
) {
    let specs: Vec<BotSpec> = bots
        .iter()
        .map(|s| {
            let mut spec = BotSpec::parse(s).unwrap();
            spec.settings.time.limits.decision_ms = decision_ms;
            spec
        })
        .collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let players = start_players::<Vabanque>(
            &specs,
            &Options::default(),
            &ProcessOptions::default(),
            &|_| None,
        )
        .await;
        body(players).await;
    });
}

#[test]
fn bot_processes_are_reused_across_matches() {
    let bots = [
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
    ];
    with_players(&bots, 10_000, |mut players| async move {
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
                max_faults: 3,
                policy: Default::default(),
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
        shutdown_players(&mut players, ProcessOptions::default().exit_grace).await;
        for p in &players {
            if let Seat::Process(bot) = &p.seat {
                assert!(!bot.is_alive());
            }
        }
    });
}

#[test]
fn a_bot_stopped_in_one_match_is_recorded_in_the_next_not_silently_benched() {
    let bots = [
        format!("garbage={}", file("tests/bots/garbage.py")),
        "b=builtin:random".into(),
        "c=builtin:random".into(),
    ];
    with_players(&bots, 100, |mut players| async move {
        let mut records = Vec::new();
        for m in 0..2u64 {
            let settings = MatchSettings {
                match_id: format!("m{m}"),
                seed: m,
                max_faults: 3,
                policy: Default::default(),
            };
            records.push(
                play_match(
                    &settings,
                    &Options::default(),
                    &mut players,
                    &mut MatchLog::none(),
                )
                .await
                .unwrap(),
            );
        }
        assert!(records[0].stats[0].ejected);
        let later: Vec<_> = records[1].faults.iter().filter(|f| f.seat == 0).collect();
        assert_eq!(later.len(), 1, "{:?}", records[1].faults);
        assert!(
            later[0].message.contains("not running"),
            "{}",
            later[0].message
        );
        shutdown_players(&mut players, ProcessOptions::default().exit_grace).await;
    });
}
