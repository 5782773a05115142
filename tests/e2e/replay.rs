//! `referee replay` confirms honest logs and names the first line of a tampered one.

use crate::util::*;

fn honest_log(name: &str) -> (std::path::PathBuf, Vec<String>) {
    let dir = temp_dir(name);
    let log = dir.join("log.jsonl");
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--seed",
        "99",
        "--log",
        log.to_str().unwrap(),
        "--bot",
        "a=builtin:random",
        "--bot",
        "b=builtin:heuristic",
        "--bot",
        "c=builtin:random",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    (dir, lines)
}

fn replay_of(dir: &std::path::Path, lines: &[String]) -> (Option<i32>, String) {
    let path = dir.join("tampered.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = run(&["replay", path.to_str().unwrap()]);
    assert!(!stderr(&out).contains("panicked"));
    (out.status.code(), stderr(&out))
}

#[test]
fn a_truncated_log_is_refused() {
    let (dir, lines) = honest_log("truncated");
    let (code, err) = replay_of(&dir, &lines[..40]);
    assert_eq!(code, Some(3));
    assert!(
        err.contains("line 41: the log ends before the result (truncated)"),
        "{err}"
    );
    // A half-written last line.
    let mut cut = lines[..40].to_vec();
    cut.push(lines[40][..lines[40].len() / 2].to_string());
    let (code, err) = replay_of(&dir, &cut);
    assert_eq!(code, Some(3));
    assert!(err.contains("line 41: not a log record"), "{err}");
}

#[test]
fn an_edited_action_or_result_is_named_by_its_line() {
    let (dir, lines) = honest_log("edited");
    // Decision 4, a chip placement: move it to a table that does not exist.
    let at = action_index(&lines, 4);
    let line = at + 1;
    let mut edited = lines.clone();
    let mut record: serde_json::Value = serde_json::from_str(&edited[at]).unwrap();
    record["action"] = serde_json::json!({"table": 99});
    edited[at] = record.to_string();
    let (code, err) = replay_of(&dir, &edited);
    assert_eq!(code, Some(3));
    assert!(
        err.contains(&format!(
            "line {line}: illegal action: table 99 does not exist"
        )),
        "{err}"
    );
    // A legal but different chip changes what the game tells next: its event no longer holds.
    let mut edited = lines.clone();
    let mut record: serde_json::Value = serde_json::from_str(&edited[at]).unwrap();
    let table = record["action"]["table"].as_u64().unwrap();
    record["action"] = serde_json::json!({"table": (table + 1) % 7});
    edited[at] = record.to_string();
    let (code, err) = replay_of(&dir, &edited);
    assert_eq!(code, Some(3));
    assert!(
        err.contains(&format!("line {}: the event ", line + 1)),
        "{err}"
    );
    let last = lines.len();
    // An action attributed to the wrong seat.
    let mut edited = lines.clone();
    let mut record: serde_json::Value = serde_json::from_str(&edited[at]).unwrap();
    record["seat"] = serde_json::json!((record["seat"].as_u64().unwrap() + 1) % 3);
    edited[at] = record.to_string();
    let (code, err) = replay_of(&dir, &edited);
    assert_eq!(code, Some(3));
    assert!(err.contains(&format!("line {line}: seat")), "{err}");
    // Edited scores.
    let mut edited = lines.clone();
    let mut record: serde_json::Value = serde_json::from_str(&edited[last - 1]).unwrap();
    record["scores"][0] = serde_json::json!(1_000_000_000);
    edited[last - 1] = record.to_string();
    let (code, err) = replay_of(&dir, &edited);
    assert_eq!(code, Some(3));
    assert!(
        err.contains(&format!("line {last}: recorded scores")),
        "{err}"
    );
}

/// The index of the line of decision `n`'s action.
fn action_index(lines: &[String], n: u64) -> usize {
    lines
        .iter()
        .position(|l| {
            let record: serde_json::Value = serde_json::from_str(l).unwrap();
            record["type"] == "action" && record["n"] == n
        })
        .unwrap()
}

#[test]
fn a_missing_log_is_a_usage_error() {
    let out = run(&["replay", "/nonexistent/log.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read /nonexistent/log.jsonl"));
}

/// A log of a match where `garbage` (seat 1) faults and is stopped.
fn faulty_log(name: &str) -> (std::path::PathBuf, Vec<String>) {
    let dir = temp_dir(name);
    let log = dir.join("log.jsonl");
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--seed",
        "8",
        "--time-limit-ms",
        "200",
        "--log",
        log.to_str().unwrap(),
        "--bot",
        "a=builtin:random",
        "--bot",
        &format!("garbage={}", file("tests/bots/garbage.py")),
        "--bot",
        "c=builtin:random",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert!(run(&["replay", log.to_str().unwrap()]).status.success());
    (dir, lines)
}

#[test]
fn substitutions_must_have_a_cause_and_be_the_default_action() {
    let (dir, lines) = faulty_log("substitutions");
    // Delete the faults: the referee's substitutions lose their cause. (A log rewritten so that
    // the bot "played" those moves itself is legal play and cannot be told from a real one by
    // re-simulation: replay checks consistency, not authenticity.)
    let forged: Vec<String> = lines
        .iter()
        .filter(|l| !l.contains(r#""type":"fault""#))
        .cloned()
        .collect();
    let (code, err) = replay_of(&dir, &forged);
    assert_eq!(code, Some(3));
    assert!(err.contains("with no fault to cause it"), "{err}");
    // Keep the faults but claim a substitution for a bot that had none.
    let first_good = lines
        .iter()
        .position(|l| l.contains(r#""seat":0"#) && l.contains(r#""type":"action""#))
        .unwrap();
    let mut forged = lines.clone();
    forged[first_good] =
        forged[first_good].replace(r#""substituted":false"#, r#""substituted":true"#);
    let (code, err) = replay_of(&dir, &forged);
    assert_eq!(code, Some(3));
    assert!(
        err.contains(&format!(
            "line {}: an action substituted for seat 0 with no fault",
            first_good + 1
        )),
        "{err}"
    );
}

#[test]
fn versions_timings_and_bytes_are_checked() {
    let (dir, lines) = faulty_log("versions");
    let mut forged = lines.clone();
    forged[0] = forged[0].replace(r#""log_version":3"#, r#""log_version":99"#);
    let (code, err) = replay_of(&dir, &forged);
    assert_eq!(code, Some(3));
    assert!(err.contains("line 1: log version 99"), "{err}");
    let mut forged = lines.clone();
    let i = forged
        .iter()
        .position(|l| l.contains(r#""type":"action""#))
        .unwrap();
    let record: serde_json::Value = serde_json::from_str(&forged[i]).unwrap();
    let mut record = record;
    record["ms"] = serde_json::json!(-5000.0);
    forged[i] = record.to_string();
    let (code, err) = replay_of(&dir, &forged);
    assert_eq!(code, Some(3));
    assert!(
        err.contains(&format!("line {}: a decision time of -5000 ms", i + 1)),
        "{err}"
    );
    let path = dir.join("bytes.jsonl");
    let mut bytes = lines[..3].join("\n").into_bytes();
    bytes.extend_from_slice(b"\n\xff\xfe\n");
    std::fs::write(&path, bytes).unwrap();
    let out = run(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("line 4: not UTF-8 text"),
        "{}",
        stderr(&out)
    );
}
