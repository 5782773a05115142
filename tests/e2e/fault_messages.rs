//! The fault messages of a student's first hour say how to fix the fault, the same in `referee
//! match`, `referee check` and a tournament's `matches.jsonl`: a reply never flushed, a partial
//! line, a Python syntax error (its traceback's file and line kept), a first move past its
//! limit (named `--first-decision-ms`, and how late its reply came), a bot killed by a signal.
//! The bots are a few lines of Python written here.

use crate::util::*;
use std::path::Path;

/// A hello reply written to a block-buffered stdout and never flushed; then it waits.
const UNFLUSHED: &str = r#"import sys, json
out = open(sys.stdout.fileno(), "w", buffering=1 << 16, closefd=False)
for line in sys.stdin:
    if json.loads(line)["type"] == "hello":
        out.write(json.dumps({"type": "hello", "name": "unflushed"}) + "\n")
"#;

/// A hello reply without its newline, flushed; then it waits.
const PARTIAL: &str = r#"import sys, time
sys.stdout.write('{"type":"hello","name":"partial"}')
sys.stdout.flush()
time.sleep(600)
"#;

/// A syntax error on line 2.
const SYNTAX: &str = "import sys\ndef choose(:\n    pass\n";

/// Answers its first request 1.5 times its limit after it came, every other one at once.
const SLOW_FIRST: &str = r#"import sys, json, time
first = True
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "slow-first"}), flush=True)
    elif m["type"] == "request":
        if first:
            time.sleep(m["time_left_ms"] * 1.5 / 1000)
            first = False
        print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][0]}), flush=True)
"#;

/// Kills itself with SIGKILL at its first request, after a line on stderr.
const KILLED: &str = r#"import sys, json, os, signal
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "killed"}), flush=True)
    elif m["type"] == "request":
        print("about to go", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
"#;

/// The per-decision limit of these tests: the slow first move takes 1.5 times it.
const DECISION_MS: &str = "400";

/// The start-up limit: generous, so that the partial bot has written its partial line by then
/// however loaded the machine (five Pythons start at once); the unflushed and partial bots
/// wait it out, a few times over in this test.
const STARTUP_MS: &str = "10000";

/// What each bot's fault message must hold, wherever it is shown.
const EXPECTED: [(&str, &str, &[&str]); 5] = [
    (
        "unflushed",
        UNFLUSHED,
        &[
            "no hello reply within the start-up limit of 10000 ms: nothing arrived on its standard output and the bot is still running: if it wrote its reply, it did not flush it",
            "docs/protocol.md#transport",
        ],
    ),
    (
        "partial",
        PARTIAL,
        &[
            "a partial line of 33 bytes arrived without its newline",
            "docs/protocol.md#transport",
        ],
    ),
    (
        "syntax",
        SYNTAX,
        &[
            "the bot exited with status 1; its last stderr lines:",
            "syntax.py\", line 2",
            "SyntaxError",
        ],
    ),
    (
        "slow",
        SLOW_FIRST,
        &[
            "no reply within the time limit of 400 ms; it was the bot's first decision of the match: --first-decision-ms",
            "; its reply came ",
            " ms after the limit",
        ],
    ),
    (
        "killed",
        KILLED,
        &["the bot was killed by signal 9 (SIGKILL); its last stderr lines: about to go"],
    ),
];

/// Writes each bot into `dir` and returns its `NAME=COMMAND`.
fn bots(dir: &Path) -> Vec<String> {
    EXPECTED
        .iter()
        .map(|(name, source, _)| {
            let path = dir.join(format!("{name}.py"));
            std::fs::write(&path, source).unwrap();
            format!("{name}=python3 {}", path.display())
        })
        .collect()
}

/// The limits and fault allowance of every run here.
fn limits() -> [&'static str; 6] {
    [
        "--time-limit-ms",
        DECISION_MS,
        "--startup-limit-ms",
        STARTUP_MS,
        "--max-faults",
        "10",
    ]
}

fn assert_holds(shown: &str, name: &str, wanted: &[&str], whence: &str) {
    for part in wanted {
        assert!(
            shown.contains(part),
            "{whence}: {name}'s fault should say {part:?}:\n{shown}"
        );
    }
}

#[test]
fn each_fault_of_a_first_hour_says_how_to_fix_it_in_match_check_and_matches_jsonl() {
    let dir = temp_dir("fault-messages");
    let bots = bots(&dir);

    // One match of all five.
    let mut cmd = referee();
    cmd.args(["match", "--game", "vabanque", "--seed", "1"])
        .args(limits());
    for bot in &bots {
        cmd.args(["--bot", bot]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_no_marked_survivors(&cmd);
    let shown = stdout(&out);
    for (name, _, wanted) in EXPECTED {
        let line = shown
            .lines()
            .find(|l| l.starts_with(&format!("fault: {name} ")))
            .unwrap_or_else(|| panic!("no fault of {name}:\n{shown}"));
        assert_holds(line, name, wanted, "referee match");
    }

    // The same match as a tournament's: matches.jsonl.
    let results = dir.join("tournament");
    let mut cmd = referee();
    cmd.args(["tournament", "--game", "vabanque", "--players", "5"])
        .args(["--matches", "1", "--seed", "1", "-q"])
        .args(["--out", results.to_str().unwrap()])
        .args(limits());
    for bot in &bots {
        cmd.args(["--bot", bot]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = json_lines(&results.join("matches.jsonl"));
    let row = &rows[0];
    for (name, _, wanted) in EXPECTED {
        let seat = row["players"]
            .as_array()
            .unwrap()
            .iter()
            .position(|p| p == name)
            .unwrap();
        let fault = row["faults"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["seat"] == seat)
            .unwrap_or_else(|| panic!("no fault of {name}: {row:#}"));
        assert_holds(
            fault["message"].as_str().unwrap(),
            name,
            wanted,
            "matches.jsonl",
        );
    }

    // Each bot alone under `referee check`.
    for ((name, _, wanted), bot) in EXPECTED.iter().zip(&bots) {
        let command = bot.split_once('=').unwrap().1;
        let mut cmd = referee();
        cmd.args(["check", "--game", "vabanque"])
            .args(limits())
            .arg(command);
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
        let shown = stdout(&out);
        assert_holds(&shown, name, wanted, "referee check");
        if *name == "unflushed" {
            // The handshake item's rule to read is the flush's.
            let section = shown.split("\nhandshake: FAIL").nth(1).unwrap_or("");
            let rule = section
                .lines()
                .find(|l| l.trim_start().starts_with("rule:"));
            assert_eq!(
                rule.map(str::trim),
                Some("rule:     docs/protocol.md#transport"),
                "{shown}"
            );
        }
        assert_no_marked_survivors(&cmd);
    }
}
