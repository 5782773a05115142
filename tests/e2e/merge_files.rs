//! `referee merge DIR... --out OUT` keeps what the shards left beside `matches.jsonl`: each
//! bot process's stderr file (renamed where two shards have one of the same name, the ranges
//! rewritten) and each match's log. A tournament sharded in two and merged reads as a single
//! run: the same stderr excerpts for each faulty match (`leaderboard --bot`, the report's
//! data), the same logs, the same replay pages. A shard's link or FIFO is not copied: the
//! match is merged without it, and merge says so.

use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// A tournament of four bots, three a match (12 matches), logs kept: `crasher` raises at its
/// sixth request (a traceback on stderr), `diarist` writes a line to stderr per request and
/// faults once a match; both write the same stderr in a match whoever played before.
fn tournament(out: &Path, extra: &[&str]) -> Value {
    let played = referee()
        .args(["tournament", "--game", "vabanque", "--players", "3"])
        .args(["--seed", "4", "-j", "1", "--logs", "-q", "--format", "json"])
        .args(["--time-limit-ms", LIMIT_MS, "--out", out.to_str().unwrap()])
        .args([
            "--bot",
            &format!("diarist={}", file("tests/bots/stderr_diarist.py")),
            "--bot",
            &format!("crasher={}", file("tests/bots/crasher.py")),
            "--bot",
            &format!("rust-heuristic={}", bin("vabanque-heuristic").display()),
            "--bot",
            "builtin-random=builtin:random",
        ])
        .args(extra)
        .output()
        .unwrap();
    board(&played)
}

/// Each faulty match of `bot` and the text of its stderr excerpt, as `leaderboard --bot` gives
/// them (the report's data).
fn excerpts(dir: &Path, bot: &str) -> Vec<(u64, String)> {
    let out = run(&[
        "leaderboard",
        dir.to_str().unwrap(),
        "--bot",
        bot,
        "--limit",
        "0",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["faults"].as_u64().unwrap() > 0)
        .map(|m| {
            let text = m["stderr"]["text"]
                .as_str()
                .unwrap_or_else(|| panic!("{m}"));
            (m["id"].as_u64().unwrap(), text.to_string())
        })
        .collect()
}

/// The replay pages a report of `dir` writes.
fn replay_pages(dir: &Path, html: &Path) -> Vec<String> {
    let out = run(&[
        "report",
        dir.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut pages: Vec<String> = std::fs::read_dir(html.join("replays"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    pages
}

#[test]
fn merged_shards_keep_their_stderr_and_logs_and_report_as_a_single_run() {
    let base = temp_dir("merge-files");
    let single = base.join("single");
    tournament(&single, &[]);
    for k in 1..=2 {
        tournament(&base.join(format!("s{k}")), &["--shard", &format!("{k}/2")]);
    }
    let merged = base.join("merged");
    let out = run(&[
        "merge",
        base.join("s1").to_str().unwrap(),
        base.join("s2").to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("not copied"), "{}", stderr(&out));
    assert_eq!(
        results_without_timings(&merged),
        results_without_timings(&single)
    );
    // Both shards' worker 0 wrote diarist.w0.1.stderr: one is renamed, its ranges rewritten.
    let names: Vec<String> = json_lines(&merged.join("matches.jsonl"))
        .iter()
        .flat_map(|r| r["stderr"].as_array().cloned().unwrap_or_default())
        .filter_map(|r| r["file"].as_str().map(String::from))
        .collect();
    assert!(
        names.iter().any(|n| n == "diarist.w0.1.stderr"),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n == "s2.diarist.w0.1.stderr"),
        "{names:?}"
    );
    for bot in ["diarist", "crasher"] {
        let found = excerpts(&merged, bot);
        assert!(
            found.len() >= 6,
            "{bot} faults in each of its matches: {found:?}"
        );
        assert_eq!(found, excerpts(&single, bot), "{bot}'s stderr excerpts");
    }
    for id in 0..12 {
        let log = |dir: &Path| log_without_timings(&dir.join("logs").join(format!("{id}.jsonl")));
        assert_eq!(log(&merged), log(&single), "the log of match {id}");
    }
    assert_eq!(
        replay_pages(&merged, &base.join("report-merged")),
        replay_pages(&single, &base.join("report-single"))
    );
    // Merged again: nothing is new, nothing is copied again.
    let again = run(&[
        "merge",
        base.join("s1").to_str().unwrap(),
        base.join("s2").to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(json_lines(&merged.join("matches.jsonl")).len(), 12);
}

#[test]
fn a_shards_link_or_fifo_is_not_copied_and_its_match_is_merged_without_it() {
    let base = temp_dir("merge-hostile");
    let shard = base.join("shard");
    tournament(&shard, &["--matches", "3"]);
    let secret = base.join("secret");
    std::fs::write(&secret, "never-copied-secret\n").unwrap();
    // The first result's first stderr file becomes a link to the secret; match 1's log a FIFO.
    let first = &json_lines(&shard.join("matches.jsonl"))[0];
    let linked = first["stderr"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|r| r["file"].as_str())
        .unwrap()
        .to_string();
    let at = shard.join("stderr").join(&linked);
    std::fs::remove_file(&at).unwrap();
    std::os::unix::fs::symlink(&secret, &at).unwrap();
    let fifo = shard.join("logs").join("1.jsonl");
    std::fs::remove_file(&fifo).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Match 2's log is match 0's, put in its place (the same deal in another seating).
    std::fs::copy(
        shard.join("logs").join("0.jsonl"),
        shard.join("logs").join("2.jsonl"),
    )
    .unwrap();
    // The last result's ranges are edited to end far past their files' ends.
    let lines = json_lines(&shard.join("matches.jsonl"));
    let mut last = lines.last().unwrap().clone();
    let past = last["id"].clone();
    for range in last["stderr"].as_array_mut().unwrap() {
        if range.is_object() {
            range["to"] = 1_000_000_000u64.into();
        }
    }
    let mut edited: Vec<String> = lines.iter().map(Value::to_string).collect();
    *edited.last_mut().unwrap() = last.to_string();
    std::fs::write(shard.join("matches.jsonl"), edited.join("\n") + "\n").unwrap();
    let merged = base.join("merged");
    let out = run(&[
        "merge",
        shard.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "files or stderr ranges of the shards were left out, and their matches were merged without them"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(json_lines(&merged.join("matches.jsonl")).len(), 3);
    assert!(!merged.join("logs").join("1.jsonl").exists());
    assert!(!merged.join("logs").join("2.jsonl").exists());
    assert!(merged.join("logs").join("0.jsonl").is_file());
    for entry in std::fs::read_dir(merged.join("stderr")).unwrap() {
        let path = entry.unwrap().path();
        assert!(!path.is_symlink(), "{}", path.display());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("never-copied-secret"), "{}", path.display());
    }
    // No range names the file that was not copied.
    let names: Vec<Value> = json_lines(&merged.join("matches.jsonl"))
        .iter()
        .flat_map(|r| r["stderr"].as_array().cloned().unwrap_or_default())
        .collect();
    assert!(
        names.iter().all(|r| r["file"] != linked.as_str()),
        "{names:?}"
    );
    // Nor a range past its file's end: that match is merged without it.
    let kept = json_lines(&merged.join("matches.jsonl"))
        .into_iter()
        .find(|r| r["id"] == past)
        .unwrap();
    assert!(
        kept["stderr"]
            .as_array()
            .is_none_or(|ranges| ranges.iter().all(Value::is_null)),
        "{kept}"
    );
}
