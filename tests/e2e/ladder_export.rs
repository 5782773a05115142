//! A window of the ladder exported as a tournament results directory
//! (`referee_ladder::export`) is read by the real binary as a tournament's: `referee
//! leaderboard` rates the versions, `referee report` writes its pages, and two windows of the
//! same versions merge with `referee merge`. The matches are real ones: chosen by the ladder's
//! matchmaker, played by `run_match` with built-in bots, tables of 3 and 4.

use crate::util::*;
use ladder::export::{ExportedMatch, Ladder, export};
use ladder::matchmaker::{Candidate, PlannedMatch, Request, plan};
use ladder::spec::{MatchSpec, REFEREE_VERSION, SeatSpec, seat_name};
use referee::runner::{MatchConfig, MatchLog, run_match};
use referee::tournament::meta::MetaBot;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// The ladder's versions: (bot, version id, built-in).
const VERSIONS: [(&str, i64, &str); 4] = [
    ("alpha", 1, "heuristic"),
    ("beta", 2, "random"),
    ("gamma", 3, "random"),
    ("delta", 4, "heuristic"),
];

fn seat(version: i64) -> SeatSpec {
    let (bot, _, builtin) = VERSIONS.iter().find(|v| v.1 == version).unwrap();
    SeatSpec {
        version,
        owner: bot.to_string(),
        artifact: None,
        bot: MetaBot {
            name: seat_name(bot, version),
            command: format!("builtin:{builtin}"),
            limits: serde_json::from_value(serde_json::json!({
                "startup_ms": 10000, "decision_ms": 10000
            }))
            .unwrap(),
            overruns: 0,
            overrun_ms: 100,
            resources: Default::default(),
            time_basis: Default::default(),
            turn_isolation: false,
        },
    }
}

/// The matchmaker's tables for a fresh ladder of the four versions (tables of 3 and 4,
/// duplicate groups).
fn planned() -> Vec<PlannedMatch> {
    let candidates: Vec<Candidate> = VERSIONS
        .iter()
        .map(|(bot, version, _)| Candidate {
            version: *version,
            owner: bot.to_string(),
            mu: 25.0,
            sigma: 25.0 / 3.0,
            last_played: None,
            is_new: true,
        })
        .collect();
    let settings = ladder::config::MatchmakingSettings {
        queue: 8,
        repeat_s: 0,
        duplicate: true,
    };
    plan(&Request {
        candidates: &candidates,
        recent: &[],
        now: 0,
        players: 3..=4,
        counts: engine::PlayerCounts::of::<engine::vabanque::Vabanque>(),
        settings: &settings,
        seed: 29,
        next_group: 0,
        tables: 4,
    })
}

/// Plays the planned matches (ids from 0), each with its log and a line of stderr of its
/// first seat.
async fn played(planned: &[PlannedMatch]) -> Vec<ExportedMatch> {
    let mut matches = Vec::new();
    for (id, m) in planned.iter().enumerate() {
        let spec = MatchSpec {
            referee: REFEREE_VERSION.into(),
            game: "vabanque".into(),
            options: serde_json::json!({}),
            seed: m.seed,
            seats: m.seats.iter().map(|&v| seat(v)).collect(),
            max_faults: 3,
            policy: Default::default(),
            sandbox: Default::default(),
            ranked: true,
            group: m.group,
        };
        let config = MatchConfig {
            game: engine::GameKind::Vabanque,
            options: spec.options.clone(),
            bots: spec
                .seats
                .iter()
                .map(|s| s.bot.spec(None).unwrap())
                .collect(),
            seed: spec.seed,
            match_id: id.to_string(),
            max_faults: spec.max_faults,
            policy: spec.policy,
            process: Default::default(),
            outputs: Vec::new(),
        };
        let mut log = MatchLog::memory();
        let record = run_match(&config, None, &mut log, &mut ()).await.unwrap();
        let mut jsonl = Vec::new();
        for line in log.records() {
            serde_json::to_writer(&mut jsonl, line).unwrap();
            jsonl.push(b'\n');
        }
        let first = spec.seats[0].bot.name.clone();
        matches.push(ExportedMatch {
            id: id as u64,
            group: m.group,
            spec,
            record,
            log: Some(jsonl),
            stderr: vec![(first, format!("match {id}: thinking\n").into_bytes())],
        });
    }
    matches
}

/// The ladder the windows are taken from.
const LADDER: Ladder = Ladder {
    players: 4,
    matches: 100,
    seed: 29,
    duplicate: true,
};

fn leaderboard(dir: &Path) -> Value {
    let out = run(&["leaderboard", dir.to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    board(&out)
}

fn names(board: &Value) -> BTreeSet<String> {
    board["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["bot"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn an_exported_window_is_read_by_leaderboard_report_and_merge() {
    let planned = planned();
    let sizes: BTreeSet<usize> = planned.iter().map(|m| m.seats.len()).collect();
    assert_eq!(sizes, BTreeSet::from([3, 4]), "{planned:?}");
    let matches = played(&planned).await;
    let base = temp_dir("ladder-export");

    let all = base.join("all");
    let written = export(&matches, &LADDER, &all).unwrap();
    assert_eq!(written.matches, matches.len() as u64);
    let meta: Value =
        serde_json::from_slice(&std::fs::read(all.join("tournament.json")).unwrap()).unwrap();
    assert_eq!(meta["schedule"], "ladder");
    assert_eq!(meta["players"], 4);
    let board = leaderboard(&all);
    assert_eq!(board["matches"], matches.len());
    let versions: BTreeSet<String> = VERSIONS.iter().map(|(b, v, _)| seat_name(b, *v)).collect();
    assert_eq!(names(&board), versions);
    // A seat's stderr of a match, as the store gave it: its range in its file of stderr/.
    let lines = json_lines(&all.join("matches.jsonl"));
    let range = &lines[0]["stderr"][0];
    let file = all.join("stderr").join(range["file"].as_str().unwrap());
    let text = std::fs::read_to_string(file).unwrap();
    assert_eq!(text, "match 0: thinking\n");
    assert_eq!(range["to"], text.len());
    assert!(all.join("logs").join("0.jsonl").is_file());

    let pages = base.join("report");
    let report = run(&[
        "report",
        all.to_str().unwrap(),
        "--html",
        pages.to_str().unwrap(),
    ]);
    assert!(report.status.success(), "{}", stderr(&report));
    assert!(pages.join("index.html").is_file());

    // Two windows of the same four versions merge into the whole.
    let cut = matches.len() / 2;
    let (early, late) = matches.split_at(cut);
    for (name, window) in [("early", early), ("late", late)] {
        let seated: BTreeSet<i64> = window
            .iter()
            .flat_map(|m| m.spec.seats.iter().map(|s| s.version))
            .collect();
        assert_eq!(seated.len(), 4, "{name}: every version plays in each half");
        export(window, &LADDER, &base.join(name)).unwrap();
    }
    let merged = base.join("merged");
    let out = run(&[
        "merge",
        base.join("early").to_str().unwrap(),
        base.join("late").to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(leaderboard(&merged)["standings"], board["standings"]);
    assert!(merged.join("logs").join("0.jsonl").is_file());

    // An exported directory is not exported into again.
    let again = export(&matches, &LADDER, &all).unwrap_err();
    assert!(
        again.to_string().contains("already holds a tournament"),
        "{again}"
    );
}
