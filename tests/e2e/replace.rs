//! `referee tournament DIR --replace NAME=COMMAND --out NEW`: a finished tournament whose
//! crasher is replaced by a fixed bot plays again only the matches the crasher played (the
//! count said before they run), keeps the others with their stderr and logs, leaves DIR as it
//! was, records the new command, and gives the results and leaderboard of a fresh run with the
//! fixed bot.

use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// The fixed crasher: plays legal[0] at every request, as the crasher did before it raised.
fn fixed() -> String {
    format!(
        "python3 {} /nonexistent-flag",
        file("tests/bots/second_thoughts.py")
    )
}

/// A tournament of four bots, three a match (12 matches), logs kept, `crasher` given by
/// `crasher`.
fn tournament(out: &Path, crasher: &str) -> Value {
    let played = referee()
        .args(["tournament", "--game", "vabanque", "--players", "3"])
        .args(["--seed", "8", "-j", "2", "--logs", "-q", "--format", "json"])
        .args(["--time-limit-ms", LIMIT_MS, "--out", out.to_str().unwrap()])
        .args([
            "--bot",
            &format!("diarist={}", file("tests/bots/stderr_diarist.py")),
            "--bot",
            &format!("crasher={crasher}"),
            "--bot",
            &format!("rust-heuristic={}", bin("vabanque-heuristic").display()),
            "--bot",
            "builtin-random=builtin:random",
        ])
        .output()
        .unwrap();
    board(&played)
}

/// The standings without the decision times.
fn standings(board: &Value) -> Vec<Value> {
    board["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let mut s = s.clone();
            for key in ["mean_ms", "p99_ms"] {
                s.as_object_mut().unwrap().remove(key);
            }
            s
        })
        .collect()
}

