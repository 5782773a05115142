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
    vabanque_limited(b, log, LIMIT_MS)
}

/// [`vabanque`] with the decision limit `limit_ms`.
fn vabanque_limited(b: &str, log: &Path, limit_ms: &str) -> Vec<Value> {
    let a = format!(
        "a=python3 {}",
        file("sample-bots/python/vabanque_random.py")
    );
    played_log(
        referee()
            .args(["match", "--game", "vabanque", "--seed", "7"])
            .args(["--time-limit-ms", limit_ms, "--log", log.to_str().unwrap()])
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

/// Each fault of a log: its decision, its seat and its kind.
fn faults(log: &[Value]) -> Vec<(Value, Value, Value)> {
    log.iter()
        .filter(|r| r["type"] == "fault")
        .map(|r| (r["n"].clone(), r["seat"].clone(), r["fault"].clone()))
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
fn a_stand_in_makes_the_recorded_faults_again() {
    let base = temp_dir("stand-in-faults");
    let referee_bin = bin("referee");
    // Each test bot's faults: malformed lines, illegal actions, actions of the wrong shape,
    // replies to another id, a crash after five turns, a first reply too late.
    for bot in [
        "garbage.py",
        "illegal.py",
        "wrong_shape.py",
        "wrong_id.py",
        "crasher.py",
        "slow_once.py 3",
    ] {
        let name = bot.split('.').next().unwrap();
        let command = format!("b=python3 {}", file(&format!("tests/bots/{bot}")));
        let recorded = vabanque_limited(
            &command,
            &base.join(format!("{name}.jsonl")),
            SHORT_LIMIT_MS,
        );
        assert!(!faults(&recorded).is_empty(), "{bot} made no fault");
        let steps = base.join(format!("{name}-b.jsonl"));
        script(&recorded, usize::MAX, &steps);
        let stand_in = format!("b={} stand-in {}", referee_bin.display(), steps.display());
        let again = vabanque_limited(
            &stand_in,
            &base.join(format!("{name}-again.jsonl")),
            SHORT_LIMIT_MS,
        );
        assert_eq!(faults(&again), faults(&recorded), "{bot}");
        assert_eq!(decisions(&again), decisions(&recorded), "{bot}");
        let end = |log: &[Value]| log.last().unwrap()["ranks"].clone();
        assert_eq!(end(&again), end(&recorded), "{bot}");
    }
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
