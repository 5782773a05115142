//! `referee rerun DIR ID --log FILE`: a match of a real tournament played again, from the
//! results directory alone and from another directory, gives the recorded scores, ranks and
//! faults (its bots are deterministic), and a log that replays; a record that does not match
//! is told (exit 5); an unknown match or directory is refused (exit 2). What a recorded setting
//! may and may not do is `rerun_trust.rs`'s.

use crate::faulty_tournament::{self, results, seat_of};
use crate::util::*;
use serde_json::Value;

/// The fault list of a record without messages (which quote request ids, and those differ
/// in a process that played other matches first).
fn fault_keys(record: &Value) -> Vec<Value> {
    record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| serde_json::json!([f["seat"], f["decision"], f["fault"]]))
        .collect()
}

#[test]
fn a_match_played_again_gives_the_recorded_result_and_a_log_that_replays() {
    let dir = faulty_tournament::dir();
    // A match with both misbehaving bots and the bot given by a relative command.
    let recorded = results()
        .into_iter()
        .find(|r| {
            ["crasher", "diarist", "py-random"]
                .iter()
                .all(|b| seat_of(r, b).is_some())
        })
        .unwrap();
    let id = recorded["id"].as_u64().unwrap().to_string();
    // Run from elsewhere: the bots run from where the tournament ran.
    let elsewhere = temp_dir("rerun-elsewhere");
    let log = elsewhere.join("again.jsonl");
    let out = referee()
        .current_dir(&elsewhere)
        .args(["rerun", dir.to_str().unwrap(), &id, "--log", "again.jsonl"])
        .args(["--format", "json", "--trust-recorded", "cwd"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again["same"], Value::Bool(true), "{again}");
    assert_eq!(again["rerun"]["players"], recorded["players"]);
    assert_eq!(again["rerun"]["scores"], recorded["scores"]);
    assert_eq!(again["rerun"]["ranks"], recorded["ranks"]);
    assert_eq!(fault_keys(&again["rerun"]), fault_keys(&recorded));
    assert_eq!(
        fault_keys(&recorded).len(),
        2,
        "the crash and the wrong shape"
    );
    assert_eq!(again["rerun"]["seed"], recorded["seed"]);
    assert_eq!(again["rerun"]["match_id"], Value::String(id.clone()));
    assert!(
        stderr(&out).contains("bots run from"),
        "the move to the tournament's directory is told: {}",
        stderr(&out)
    );
    let replayed = run(&["replay", log.to_str().unwrap()]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    // The table says it in words.
    let table = run(&["rerun", dir.to_str().unwrap(), &id]);
    assert!(table.status.success(), "{}", stderr(&table));
    let text = stdout(&table);
    assert!(text.contains(&format!("match {id} of ")), "{text}");
    assert!(
        text.contains("the recorded result: the same money, ranks and faults"),
        "{text}"
    );
}

#[test]
fn a_record_the_match_does_not_give_again_is_told_with_exit_5() {
    // A copy of the directory whose record of match 0 was edited: its scores no longer hold.
    let copy = temp_dir("rerun-edited").join("out");
    std::fs::create_dir_all(&copy).unwrap();
    let dir = faulty_tournament::dir();
    for name in ["tournament.json", "run.json"] {
        std::fs::copy(dir.join(name), copy.join(name)).unwrap();
    }
    let mut lines = String::new();
    for mut result in results() {
        if result["id"] == 0 {
            let scores = result["scores"].as_array_mut().unwrap();
            scores[0] = Value::from(scores[0].as_i64().unwrap() + 1);
        }
        lines += &format!("{result}\n");
    }
    std::fs::write(copy.join("matches.jsonl"), lines).unwrap();
    let out = run(&["rerun", copy.to_str().unwrap(), "0"]);
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("not the recorded result:"), "{text}");
    assert!(text.contains("money by seat: recorded "), "{text}");
    assert!(
        !text.contains("ranks by seat:"),
        "only what differs: {text}"
    );
}

#[test]
fn an_unknown_match_or_directory_is_refused_with_exit_2() {
    let dir = faulty_tournament::dir();
    refused(
        &["rerun", dir.to_str().unwrap(), "20"],
        "has no match 20: its 20 matches are numbered 0 to 19",
    );
    // A match of the schedule without a result yet.
    let partial = temp_dir("rerun-partial").join("out");
    std::fs::create_dir_all(&partial).unwrap();
    std::fs::copy(dir.join("tournament.json"), partial.join("tournament.json")).unwrap();
    let kept: String = results()
        .iter()
        .filter(|r| r["id"] != 5)
        .map(|r| format!("{r}\n"))
        .collect();
    std::fs::write(partial.join("matches.jsonl"), kept).unwrap();
    refused(
        &["rerun", partial.to_str().unwrap(), "5"],
        "has not been played: it is scheduled, but matches.jsonl has no line for it",
    );
    let missing = temp_dir("rerun-missing").join("nothing");
    refused(
        &["rerun", missing.to_str().unwrap(), "0"],
        "holds no tournament (tournament.json is missing)",
    );
}

#[test]
fn a_bot_runs_again_in_its_working_directory_with_its_environment() {
    let base = temp_dir("rerun-workdir");
    let work = base.join("work");
    std::fs::create_dir_all(&work).unwrap();
    writable_by_bots(&work);
    let command = ["python3".to_string(), file("tests/bots/env_reader.py")];
    let out =
        crate::rerun_trust::tournament(&base, "env-reader", &command, &work, "ANSWER = \"42\"");
    let stderr_dir = base.join("stderr-again");
    let again = run(&[
        "rerun",
        out.to_str().unwrap(),
        "1",
        "--stderr-dir",
        stderr_dir.to_str().unwrap(),
        "--trust-recorded",
        "env",
    ]);
    assert!(again.status.success(), "{}", stderr(&again));
    let line = std::fs::read_to_string(stderr_dir.join("env-reader.stderr")).unwrap();
    let env: Value = serde_json::from_str(line.trim().strip_prefix("env: ").unwrap()).unwrap();
    assert_eq!(env["ANSWER"], "42", "{line}");
    assert_eq!(
        env["HOME"].as_str().map(std::path::Path::new),
        Some(work.as_path()),
        "the bot's home is its working directory: {line}"
    );
}
