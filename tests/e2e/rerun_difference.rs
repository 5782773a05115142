//! `referee rerun DIR ID` of a match whose log was kept (`--logs`) names the first decision
//! where the match played again parts from the record: the seat and its bot, the bot's own
//! turn, the phase and the log's decision number, with what was recorded and what came now.
//! The bot that changes its play reads a file (`tests/bots/second_thoughts.py`), which appears
//! between the tournament and the rerun.

use crate::util::*;
use serde_json::Value;

#[test]
fn a_rerun_that_differs_names_the_seat_turn_phase_and_decision_of_the_first_difference() {
    let base = temp_dir("rerun-difference");
    let out = base.join("out");
    let flag = base.join("flag");
    let thoughts = format!(
        "thoughts=python3 {} {}",
        file("tests/bots/second_thoughts.py"),
        flag.display()
    );
    let played = referee()
        .args(["tournament", "--game", "vabanque", "--players", "3"])
        .args(["--seed", "5", "-j", "1", "--logs", "-q", "--format", "json"])
        .args(["--matches", "3", "--time-limit-ms", LIMIT_MS])
        .args(["--out", out.to_str().unwrap(), "--bot", &thoughts])
        .args([
            "--bot",
            "random=builtin:random",
            "--bot",
            "heuristic=builtin:heuristic",
        ])
        .output()
        .unwrap();
    board(&played);
    let dir = out.to_str().unwrap();
    // Played again as it was: the same match, decision by decision.
    let same = run(&["rerun", dir, "1", "--format", "json"]);
    assert!(same.status.success(), "{}", stderr(&same));
    let same: Value = serde_json::from_slice(&same.stdout).unwrap();
    assert_eq!(same["first_difference"]["log"], "same", "{same}");
    // The file appears: from its third turn on, the bot plays otherwise.
    std::fs::write(&flag, "").unwrap();
    let again = base.join("again.jsonl");
    let differs = run(&[
        "rerun",
        dir,
        "1",
        "--format",
        "json",
        "--log",
        again.to_str().unwrap(),
    ]);
    assert_eq!(differs.status.code(), Some(5), "{}", stderr(&differs));
    let json: Value = serde_json::from_slice(&differs.stdout).unwrap();
    assert_eq!(json["same"], false);
    let first = &json["first_difference"];
    assert_eq!(first["log"], "differs", "{first}");
    let seat = first["seat"].as_u64().unwrap();
    assert_eq!(json["recorded"]["players"][seat as usize], "thoughts");
    assert_eq!(first["bot"], "thoughts");
    let turn = first["turn"].as_u64().unwrap();
    assert!(turn >= 3, "its third turn at the earliest: {first}");
    // The recorded log's own action at that decision, the bot's turn-th.
    let recorded = json_lines(&out.join("logs").join("1.jsonl"));
    let own: Vec<&Value> = recorded
        .iter()
        .filter(|r| r["type"] == "action" && r["seat"] == seat)
        .collect();
    let at = own[turn as usize - 1];
    assert_eq!(first["decision"], at["n"], "{first}");
    assert_eq!(first["phase"], at["phase"]);
    assert_eq!(first["recorded"]["kind"], "action");
    assert_eq!(first["recorded"]["action"], at["action"]);
    assert_eq!(first["now"]["kind"], "action");
    assert_ne!(first["now"]["action"], at["action"]);
    // The rerun's log was kept, and holds what came now.
    let now = json_lines(&again);
    assert!(
        now.iter().any(|r| r["type"] == "action"
            && r["n"] == first["decision"]
            && r["action"] == first["now"]["action"]),
        "the rerun's log holds the new action"
    );
    // The table says it in words.
    let table = run(&["rerun", dir, "1"]);
    assert_eq!(table.status.code(), Some(5));
    let text = stdout(&table);
    let n = first["decision"].as_u64().unwrap();
    let phase = first["phase"].as_str().unwrap();
    assert!(
        text.contains(&format!(
            "(timings and stderr aside): match 1, seat {seat} (thoughts), its "
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(" turn (phase {phase}; log decision {n})\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("  recorded: played {}", at["action"])),
        "{text}"
    );
    assert!(
        text.contains(&format!("  now:      played {}", first["now"]["action"])),
        "{text}"
    );
}

#[test]
fn a_log_whose_end_is_not_the_recorded_result_is_not_compared() {
    let base = temp_dir("rerun-edited-log");
    let out = base.join("out");
    let played = referee()
        .args(["tournament", "--game", "vabanque", "--players", "3"])
        .args(["--seed", "5", "-j", "1", "--logs", "-q", "--format", "json"])
        .args(["--matches", "3", "--out", out.to_str().unwrap()])
        .args(["--bot", "a=builtin:random", "--bot", "b=builtin:random"])
        .args(["--bot", "c=builtin:heuristic"])
        .output()
        .unwrap();
    board(&played);
    // The log's end edited (or another log of the same seed put in its place): its scores are
    // not matches.jsonl's, so a difference found in it would be blamed on the bots.
    let log = out.join("logs").join("0.jsonl");
    let edited: Vec<String> = json_lines(&log)
        .into_iter()
        .map(|mut r| {
            if r["type"] == "result" {
                r["scores"] = serde_json::json!([1, 2, 3]);
            }
            r.to_string()
        })
        .collect();
    std::fs::write(&log, edited.join("\n") + "\n").unwrap();
    // Built-in bots only: no sandbox to miss, and no flag needed.
    let rerun = run(&["rerun", out.to_str().unwrap(), "0"]);
    assert!(rerun.status.success(), "{}", stderr(&rerun));
    let text = stdout(&rerun);
    assert!(
        text.contains("note: the recorded log cannot be compared: ")
            && text.contains("its end is not the recorded result"),
        "{text}"
    );
    assert!(!text.contains("not deterministic"), "{text}");
}
