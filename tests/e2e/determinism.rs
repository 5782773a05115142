//! The same seed and deterministic bots give the same match, timings aside (and what bots write
//! to stderr, which the log places where the referee read it).

use crate::util::*;
use serde_json::Value;

fn play(dir: &std::path::Path, name: &str, seed: &str) -> Vec<Value> {
    let log = dir.join(name);
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--seed",
        seed,
        // A timeout would make the matches differ: no bot comes near this limit.
        "--time-limit-ms",
        LIMIT_MS,
        "--log",
        log.to_str().unwrap(),
        "--bot",
        &format!("py={}", file("sample-bots/python/vabanque_heuristic.py")),
        "--bot",
        &format!(
            "js=node {}",
            file("sample-bots/javascript/vabanque_random.js")
        ),
        "--bot",
        &format!("rs={}", bin("vabanque-random").display()),
        "--bot",
        "b=builtin:random",
        "--bot",
        &format!("notes={}", file("tests/bots/stderr_notes.py")),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = json_lines(&log);
    assert!(
        records.iter().any(|r| r["type"] == "stderr"),
        "the notes bot's stderr is logged"
    );
    log_without_timings(&log)
}

#[test]
fn same_seed_same_match_other_seed_other_match() {
    let dir = temp_dir("determinism");
    let first = play(&dir, "a.jsonl", "2024");
    let second = play(&dir, "b.jsonl", "2024");
    assert_eq!(first, second);
    let other = play(&dir, "c.jsonl", "2025");
    assert_ne!(first[1..], other[1..]);
}
