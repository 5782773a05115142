//! Time controls and fault policies, end to end: the first decision's allowance, the chess-clock
//! bank with its increment, soft overruns, per-bot settings from a config file, and what a
//! timeout or a crash costs.

use crate::util::*;
use serde_json::Value;

/// One match: `bot` (a script under tests/bots with its arguments) in seat 0 against two
/// built-in random bots, with `flags`; returns the log after checking that it replays.
fn play(name: &str, bot: &str, flags: &[&str]) -> Vec<Value> {
    let dir = temp_dir(name);
    let log = dir.join("log.jsonl");
    let mut cmd = referee();
    cmd.args(["match", "--game", "vabanque", "--seed", "3"])
        .args(["--log", log.to_str().unwrap()])
        .args([
            "--bot",
            &format!("bot={}", file(&format!("tests/bots/{bot}"))),
        ])
        .args(["--bot", "r1=builtin:random", "--bot", "r2=builtin:random"])
        .args(flags);
    played_log(&mut cmd, &log)
}

fn faults(log: &[Value]) -> Vec<&Value> {
    log.iter().filter(|r| r["type"] == "fault").collect()
}

fn result(log: &[Value]) -> &Value {
    log.iter().find(|r| r["type"] == "result").unwrap()
}

/// The bot's own decisions (seat 0), in order: (decision number, substituted).
fn own_decisions(log: &[Value]) -> Vec<(u64, bool)> {
    log.iter()
        .filter(|r| r["type"] == "action" && r["seat"] == 0)
        .map(|r| (r["n"].as_u64().unwrap(), r["substituted"] == true))
        .collect()
}

#[test]
fn the_first_decision_of_a_match_may_take_longer() {
    // A 3 s pause at the first decision, which no machine shortens, against a 2 s limit: late.
    // Every other answer is quick, and 2 s leaves them a wide margin.
    let slow = play(
        "first-slow",
        "slow_once.py 3",
        &["--time-limit-ms", SHORT_LIMIT_MS],
    );
    let first = own_decisions(&slow)[0].0;
    let f = faults(&slow);
    assert!(!f.is_empty(), "the first decision timed out");
    assert_eq!(f[0]["fault"], "timeout", "{f:?}");
    assert_eq!(f[0]["n"], first, "at the first decision: {f:?}");
    // With 30 s for the first decision, the same pause is in time.
    let log = play(
        "first-allowed",
        "slow_once.py 3",
        &[
            "--time-limit-ms",
            SHORT_LIMIT_MS,
            "--first-decision-ms",
            "30000",
        ],
    );
    assert!(faults(&log).is_empty(), "{:?}", faults(&log));
    assert_eq!(log[0]["players"][0]["limits"]["first_decision_ms"], 30000);
}

#[test]
fn a_bank_runs_out_and_an_increment_keeps_it_topped_up() {
    // 26 decisions of at least 100 ms each need 2.6 s: a 2 s bank runs dry, after at most 20 of
    // them however fast the machine (each takes its 100 ms pause at least), and every decision
    // after that is substituted (the bank stays empty: each request times out at once, until the
    // bot is stopped).
    let log = play(
        "bank",
        "slowpoke.py 0.1",
        &["--time-limit-ms", LIMIT_MS, "--bank-ms", "2000"],
    );
    let f = faults(&log);
    assert!(!f.is_empty());
    assert_eq!(f[0]["fault"], "timeout");
    assert!(
        f[0]["message"]
            .as_str()
            .unwrap()
            .contains("time left in the bank"),
        "{}",
        f[0]
    );
    let first = f[0]["n"].as_u64().unwrap();
    let own = own_decisions(&log);
    let own_before = own.iter().filter(|&&(n, _)| n < first).count();
    assert!(
        own_before <= 20,
        "{own_before} decisions before the flag fell"
    );
    assert!(
        own.iter().filter(|&&(n, _)| n >= first).all(|&(_, s)| s),
        "every decision from the flag's fall on is substituted: {own:?}"
    );
    // With a second back per decision, 100 ms decisions never empty the bank: the increment is
    // ten times the pause, and the bank's first 2 s twenty times.
    let log = play(
        "bank-increment",
        "slowpoke.py 0.1",
        &[
            "--time-limit-ms",
            LIMIT_MS,
            "--bank-ms",
            "2000",
            "--increment-ms",
            "1000",
        ],
    );
    assert!(faults(&log).is_empty(), "{:?}", faults(&log));
    assert_eq!(log[0]["players"][0]["limits"]["bank_ms"], 2000);
}

