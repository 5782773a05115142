//! Misbehaving bots get recorded faults; the match completes; no process survives.

use crate::util::*;
use serde_json::Value;

/// Plays a 4-seat match with `bots` (name, script under tests/bots) and one sample bot, with a
/// limit every answer meets however loaded the machine, and that each deliberate timeout costs
/// in full ([`SHORT_LIMIT_MS`]), in the default sandbox; returns the log's records after checking
/// the match completed, replayed, and left no process behind.
fn faulty_match(name: &str, bots: &[(&str, &str)]) -> Vec<Value> {
    let dir = temp_dir(name);
    let log = dir.join("log.jsonl");
    let mut cmd = referee();
    cmd.args([
        "match",
        "--game",
        "vabanque",
        "--seed",
        "4",
        "--time-limit-ms",
        SHORT_LIMIT_MS,
        "--log",
        log.to_str().unwrap(),
    ]);
    cmd.args([
        "--bot",
        &format!(
            "good=python3 {}",
            file("sample-bots/python/vabanque_random.py")
        ),
    ]);
    for (bot, script) in bots {
        cmd.args([
            "--bot",
            &format!("{bot}={}", file(&format!("tests/bots/{script}"))),
        ]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "the match must complete: {}",
        stderr(&out)
    );
    let replay = run(&["replay", log.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    assert_no_marked_survivors(&cmd);
    json_lines(&log)
}

fn faults_of(records: &[Value], seat: usize) -> Vec<String> {
    records
        .iter()
        .filter(|r| r["type"] == "fault" && r["seat"] == seat)
        .map(|r| r["fault"].as_str().unwrap().to_string())
        .collect()
}

fn substituted(records: &[Value], seat: usize) -> usize {
    records
        .iter()
        .filter(|r| r["type"] == "action" && r["seat"] == seat && r["substituted"] == true)
        .count()
}

#[test]
fn a_sleeper_an_exiter_and_a_garbage_writer_each_get_their_fault() {
    let records = faulty_match(
        "sleep-exit-garbage",
        &[
            ("sleeper", "sleeper.py"),
            ("exits", "exits.py"),
            ("garbage", "garbage.py"),
        ],
    );
    assert!(
        faults_of(&records, 0).is_empty(),
        "the good bot has no fault"
    );
    assert_eq!(substituted(&records, 0), 0);
    // The sleeper times out until the fault limit (3) stops it; its `sleep` child dies too.
    assert_eq!(faults_of(&records, 1), ["timeout"; 3]);
    // The exiter is gone before its handshake: one fault, every decision substituted.
    assert_eq!(faults_of(&records, 2), ["exited"]);
    assert_eq!(substituted(&records, 2), 26);
    let exited = records
        .iter()
        .find(|r| r["type"] == "fault" && r["seat"] == 2)
        .unwrap();
    assert!(
        exited["message"]
            .as_str()
            .unwrap()
            .contains("exited with status 3"),
        "{exited}"
    );
    // A garbage line is the bot's answer: one fault each, the default action at once, and the
    // third stops it.
    assert_eq!(faults_of(&records, 3), ["malformed"; 3]);
    assert_eq!(substituted(&records, 3), 26);
}

#[test]
fn a_debug_line_on_stdout_is_the_answer_one_fault_and_the_reply_after_it_is_dropped() {
    let records = faulty_match(
        "chatty",
        &[
            ("chatty", "chatty.py"),
            ("b", "crasher.py"),
            ("c", "crasher.py"),
        ],
    );
    // One fault per debug line, none for the reply after it, which comes too late to count;
    // the third fault stops the bot.
    assert_eq!(faults_of(&records, 1), ["malformed"; 3]);
    assert_eq!(substituted(&records, 1), 26);
}

#[test]
fn wrong_shapes_illegal_actions_and_crashes_are_told_apart() {
    let records = faulty_match(
        "shape-illegal-crash",
        &[
            ("shape", "wrong_shape.py"),
            ("illegal", "illegal.py"),
            ("crasher", "crasher.py"),
        ],
    );
    assert!(faults_of(&records, 0).is_empty());
    assert_eq!(faults_of(&records, 1), ["wrong_shape"; 3]);
    assert_eq!(faults_of(&records, 2), ["illegal_action"; 3]);
    let illegal = records
        .iter()
        .find(|r| r["type"] == "fault" && r["seat"] == 2)
        .unwrap();
    assert!(
        illegal["message"]
            .as_str()
            .unwrap()
            .contains("does not exist"),
        "{illegal}"
    );
    assert_eq!(faults_of(&records, 3), ["exited"]);
    let crash = records
        .iter()
        .find(|r| r["type"] == "fault" && r["seat"] == 3)
        .unwrap();
    assert!(
        crash["message"]
            .as_str()
            .unwrap()
            .contains("exited with status 1"),
        "{crash}"
    );
    assert_eq!(
        substituted(&records, 3),
        26 - 5,
        "the crasher played 5 decisions itself"
    );
}

#[test]
fn a_terminated_referee_stops_every_bot() {
    let dir = temp_dir("sigterm");
    let pids = dir.join("pids");
    std::fs::create_dir_all(&pids).unwrap();
    writable_by_bots(&pids);
    // Scripted bots with an empty script play legal[0] and record their pids.
    let script = dir.join("empty.json");
    std::fs::write(&script, "[]").unwrap();
    let scripted = format!(
        "python3 {} {}",
        file("tests/bots/scripted.py"),
        script.display()
    );
    // Without a sandbox, so that the bots can record their pids for the check below.
    let mut cmd = referee();
    let pid_dir = format!("REFEREE_TEST_PID_DIR={}", pids.display());
    let mut child = cmd
        .args([
            "match",
            "--game",
            "vabanque",
            "--seed",
            "1",
            "--time-limit-ms",
            "60000",
            "--sandbox",
            "none",
            "--env",
            &pid_dir,
        ])
        .args([
            "--bot",
            &format!("sleeper={}", file("tests/bots/sleeper.py")),
        ])
        .args(["--bot", &format!("a={scripted}")])
        .args(["--bot", &format!("b={scripted}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the sleeper has been asked (it records its child's pid then).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_dir(&pids).unwrap().count() < 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "the bots did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(assert_no_survivors(&pids), 4);
    assert_no_marked_survivors(&cmd);
}

#[test]
fn double_replies_protocol_mismatches_and_overlong_lines() {
    let records = faulty_match(
        "double-future-long",
        &[
            ("double", "double.py"),
            ("future", "future.py"),
            ("long", "longline.py"),
        ],
    );
    assert!(faults_of(&records, 0).is_empty());
    // Each second reply is in hand when the next request is written: a stray line, and the
    // reply to that request still counts.
    assert_eq!(faults_of(&records, 1), ["stale_id"; 3]);
    assert_eq!(faults_of(&records, 2), ["protocol_mismatch"]);
    let mismatch = records
        .iter()
        .find(|r| r["type"] == "fault" && r["seat"] == 2)
        .unwrap();
    assert!(
        mismatch["message"]
            .as_str()
            .unwrap()
            .contains("the bot speaks protocol 2; this referee speaks protocol 1")
    );
    assert_eq!(
        faults_of(&records, 3),
        ["line_too_long"],
        "an over-long line stops the bot"
    );
    assert_eq!(substituted(&records, 3), 26);
}

#[test]
fn a_bot_is_told_why_its_action_was_refused_and_what_was_played_instead() {
    let dir = temp_dir("error-message");
    let script = dir.join("script.json");
    std::fs::write(&script, r#"[{"table": 42}, {"steps": 1}]"#).unwrap();
    let stderr_dir = dir.join("stderr");
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--seed",
        "3",
        "--time-limit-ms",
        LIMIT_MS,
        "--stderr-dir",
        stderr_dir.to_str().unwrap(),
        "--bot",
        &format!(
            "s=python3 {} {}",
            file("tests/bots/scripted.py"),
            script.display()
        ),
        "--bot",
        "b=builtin:random",
        "--bot",
        "c=builtin:random",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("fault: s (seat 0), its 1st turn (phase ")
            && stdout(&out).contains("): illegal_action: "),
        "{}",
        stdout(&out)
    );
    let seen = std::fs::read_to_string(stderr_dir.join("s.stderr")).unwrap();
    let error: serde_json::Value = seen
        .lines()
        .find_map(|l| l.strip_prefix("scripted: error "))
        .map(|e| serde_json::from_str(e).unwrap())
        .unwrap_or_else(|| panic!("no error message reached the bot:\n{seen}"));
    assert_eq!(error["fault"], "illegal_action");
    assert_eq!(error["id"], 0);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("table 42 does not exist (tables are 0 to 6)")
    );
    assert!(error["substituted"]["table"].is_u64(), "{error}");
    // A move sent when a chip is asked for is the wrong shape, not an illegal chip.
    assert!(
        stdout(&out).contains(r#"fault: s (seat 0), its "#)
            && stdout(&out).contains(": wrong_shape: "),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out)
            .contains(r#"the action {"steps":1} is not a chip action: expected {"table": T}"#)
    );
}

#[test]
fn late_replies_after_timeouts_are_dropped_without_further_faults() {
    // `slow` answers its first request only once its second has come, which the referee writes
    // only after the first timed out: one deadline missed. `behind` waits for a third request:
    // two missed, the second request waiting unread meanwhile. Whatever the speed of the machine,
    // the late replies are dropped, not stale ids.
    let records = faulty_match(
        "slow",
        &[
            ("slow", "late_once.py 1"),
            ("behind", "late_once.py 2"),
            ("c", "double.py"),
        ],
    );
    assert_eq!(faults_of(&records, 1), ["timeout"]);
    assert_eq!(substituted(&records, 1), 1);
    assert_eq!(faults_of(&records, 2), ["timeout", "timeout"]);
    assert_eq!(substituted(&records, 2), 2);
}

#[test]
fn bytes_that_are_not_utf8_are_malformed_and_an_exit_behind_a_child_is_an_exit() {
    let records = faulty_match(
        "latin1-crashkid",
        &[
            ("latin1", "latin1.py"),
            ("crashkid", "crashkid.py"),
            ("c", "double.py"),
        ],
    );
    let latin1 = faults_of(&records, 1);
    assert_eq!(latin1[0], "malformed", "{latin1:?}");
    let first = records
        .iter()
        .find(|r| r["type"] == "fault" && r["seat"] == 1)
        .unwrap();
    assert!(
        first["message"]
            .as_str()
            .unwrap()
            .contains("not UTF-8 text"),
        "{first}"
    );
    assert_eq!(
        substituted(&records, 1),
        26,
        "each bad line is its answer; the third stops it"
    );
    // The child keeps the crashed bot's stdout open: still reported as an exit, with its code.
    assert_eq!(faults_of(&records, 2), ["exited"]);
    let exit = records
        .iter()
        .find(|r| r["type"] == "fault" && r["seat"] == 2)
        .unwrap();
    assert!(
        exit["message"]
            .as_str()
            .unwrap()
            .contains("exited with status 1"),
        "{exit}"
    );
}