#[test]
fn replacing_a_crasher_plays_only_its_matches_and_equals_a_fresh_run_with_the_fixed_bot() {
    let base = temp_dir("replace");
    let old = base.join("class");
    tournament(&old, &file("tests/bots/crasher.py"));
    let before: Vec<Vec<u8>> = ["matches.jsonl", "tournament.json"]
        .iter()
        .map(|f| std::fs::read(old.join(f)).unwrap())
        .collect();
    let results = json_lines(&old.join("matches.jsonl"));
    let played = results
        .iter()
        .filter(|r| {
            r["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p == "crasher")
        })
        .count();
    assert_eq!(played, 9, "the crasher sits in 3 of the 4 groups");
    let new = base.join("fixed");
    // --dry-run says the count and plays nothing.
    let dry = run(&[
        "tournament",
        old.to_str().unwrap(),
        "--replace",
        &format!("crasher={}", fixed()),
        "--out",
        new.to_str().unwrap(),
        "--dry-run",
    ]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert!(stderr(&dry).contains(&format!("plays again the {played} matches")));
    assert!(!new.exists(), "a dry run writes nothing");
    let out = referee()
        .args(["tournament", old.to_str().unwrap()])
        .args(["--replace", &format!("crasher={}", fixed())])
        .args(["--out", new.to_str().unwrap(), "-q", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "plays again the {played} matches 'crasher' played, keeps the other 3, and writes all 12 to {}",
            new.display()
        )),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains(&format!("{played} matches (0 already done)")),
        "{}",
        stderr(&out)
    );
    let replaced: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The old directory is as it was.
    for (f, bytes) in ["matches.jsonl", "tournament.json"].iter().zip(&before) {
        assert_eq!(&std::fs::read(old.join(f)).unwrap(), bytes, "{f}");
    }
    // A fresh run with the fixed bot gives the same results and leaderboard.
    let fresh_dir = base.join("fresh");
    let fresh = tournament(&fresh_dir, &fixed());
    assert_eq!(
        results_without_timings(&new),
        results_without_timings(&fresh_dir)
    );
    assert_eq!(standings(&replaced), standings(&fresh));
    assert_eq!(replaced["head_to_head"], fresh["head_to_head"]);
    let meta = |dir: &Path| -> Value {
        serde_json::from_slice(&std::fs::read(dir.join("tournament.json")).unwrap()).unwrap()
    };
    assert_eq!(meta(&new), meta(&fresh_dir), "the new command is recorded");
    // The kept matches' logs and stderr came along; the replayed ones have new logs.
    for id in 0..12 {
        let log = new.join("logs").join(format!("{id}.jsonl"));
        assert!(log.is_file(), "match {id}'s log");
    }
    let kept: Vec<&Value> = results
        .iter()
        .filter(|r| {
            !r["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p == "crasher")
        })
        .collect();
    for r in kept {
        let id = r["id"].as_u64().unwrap();
        let log = |dir: &Path| log_without_timings(&dir.join("logs").join(format!("{id}.jsonl")));
        assert_eq!(log(&new), log(&old), "kept match {id}'s log");
    }
    let diarist = |dir: &Path| -> Vec<Value> {
        let out = run(&[
            "leaderboard",
            dir.to_str().unwrap(),
            "--bot",
            "diarist",
            "--limit",
            "0",
            "--format",
            "json",
        ]);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        report["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| serde_json::json!([m["id"], m["stderr"]["text"]]))
            .collect()
    };
    assert_eq!(
        diarist(&new),
        diarist(&fresh_dir),
        "diarist's stderr excerpts"
    );
    // With --resume, a replacement already done plays nothing more.
    let resumed = referee()
        .args(["tournament", old.to_str().unwrap()])
        .args(["--replace", &format!("crasher={}", fixed())])
        .args([
            "--out",
            new.to_str().unwrap(),
            "-q",
            "--format",
            "json",
            "--resume",
        ])
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains(&format!("{played} matches ({played} already done)")),
        "{}",
        stderr(&resumed)
    );
    assert_eq!(json_lines(&new.join("matches.jsonl")).len(), 12);
    // Asked again, the new directory is refused without --resume; a name the tournament does
    // not have is refused naming its bots.
    refused(
        &[
            "tournament",
            old.to_str().unwrap(),
            "--replace",
            &format!("crasher={}", fixed()),
            "--out",
            new.to_str().unwrap(),
        ],
        "already holds results: add --resume",
    );
    // A recorded setting that widens what the other bots may reach is refused, as rerun does.
    let edited = base.join("edited");
    std::fs::create_dir_all(&edited).unwrap();
    for f in ["tournament.json", "matches.jsonl"] {
        std::fs::copy(old.join(f), edited.join(f)).unwrap();
    }
    let mut run_json: Value =
        serde_json::from_slice(&std::fs::read(old.join("run.json")).unwrap()).unwrap();
    run_json["sandbox"] = "none".into();
    std::fs::write(edited.join("run.json"), run_json.to_string()).unwrap();
    refused(
        &[
            "tournament",
            edited.to_str().unwrap(),
            "--replace",
            "crasher=builtin:random",
        ],
        "records sandbox \"none\"",
    );
    assert!(!base.join("edited-replaced-crasher").exists());
    refused(
        &[
            "tournament",
            old.to_str().unwrap(),
            "--replace",
            "nobody=builtin:random",
        ],
        "has no bot 'nobody'; its bots: diarist, crasher, rust-heuristic, builtin-random",
    );
    refused(
        &[
            "tournament",
            old.to_str().unwrap(),
            "--replace",
            "crasher=builtin:random",
            "--seed",
            "3",
        ],
        "cannot be used with",
    );
    // A new directory inside the tournament's own is refused: the tournament's is only read.
    let inside = old.join("fixed");
    refused(
        &[
            "tournament",
            old.to_str().unwrap(),
            "--replace",
            "crasher=builtin:random",
            "--out",
            inside.to_str().unwrap(),
        ],
        "inside the tournament's directory",
    );
    assert!(!inside.exists());
}
