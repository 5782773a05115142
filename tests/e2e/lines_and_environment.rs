//! The red team's smaller findings (issue 15), each a hostile bot of `tests/bots/` beside honest
//! ones: a flood of blank lines, a reply written before its request, and a bot that reads its
//! environment. Each attack costs the bot that made it one fault per request (reading costs
//! nothing, and finds nothing of the referee's), the honest bots are unaffected, every log
//! replays and no process is left.

use crate::util::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// Plays a Vabanque match of `hostile` (a name and a script of tests/bots) in seat 0 beside an
/// honest Python bot and an honest Rust bot, with a limit no honest answer reaches and `extra`
/// flags; returns the log's records after checking that the match completed, that its log
/// replays and that no process is left.
fn hostile_match(name: &str, hostile: (&str, &str), extra: &[&str]) -> Vec<Value> {
    let dir = temp_dir(name);
    let log = dir.join("log.jsonl");
    let mut cmd = referee();
    cmd.args(["match", "--game", "vabanque", "--seed", "4"])
        .args(["--time-limit-ms", LIMIT_MS, "--log", log.to_str().unwrap()])
        .args([
            "--bot",
            &format!(
                "{}={}",
                hostile.0,
                file(&format!("tests/bots/{}", hostile.1))
            ),
        ])
        .args([
            "--bot",
            &format!(
                "py=python3 {}",
                file("sample-bots/python/vabanque_random.py")
            ),
        ])
        .args(["--bot", &format!("rs={}", bin("vabanque-random").display())])
        .args(extra);
    played_log(&mut cmd, &log)
}

/// The faults of `seat` in the log: kind and message.
fn faults_of(records: &[Value], seat: usize) -> Vec<(String, String)> {
    records
        .iter()
        .filter(|r| r["type"] == "fault" && r["seat"] == seat)
        .map(|r| {
            let text = |key: &str| r[key].as_str().unwrap().to_string();
            (text("fault"), text("message"))
        })
        .collect()
}

/// The actions of `seat` in the log.
fn actions_of(records: &[Value], seat: usize) -> Vec<&Value> {
    records
        .iter()
        .filter(|r| r["type"] == "action" && r["seat"] == seat)
        .collect()
}

/// The honest bots of seats 1 and 2 had no fault and played every decision themselves.
fn assert_honest_bots_unaffected(records: &[Value]) {
    for seat in [1, 2] {
        assert_eq!(faults_of(records, seat), [], "seat {seat}");
        let actions = actions_of(records, seat);
        assert!(!actions.is_empty());
        assert!(
            actions.iter().all(|a| a["substituted"] == false),
            "seat {seat}"
        );
    }
}

#[test]
fn a_flood_of_blank_lines_costs_one_fault_per_request_not_one_per_line() {
    // It floods at every request for the whole limit; a high fault limit keeps it playing, so
    // that every one of its requests is seen to cost one fault, however many lines it wrote.
    let records = hostile_match(
        "blank-flood",
        ("flood", "blank_flood.py"),
        &["--max-faults", "100"],
    );
    let faults = faults_of(&records, 0);
    let actions = actions_of(&records, 0);
    assert_eq!(faults.len(), actions.len(), "{faults:?}");
    for (id, (kind, message)) in faults.iter().enumerate() {
        assert_eq!(kind, "malformed");
        assert_eq!(
            message,
            &format!("more than 16 blank lines while request {id} is pending")
        );
    }
    // The referee played for it at once, never waiting for the limit.
    assert!(actions.iter().all(|a| a["substituted"] == true));
    assert!(
        actions.iter().all(|a| a["ms"].as_f64().unwrap() < 5000.0),
        "{actions:?}"
    );
    assert_honest_bots_unaffected(&records);
}

#[test]
fn a_reply_written_before_its_request_is_stray_never_the_answer() {
    let records = hostile_match("early-reply", ("early", "early_reply.py"), &[]);
    // Its replies to requests 1, 2 and 3, each written with the reply before: three faults,
    // the third of which stops it (the default fault limit).
    let faults = faults_of(&records, 0);
    assert_eq!(faults.len(), 3, "{faults:?}");
    for (id, (kind, message)) in (1..).zip(&faults) {
        assert_eq!(kind, "stale_id");
        assert!(
            message.starts_with(&format!(
                "a reply to request {id} before request {id} was written (written before its request); it is ignored"
            )),
            "{message}"
        );
    }
    // Its first three decisions are its own, each timed from the request it answered: never
    // the early line's few microseconds.
    let actions = actions_of(&records, 0);
    for (k, action) in actions.iter().enumerate() {
        assert_eq!(action["substituted"], k >= 3, "{action}");
        if k < 3 {
            assert!(action["ms"].as_f64().unwrap() >= 0.01, "{action}");
        }
    }
    assert_honest_bots_unaffected(&records);
}

