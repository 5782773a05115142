//! What an export refuses, before it writes anything.

use super::*;
use crate::spec::{REFEREE_VERSION, SeatSpec, seat_name};
use referee::runner::SeatStats;

const LADDER: Ladder = Ladder {
    players: 4,
    matches: 10,
    seed: 1,
    duplicate: false,
};

fn bot(name: &str) -> MetaBot {
    MetaBot {
        name: name.into(),
        command: "builtin:random".into(),
        limits: serde_json::from_str(r#"{"startup_ms": 10000, "decision_ms": 1000}"#).unwrap(),
        overruns: 0,
        overrun_ms: 100,
        resources: Default::default(),
        time_basis: Default::default(),
        turn_isolation: false,
    }
}

/// Match `id` of versions 1 to 3 (bots a, b, c), ranked in seat order.
fn exported(id: u64) -> ExportedMatch {
    let names: Vec<String> = ["a", "b", "c"]
        .iter()
        .zip(1..)
        .map(|(b, v)| seat_name(b, v))
        .collect();
    ExportedMatch {
        id,
        group: id,
        spec: MatchSpec {
            referee: REFEREE_VERSION.into(),
            game: "vabanque".into(),
            options: serde_json::json!({}),
            seed: id,
            seats: names
                .iter()
                .zip(1..)
                .map(|(name, version)| SeatSpec {
                    version,
                    owner: name[..1].into(),
                    artifact: None,
                    bot: bot(name),
                })
                .collect(),
            max_faults: 3,
            policy: Default::default(),
            sandbox: Default::default(),
            ranked: true,
            group: 0,
        },
        record: MatchRecord {
            match_id: id.to_string(),
            game: "vabanque".into(),
            seed: id,
            players: names,
            scores: vec![3, 2, 1],
            ranks: vec![1, 2, 3],
            faults: Vec::new(),
            stats: vec![SeatStats::default(); 3],
            duration_ms: 1.0,
            internal_error: None,
        },
        log: None,
        stderr: Vec::new(),
    }
}

fn refusal(matches: &[ExportedMatch]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let error = export(matches, &LADDER, &out).unwrap_err().to_string();
    assert!(!out.exists(), "{error}: nothing is written");
    error
}

#[test]
fn a_window_is_written_and_read_back_as_a_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut second = exported(4);
    second.stderr = vec![("b.v2".into(), b"hello\n".to_vec())];
    let written = export(&[second, exported(2)], &LADDER, &out).unwrap();
    assert_eq!(
        (written.matches, written.bots, written.stderr_files),
        (2, 3, 1)
    );
    let back = referee::tournament::results::read_back(&out).unwrap();
    assert_eq!(back.results.keys().copied().collect::<Vec<_>>(), [2, 4]);
    assert_eq!(back.meta.format.kind, ScheduleKind::Ladder);
    let range = back.results[&4].stderr[1].clone().unwrap();
    assert_eq!((range.file.as_str(), range.to), ("b.v2.4.stderr", 6));
}

#[test]
fn an_empty_or_inconsistent_window_is_refused() {
    assert_eq!(refusal(&[]), "no match to export");
    assert_eq!(
        refusal(&[exported(1), exported(1)]),
        "match 1 is given twice"
    );
    let mut other = exported(2);
    other.spec.options = serde_json::json!({"chips": 5});
    assert!(refusal(&[exported(1), other]).contains("another options than match 1"));
    let mut renamed = exported(1);
    renamed.record.players[0] = "z.v9".into();
    assert!(refusal(&[renamed]).contains("not its seats' names"));
    let mut stranger = exported(1);
    stranger.stderr = vec![("z.v9".into(), b"x".to_vec())];
    assert!(refusal(&[stranger]).contains("stderr of 'z.v9'"));
    assert!(refusal(&[exported(10)]).contains("beyond the ladder"));
    let mut two = exported(1);
    two.spec.seats[1].bot.command = "builtin:heuristic".into();
    let mut again = exported(2);
    again.spec.seats[1].bot.command = "builtin:random".into();
    assert!(refusal(&[two, again]).contains("two different settings"));
}
