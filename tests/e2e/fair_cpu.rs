//! Fair CPU: a hog that forks 32 busy processes, each in a session of its own and asking for
//! every core, cannot make an honest bot lose on time — in its own match (its processes share
//! one CPU quota) or in another match (they may not leave their worker's core). Needs the CPU
//! controllers of cgroups (root); skipped visibly where they cannot be made.

use crate::util::*;

/// The referee's start-up line names every CPU mechanism this test relies on.
fn cpu_groups_here(line: &str) -> bool {
    ["CPU quota", "cpuset"].iter().all(|m| line.contains(m)) && !line.contains("warning")
}

#[test]
fn a_cpu_hog_beside_a_thinker_costs_the_thinker_no_timeout() {
    if !cgroups_available() {
        skipped(
            "a_cpu_hog_beside_a_thinker_costs_the_thinker_no_timeout",
            "no control group can be made here (needs root and cgroups)",
        );
        return;
    }
    let dir = temp_dir("fair-cpu");
    let out = dir.join("out");
    // Round robin of 4 bots, 3 per match, 6 matches at -j 2: the 3 matches of the group without
    // the hog run beside those of the group with it, on the other worker's core.
    let mut cmd = referee();
    cmd.args([
        "tournament",
        "--game",
        "vabanque",
        "--players",
        "3",
        "--matches",
        "6",
        "--seed",
        "3",
        "-j",
        "2",
        "-q",
        "--format",
        "json",
        "--time-limit-ms",
        "1000",
        "--out",
        out.to_str().unwrap(),
        "--bot",
        &format!("thinker={}", file("tests/bots/thinker.py")),
        "--bot",
        "random=builtin:random",
        "--bot",
        &format!("rust-random={}", bin("vabanque-random").display()),
        "--bot",
        &format!("hog={}", file("tests/bots/hog.py")),
    ]);
    let output = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    let line = groups_line(&output);
    if !cpu_groups_here(&line) {
        skipped(
            "a_cpu_hog_beside_a_thinker_costs_the_thinker_no_timeout",
            &format!("the CPU controllers are missing here: {}", stderr(&output)),
        );
        return;
    }
    assert!(output.status.success(), "{}", stderr(&output));
    let results = json_lines(&out.join("matches.jsonl"));
    assert_eq!(results.len(), 6);
    let mut hog_matches = 0;
    for r in &results {
        let players: Vec<&str> = r["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        hog_matches += usize::from(players.contains(&"hog"));
        let thinker = players.iter().position(|p| *p == "thinker").unwrap();
        let faults: Vec<&serde_json::Value> = r["faults"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["seat"] == thinker)
            .collect();
        assert!(faults.is_empty(), "the thinker was charged: {faults:?}");
        assert_eq!(r["stats"][thinker]["substituted"], 0, "{r}");
    }
    assert_eq!(hog_matches, 3);
}

/// `referee match` of Vabanque, seed 1, `bot` against two `others`, with `extra` flags; its
/// output, with the bot's stderr in `dir`.
fn match_of(
    bot: &str,
    others: &str,
    extra: &[&str],
    dir: &std::path::Path,
) -> std::process::Output {
    let mut cmd = referee();
    cmd.args(["match", "--game", "vabanque", "--seed", "1", "--stderr-dir"])
        .arg(dir)
        .args(extra)
        .args(["--bot", &format!("bot={}", file(bot))])
        .args([
            "--bot",
            &format!("o1={others}"),
            "--bot",
            &format!("o2={others}"),
        ]);
    let out = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

/// The referee's line on the control groups its bots get (other notes, such as a results
/// directory made private, may come before it).
fn groups_line(out: &std::process::Output) -> String {
    stderr(out)
        .lines()
        .find(|l| l.starts_with("referee: bots run in control groups"))
        .unwrap_or_default()
        .to_string()
}

/// Whether the referee says that bots get the mechanism `what`.
fn has_mechanism(out: &std::process::Output, what: &str) -> bool {
    let line = groups_line(out);
    line.contains(what) && {
        let lacking = line.split("warning").nth(1).unwrap_or_default();
        !lacking.contains(&format!("no {what}"))
    }
}

#[test]
fn on_cpu_time_a_bot_that_blocks_is_in_time_and_one_that_burns_is_not() {
    let dir = temp_dir("time-basis");
    let wall = match_of(
        "tests/bots/blocker.py",
        "builtin:random",
        &[],
        &dir.join("wall"),
    );
    if !has_mechanism(&wall, "CPU time") {
        skipped(
            "on_cpu_time_a_bot_that_blocks_is_in_time_and_one_that_burns_is_not",
            "no CPU-time control group here",
        );
        return;
    }
    // On wall time its two 1.2 s sleeps are timeouts (and the CPU burn a third).
    let text = stdout(&wall);
    let timeouts = text
        .lines()
        .filter(|l| l.starts_with("fault: bot (seat 0), ") && l.contains("): timeout: "))
        .count();
    assert_eq!(timeouts, 3, "{text}");
    // On CPU time only the burn is, told in CPU time.
    let cpu = match_of(
        "tests/bots/blocker.py",
        "builtin:random",
        &["--time-basis", "cpu"],
        &dir.join("cpu"),
    );
    let text = stdout(&cpu);
    let faults: Vec<&str> = text.lines().filter(|l| l.starts_with("fault:")).collect();
    assert_eq!(faults.len(), 1, "{text}");
    assert!(
        faults[0].starts_with("fault: bot (seat 0), its ")
            && faults[0].contains("; log decision 8): timeout: "),
        "{text}"
    );
    // Over the CPU limit, or (on a machine too loaded to give it 1.5 s of CPU in 3 s) over the
    // wall-clock cap.
    assert!(
        faults[0].contains("ms of CPU time")
            || faults[0].contains("in wall time (the limit is on CPU time)"),
        "{text}"
    );
}

#[test]
fn under_turn_isolation_a_bot_does_not_run_while_others_are_on_move() {
    let dir = temp_dir("isolation");
    let slow = file("tests/bots/slow_answer.py");
    let out = match_of(
        "tests/bots/ponderer.py",
        &slow,
        &["--turn-isolation", "true"],
        &dir,
    );
    if !has_mechanism(&out, "freezer") {
        skipped(
            "under_turn_isolation_a_bot_does_not_run_while_others_are_on_move",
            &format!(
                "no freezer control group here; the referee said: {}",
                stderr(&out)
            ),
        );
        return;
    }
    // Its watcher thread saw a gap of over 250 ms at the others' 300 ms turns: it was frozen.
    let seen = std::fs::read_to_string(dir.join("bot.stderr")).unwrap();
    let gaps: u64 = seen
        .lines()
        .filter_map(|l| l.strip_prefix("gaps "))
        .next_back()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no gaps line: {seen}"));
    assert!(gaps >= 10, "only {gaps} gaps while frozen: {seen}");
    assert!(!stdout(&out).contains("fault:"), "{}", stdout(&out));
}

/// With no match log, on the wall basis, a bot's CPU time is read at its first request and at
/// the match's end only: the results keep the match's total (`cpu_ms`) and no per-decision
/// maximum. With a log, every decision's is read and logged, and both are kept.
#[test]
fn without_a_log_the_cpu_time_is_read_per_match() {
    if !cgroups_available() {
        skipped(
            "without_a_log_the_cpu_time_is_read_per_match",
            "no control group can be made here (needs root and cgroups)",
        );
        return;
    }
    let dir = temp_dir("cpu-per-match");
    let log = dir.join("match.jsonl");
    let play = |extra: &[&str]| {
        let mut args = vec![
            "match",
            "--game",
            "vabanque",
            "--seed",
            "4",
            "--format",
            "json",
            "--bot",
            "busy=python3 -c 'import sys,json\nfor l in sys.stdin:\n m=json.loads(l)\n if m[\"type\"]==\"hello\": print(json.dumps({\"type\":\"hello\",\"name\":\"b\"}),flush=True)\n elif m[\"type\"]==\"request\":\n  sum(range(200000)); print(json.dumps({\"type\":\"action\",\"id\":m[\"id\"],\"action\":m[\"legal\"][0]}),flush=True)\n elif m[\"type\"]==\"goodbye\": break'",
            "--bot",
            "r1=builtin:random",
            "--bot",
            "r2=builtin:random",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        record["stats"][0].clone()
    };
    let quiet = play(&[]);
    let cpu = quiet["cpu_ms"].as_f64().expect("the match's CPU time");
    // 26 decisions of a loop of 200,000 additions: milliseconds each, on any machine.
    assert!(cpu > 5.0, "{quiet}");
    assert!(quiet.get("max_cpu_ms").is_none(), "{quiet}");
    let logged = play(&["--log", log.to_str().unwrap()]);
    assert!(logged["cpu_ms"].as_f64().unwrap() > 5.0, "{logged}");
    assert!(logged["max_cpu_ms"].as_f64().unwrap() > 0.0, "{logged}");
    let per_decision = json_lines(&log)
        .iter()
        .filter(|r| r["type"] == "action" && r["seat"] == 0)
        .filter(|r| r["cpu_ms"].is_number())
        .count();
    assert_eq!(per_decision, 26, "every decision's CPU time is logged");
}