/// The environment an `env_reader.py` bot wrote to its stderr file.
fn environment_seen(stderr_file: &std::path::Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(stderr_file).unwrap();
    let json = text
        .lines()
        .find_map(|l| l.strip_prefix("env: "))
        .unwrap_or_else(|| panic!("no environment in {}: {text}", stderr_file.display()));
    serde_json::from_str(json).unwrap()
}

#[test]
fn a_bot_gets_a_few_of_the_referees_variables_and_those_its_settings_name_nothing_else() {
    let dir = temp_dir("environment");
    let workdir = dir.join("b-home");
    std::fs::create_dir_all(&workdir).unwrap();
    let reader = file("tests/bots/env_reader.py");
    let config = dir.join("match.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"vabanque\"\nseed = 2\ntime_limit_ms = {LIMIT_MS}\n\
             env = {{ TOP = \"top\", SHARED = \"top\" }}\n\
             [[bot]]\nname = \"a\"\ncommand = {reader:?}\nenv = {{ OWN = \"a\" }}\n\
             [[bot]]\nname = \"b\"\ncommand = {reader:?}\nworkdir = {:?}\n\
             env = {{ OWN = \"b\", SHARED = \"b\", FLAGGED = \"b\" }}\n\
             [[bot]]\nname = \"rs\"\ncommand = {:?}\n",
            workdir.display().to_string(),
            bin("vabanque-random").display().to_string()
        ),
    )
    .unwrap();
    for sandbox in ["auto", "none"] {
        let stderr_dir = dir.join(format!("stderr-{sandbox}"));
        let mut cmd = referee();
        cmd.env("REFEREE_SECRET", "the-referee-secret")
            .args(["match", config.to_str().unwrap(), "--sandbox", sandbox])
            .args(["--env", "FLAGGED=yes", "--format", "json"])
            .args(["--stderr-dir", stderr_dir.to_str().unwrap()]);
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let result: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(result["faults"], serde_json::json!([]), "{result:#}");
        assert_no_marked_survivors(&cmd);

        let a = environment_seen(&stderr_dir.join("a.stderr"));
        let b = environment_seen(&stderr_dir.join("b.stderr"));
        for (env, own, home) in [
            (&a, "a", "/tmp".to_string()),
            (&b, "b", workdir.display().to_string()),
        ] {
            let get = |name: &str| env.get(name).map(String::as_str);
            // Nothing of the referee's but the allow-list: not its secret, not cargo's variables.
            assert_eq!(get("REFEREE_SECRET"), None, "{sandbox}: {env:?}");
            assert!(
                env.keys().all(|k| !k.starts_with("CARGO")),
                "{sandbox}: {env:?}"
            );
            assert!(get("PATH").is_some());
            assert_eq!(get("HOME"), Some(home.as_str()), "{sandbox}");
            // What the config and the flag name: the flag over the bot's own over the top level.
            assert_eq!(get("OWN"), Some(own));
            assert_eq!(get("TOP"), Some("top"));
            assert_eq!(get("FLAGGED"), Some("yes"));
            // The mark the harness passes on (REFEREE_PASS_ENV), so that the survivor check
            // above sees every bot and what it starts.
            assert_eq!(get(MARK_VAR), Some(mark_of(&cmd).as_str()));
        }
        assert_eq!((a["SHARED"].as_str(), b["SHARED"].as_str()), ("top", "b"));
    }
}

#[test]
fn an_env_flag_that_is_not_name_equals_value_is_refused() {
    for (flag, says) in [
        ("NOVALUE", "expected NAME=VALUE"),
        ("2X=1", "\"2X\" is not a variable name"),
    ] {
        let out = run(&[
            "match",
            "--game",
            "vabanque",
            "--bot",
            "builtin:random",
            "--bot",
            "b=builtin:random",
            "--bot",
            "c=builtin:random",
            "--env",
            flag,
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    }
}
