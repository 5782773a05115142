//! A small real tournament, played once and shared by the report and rerun tests: four bots in
//! three languages and a built-in, Vabanque at 4 players (one round-robin cycle, 20 matches),
//! match logs kept. Two bots misbehave deterministically: `crasher` raises an exception at its
//! sixth request (a traceback on stderr; it forfeits), `diarist` writes a line to stderr for
//! each request and answers its second request of each match with an action of the wrong
//! shape. One bot is given by a command relative to the workspace root, where the tournament
//! runs.

use crate::util::*;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Matches in the tournament: C(5, 4) groups of 4 rotations.
pub const MATCHES: usize = 20;

/// The results directory, played on first use.
pub fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = temp_dir("faulty-tournament").join("out");
        let played = referee()
            .args(["tournament", "--game", "vabanque", "--players", "4"])
            .args(["--seed", "3", "-j", "2", "--logs", "-q", "--format", "json"])
            .args(["--time-limit-ms", LIMIT_MS, "--out", out.to_str().unwrap()])
            .args([
                "--bot",
                &format!("rust-heuristic={}", bin("vabanque-heuristic").display()),
                "--bot",
                "py-random=sample-bots/python/vabanque_random.py",
                "--bot",
                &format!("diarist={}", file("tests/bots/stderr_diarist.py")),
                "--bot",
                &format!("crasher={}", file("tests/bots/crasher.py")),
                "--bot",
                "builtin-random=builtin:random",
            ])
            .output()
            .unwrap();
        board(&played);
        assert_eq!(json_lines(&out.join("matches.jsonl")).len(), MATCHES);
        out
    })
}

/// The recorded results, by id.
pub fn results() -> Vec<serde_json::Value> {
    let mut rows = json_lines(&dir().join("matches.jsonl"));
    rows.sort_by_key(|r| r["id"].as_u64());
    rows
}

/// The seat of `bot` in the recorded match `result`, if it played.
pub fn seat_of(result: &serde_json::Value, bot: &str) -> Option<usize> {
    result["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p == bot)
}