#[test]
fn soft_overruns_accept_late_replies_until_they_are_used_up() {
    // A 3 s pause against a 2 s limit is late on any machine; 30 s of overrun covers it on any.
    let log = play(
        "overrun",
        "slow_once.py 3",
        &[
            "--time-limit-ms",
            SHORT_LIMIT_MS,
            "--overruns",
            "1",
            "--overrun-ms",
            "30000",
        ],
    );
    assert!(faults(&log).is_empty(), "{:?}", faults(&log));
    let late: Vec<&Value> = log.iter().filter(|r| r["overrun"] == true).collect();
    assert_eq!(late.len(), 1, "one late reply was covered");
    assert!(late[0]["ms"].as_f64().unwrap() > 2000.0);
}

#[test]
fn a_timeout_can_forfeit_the_match_and_a_crash_can_be_substituted() {
    // hangs.py answers four requests, then never again.
    let log = play(
        "forfeit-timeout",
        "hangs.py",
        &["--time-limit-ms", SHORT_LIMIT_MS, "--on-timeout", "forfeit"],
    );
    let f = faults(&log);
    assert_eq!(f.len(), 1, "the first timeout ends its match: {f:?}");
    assert!(
        f[0]["message"]
            .as_str()
            .unwrap()
            .contains("forfeits the match")
    );
    assert_eq!(result(&log)["ranks"][0], 3, "ranked last");

    // By default a crash forfeits; with `substitute` the seat keeps its place by its score.
    let log = play(
        "crash-forfeit",
        "crasher.py",
        &["--time-limit-ms", LIMIT_MS],
    );
    assert_eq!(result(&log)["ranks"][0], 3);
    let log = play(
        "crash-substitute",
        "crasher.py",
        &["--time-limit-ms", LIMIT_MS, "--on-crash", "substitute"],
    );
    let f = faults(&log);
    assert_eq!(f[0]["fault"], "exited");
    assert!(!f[0]["message"].as_str().unwrap().contains("forfeits"));
}

#[test]
fn each_bot_of_a_config_file_can_have_its_own_time_control() {
    let dir = temp_dir("per-bot");
    let slowpoke = file("tests/bots/slowpoke.py");
    // A 150 ms pause is late for 100 ms on any machine, and in time for 10 s on any.
    let config = format!(
        "game = \"vabanque\"\nseed = 5\ntime_limit_ms = 100\n\
         [[bot]]\nname = \"patient\"\ncommand = [{slowpoke:?}, \"0.15\"]\ntime_limit_ms = {LIMIT_MS}\n\
         [[bot]]\nname = \"hurried\"\ncommand = [{slowpoke:?}, \"0.15\"]\n\
         [[bot]]\nname = \"r\"\ncommand = \"builtin:random\"\n"
    );
    let path = dir.join("match.toml");
    std::fs::write(&path, config).unwrap();
    let log_path = dir.join("log.jsonl");
    let out = run(&[
        "match",
        path.to_str().unwrap(),
        "--log",
        log_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = json_lines(&log_path);
    assert_eq!(log[0]["players"][0]["limits"]["decision_ms"], 10_000);
    assert_eq!(log[0]["players"][1]["limits"]["decision_ms"], 100);
    let f = faults(&log);
    assert!(f.iter().all(|r| r["seat"] == 1), "{f:?}");
    assert!(f.iter().any(|r| r["fault"] == "timeout"));
    // An unknown key in a bot entry is refused with its name.
    std::fs::write(
        &path,
        "game = \"vabanque\"\n[[bot]]\ncommand = \"builtin:random\"\ntime_limit = 5\n",
    )
    .unwrap();
    let out = run(&["match", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("time_limit"), "{}", stderr(&out));
}

#[test]
fn a_bot_whose_hello_is_garbage_forfeits_like_one_that_never_starts() {
    let dir = temp_dir("bad-hello");
    let log = dir.join("log.jsonl");
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--seed",
        "12",
        "--log",
        log.to_str().unwrap(),
        "--bot",
        "bad=sh -c 'echo Loading...; exec sleep 5'",
        "--bot",
        "r1=builtin:random",
        "--bot",
        "r2=builtin:random",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = json_lines(&log);
    let f = faults(&log);
    assert_eq!(f[0]["fault"], "malformed", "{f:?}");
    assert!(
        f[0]["message"].as_str().unwrap().contains("forfeits"),
        "{f:?}"
    );
    assert_eq!(result(&log)["ranks"][0], 3);
    let replay = run(&["replay", dir.join("log.jsonl").to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));
}
