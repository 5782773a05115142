//! The example match of docs/match-log.md as a ladder's, for the tests: its log, a spec of
//! three owners' seats and a record.

use crate::spec::{MatchSpec, SeatSpec};
use referee::runner::{FaultPolicy, LogRecord, MatchRecord, SeatStats};
use referee::seat::SandboxMode;
use referee::tournament::meta::MetaBot;

/// The match log of docs/match-log.md's example: seat 0 a bot that writes notes to its stderr,
/// seat 1 one whose every line is not JSON, seat 2 the built-in heuristic.
pub fn example_log() -> Vec<LogRecord> {
    include_str!("../../../tests/fixtures/logs/machiavelli.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn seat(owner: &str, name: &str, command: &str, artifact: Option<char>) -> SeatSpec {
    SeatSpec {
        version: 1,
        owner: owner.into(),
        artifact: artifact.map(|c| c.to_string().repeat(64)),
        bot: MetaBot {
            name: name.into(),
            command: command.into(),
            limits: protocol::Limits::new(10_000, 1_000),
            overruns: 0,
            overrun_ms: 100,
            resources: Default::default(),
            time_basis: Default::default(),
            turn_isolation: false,
        },
    }
}

/// The example's match as a ladder's: alice's notes.v1, bob's garbage.v2, the built-in.
pub fn example_spec() -> MatchSpec {
    MatchSpec {
        referee: crate::spec::REFEREE_VERSION.into(),
        game: "machiavelli".into(),
        options: serde_json::json!({"cards": 10}),
        seed: 1,
        seats: vec![
            seat("alice", "notes.v1", "python3 bot.py", Some('a')),
            seat("bob", "garbage.v2", "python3 bot.py", Some('b')),
            seat("admin", "heuristic.v1", "builtin:heuristic", None),
        ],
        max_faults: 3,
        policy: FaultPolicy::default(),
        sandbox: SandboxMode::Auto,
        ranked: true,
        group: 0,
    }
}

pub fn example_record(log: &[LogRecord]) -> MatchRecord {
    let Some(LogRecord::Result { scores, ranks, .. }) = log.last() else {
        panic!("the example ends with its result")
    };
    MatchRecord {
        match_id: "match-1".into(),
        game: "machiavelli".into(),
        seed: 1,
        players: vec![
            "notes.v1".into(),
            "garbage.v2".into(),
            "heuristic.v1".into(),
        ],
        scores: scores.clone(),
        ranks: ranks.clone(),
        faults: log
            .iter()
            .filter_map(|r| match r {
                LogRecord::Fault {
                    n,
                    seat,
                    fault,
                    message,
                } => Some(referee::runner::FaultRecord {
                    seat: *seat,
                    decision: *n,
                    turn: None,
                    phase: None,
                    outside: None,
                    fault: *fault,
                    message: message.clone(),
                    line: None,
                }),
                _ => None,
            })
            .collect(),
        stats: vec![
            SeatStats {
                total_ms: 12.5,
                ..SeatStats::default()
            };
            3
        ],
        duration_ms: 100.0,
        internal_error: None,
    }
}
