//! The same seed and deterministic bots give the same match, timings aside.

use crate::util::*;
use serde_json::Value;

fn without_timings(mut records: Vec<Value>) -> Vec<Value> {
    for r in &mut records {
        if let Some(obj) = r.as_object_mut() {
            obj.remove("ms");
            obj.remove("cpu_ms");
        }
    }
    records
}

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
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    without_timings(json_lines(&log))
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
