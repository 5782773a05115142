//! `referee stand-in FILE`: a seat of a recorded match played again by a bot that replays its
//! logged actions ([docs/ladder-reproduce.md](../../docs/ladder-reproduce.md)), as an ordinary
//! bot of `referee match`: the same match when nothing else changed; a clear `exited` fault at
//! the turn where the match asks it for more than its script holds.

use crate::util::*;
use referee::runner::LogRecord;
use referee::stand_in::{stand_in_script, write_script};
use serde_json::Value;
use std::path::Path;

/// `referee match` of Vabanque with seed 7: the Python random bot, `b` and the built-in random
/// bot, into the log `log`.
fn vabanque(b: &str, log: &Path) -> Vec<Value> {
    let a = format!(
        "a=python3 {}",
        file("sample-bots/python/vabanque_random.py")
    );
    played_log(
        referee()
            .args(["match", "--game", "vabanque", "--seed", "7"])
            .args(["--time-limit-ms", LIMIT_MS, "--log", log.to_str().unwrap()])
            .args(["--bot", &a, "--bot", b, "--bot", "c=builtin:random"]),
        log,
    )
}

/// Each decision of a log: its seat, its action, and whether the referee played it.
fn decisions(log: &[Value]) -> Vec<(Value, Value, Value)> {
    log.iter()
        .filter(|r| r["type"] == "action")
        .map(|r| {
            (
                r["seat"].clone(),
                r["action"].clone(),
                r["substituted"].clone(),
            )
        })
        .collect()
}

/// Writes the stand-in script of seat 1 of `log`, its first `keep` steps, to `path`.
fn script(log: &[Value], keep: usize, path: &Path) {
    let records: Vec<LogRecord> = log
        .iter()
        .map(|r| serde_json::from_value(r.clone()).unwrap())
        .collect();
    let mut steps = stand_in_script(&records, 1);
    steps.truncate(keep);
    write_script(&steps, std::fs::File::create(path).unwrap()).unwrap();
}

#[test]
fn a_stand_in_plays_its_seat_as_recorded_and_says_where_the_match_parted_from_it() {
    let base = temp_dir("stand-in");
    let heuristic = format!(
        "b=python3 {}",
        file("sample-bots/python/vabanque_heuristic.py")
    );
    let recorded = vabanque(&heuristic, &base.join("recorded.jsonl"));
    let referee_bin = bin("referee");
    let stand_in =
        |script: &Path| format!("b={} stand-in {}", referee_bin.display(), script.display());

    // The whole script: the same match, decision by decision.
    let whole = base.join("b.jsonl");
    script(&recorded, usize::MAX, &whole);
    let again = vabanque(&stand_in(&whole), &base.join("again.jsonl"));
    assert_eq!(decisions(&again), decisions(&recorded));
    assert_eq!(
        again.last().unwrap()["scores"],
        recorded.last().unwrap()["scores"]
    );
    assert!(again.iter().all(|r| r["type"] != "fault"), "{again:?}");

    // Two steps only: at its third turn the stand-in says the match has parted from the
    // recorded one, and exits; the referee records it as the seat's fault there.
    let short = base.join("b-short.jsonl");
    script(&recorded, 2, &short);
    let parted = vabanque(&stand_in(&short), &base.join("parted.jsonl"));
    let fault = parted
        .iter()
        .find(|r| r["type"] == "fault")
        .expect("the stand-in's fault");
    assert_eq!(
        (&fault["seat"], &fault["fault"]),
        (&Value::from(1), &Value::from("exited"))
    );
    let message = fault["message"].as_str().unwrap();
    assert!(
        message.contains("asks this seat for its 3rd turn")
            && message.contains("where the recorded match asked it for 2 turns only"),
        "{message}"
    );
    let third = recorded
        .iter()
        .filter(|r| r["type"] == "action" && r["seat"] == 1)
        .nth(2)
        .unwrap();
    assert_eq!(fault["n"], third["n"]);
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_script_that_cannot_be_read_is_refused() {
    let base = temp_dir("stand-in-refused");
    refused(
        &["stand-in", base.join("missing.jsonl").to_str().unwrap()],
        "cannot read",
    );
    let bad = base.join("bad.jsonl");
    std::fs::write(&bad, "{\"phase\":\"chip\"}\n").unwrap();
    refused(
        &["stand-in", bad.to_str().unwrap()],
        "line 1: not a step of a stand-in's script",
    );
    let _ = std::fs::remove_dir_all(&base);
}
