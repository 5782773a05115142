//! `referee check` passes every sample bot and fails each broken bot on the right item, naming
//! what came (`referee new-bot`'s starters, checked as their READMEs say: `new_bot.rs`).

use crate::util::*;
use serde_json::Value;
use std::process::Output;

/// Runs `referee check --game vabanque ARGS... COMMAND` from `dir` (the workspace root when
/// `None`) and checks that no process is left behind.
fn check(args: &[&str], command: &str) -> Output {
    check_game("vabanque", args, command)
}

/// `referee check --game GAME ARGS COMMAND`, with the no-survivors check. Unless `ARGS` set
/// one, the decision limit is [`LIMIT_MS`]: one that no bot meant to answer misses, however
/// loaded the machine (a timeout there could be charged to a probe, or to `time`).
fn check_game(game: &str, args: &[&str], command: &str) -> Output {
    let mut cmd = referee();
    cmd.args(["check", "--game", game]).args(args);
    if !args.contains(&"--time-limit-ms") {
        cmd.args(["--time-limit-ms", LIMIT_MS]);
    }
    cmd.arg(command);
    let out = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    out
}

/// The JSON report of a check.
fn report(args: &[&str], command: &str) -> (Value, Output) {
    let mut all = vec!["--format", "json"];
    all.extend(args);
    let out = check(&all, command);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{command}: not JSON ({e}): {}", stdout(&out)));
    (report, out)
}

#[test]
fn every_bouillabaisse_sample_bot_passes() {
    let bots = [
        format!(
            "python3 {}",
            file("sample-bots/python/bouillabaisse_random.py")
        ),
        format!(
            "python3 {}",
            file("sample-bots/python/bouillabaisse_heuristic.py")
        ),
        bin("bouillabaisse-random").display().to_string(),
        bin("bouillabaisse-heuristic").display().to_string(),
        format!(
            "node {}",
            file("sample-bots/javascript/bouillabaisse_random.js")
        ),
    ];
    for bot in &bots {
        let out = check_game("bouillabaisse", &["--format", "json"], bot);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{bot}: {report:#}");
        assert_eq!(report["passed"], true);
        // 3 players, one deck less 2C: 17 cards a manche, 6 manches, 3 matches.
        assert_eq!(report["decision_times"]["decisions"], 3 * 6 * 17, "{bot}");
    }
}

/// Machiavelli lists no legal actions: its check counts the plays the rules refused (a penalty
/// of the game, not a fault) and names the first. The sample bots have none refused; the test
/// bot that sends only refused tables passes the protocol's items, each of its answers counted
/// as refused and the first told whole below the table.
#[test]
fn every_machiavelli_sample_bot_passes_and_refused_plays_are_counted() {
    let bots = [
        format!(
            "python3 {}",
            file("sample-bots/python/machiavelli_random.py")
        ),
        format!(
            "python3 {}",
            file("sample-bots/python/machiavelli_rearranger.py")
        ),
        bin("machiavelli-heuristic").display().to_string(),
        format!(
            "node {}",
            file("sample-bots/javascript/machiavelli_random.js")
        ),
    ];
    for bot in &bots {
        let out = check_game("machiavelli", &["--format", "json"], bot);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{bot}: {report:#}");
        let legal = item(&report, "legal_actions");
        assert_eq!(legal["verdict"], "pass", "{bot}: {legal:#}");
        let detail = legal["detail"].as_str().unwrap();
        assert!(
            detail.ends_with("answers, none refused by the rules (machiavelli lists no actions)"),
            "{bot}: {detail}"
        );
    }
    let invalid = format!("python3 {}", file("tests/bots/machiavelli_invalid.py"));
    let out = check_game("machiavelli", &["--format", "json"], &invalid);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    let answers = report["decision_times"]["decisions"].as_u64().unwrap();
    let detail = item(&report, "legal_actions")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    // Its first play is the table with a meld of its first card alone added.
    let first = format!(
        "{answers} answers, {answers} refused by the rules with machiavelli's penalty; the first, at match 1, its 1st turn (phase turn; log decision 1; request id 0): meld "
    );
    assert!(detail.starts_with(&first), "{detail}");
    assert!(
        detail.ends_with(") has one card; a meld needs three"),
        "{detail}"
    );
    let out = check_game("machiavelli", &[], &invalid);
    let text = stdout(&out);
    assert!(
        text.contains(&format!("\nlegal_actions: ok — answers with legal actions of the phase's shape\n  detail:   {detail}\n")),
        "{text}"
    );
}

fn item<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item"] == name)
        .unwrap_or_else(|| panic!("no item {name}"))
}

#[test]
fn every_sample_bot_passes() {
    let bots = [
        format!("python3 {}", file("sample-bots/python/vabanque_random.py")),
        format!(
            "python3 {}",
            file("sample-bots/python/vabanque_heuristic.py")
        ),
        bin("vabanque-random").display().to_string(),
        bin("vabanque-heuristic").display().to_string(),
        format!("node {}", file("sample-bots/javascript/vabanque_random.js")),
    ];
    for bot in &bots {
        let (report, out) = report(&[], bot);
        assert_eq!(out.status.code(), Some(0), "{bot}: {report:#}");
        assert_eq!(report["passed"], true);
        for item in report["items"].as_array().unwrap() {
            let verdict = &item["verdict"];
            if item["required"] == true {
                assert_eq!(verdict, "pass", "{bot}: {item:#}");
            } else {
                assert_eq!(verdict, "info", "{bot}: {item:#}");
            }
        }
        assert!(
            report["matches"].as_array().unwrap().len() >= 3,
            "{report:#}"
        );
        let times = &report["decision_times"];
        assert_eq!(times["decisions"], 78, "{report:#}");
        assert!(times["p99_ms"].as_f64().unwrap() <= times["max_ms"].as_f64().unwrap());
        assert!(
            report["peak_memory"]["largest_process_bytes"]
                .as_u64()
                .unwrap()
                > 0
        );
    }
    // The table says the same.
    let out = check(&[], &bots[0]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("│ lifecycle        │ ok"), "{text}");
    assert!(
        text.trim_end()
            .ends_with("PASS: all 11 required items passed (3 matches, 78 requests)"),
        "{text}"
    );
}

/// Each broken bot fails the item its fault belongs to, with what was expected, what came and
/// the rule's section; the exit code is 4.
#[test]
fn each_broken_bot_fails_the_right_item() {
    // (bot and its arguments, check options, the item that fails, words of what came)
    // The short limits only bound the waits: mute.py never answers, hangs.py hangs, slowpoke.py
    // always sleeps twice its limit, and the replies of wrong_id.py and garbage.py are faults
    // whenever they come, so the item that fails and what it shows do not depend on the speed
    // of the machine.
    let cases: &[(&str, &[&str], &str, &str)] = &[
        (
            "mute.py",
            &["--startup-limit-ms", "300"],
            "handshake",
            "startup_timeout",
        ),
        ("exits.py", &[], "handshake", "exited with status 3"),
        ("exits.py", &[], "lifecycle", "gone before answering hello"),
        ("future.py", &[], "protocol_version", "speaks protocol 2"),
        ("hangs.py", &["--time-limit-ms", "200"], "time", "timeout"),
        (
            "slowpoke.py 0.3",
            &["--time-limit-ms", "150"],
            "time",
            "timeout",
        ),
        (
            "wrong_id.py",
            &["--time-limit-ms", "200"],
            "id_echo",
            "\"id\": 1000",
        ),
        ("double.py", &[], "id_echo", "before request 1 was written"),
        (
            "illegal.py",
            &[],
            "legal_actions",
            "table 999 does not exist",
        ),
        ("wrong_shape.py", &[], "legal_actions", "wrong_shape"),
        (
            "garbage.py",
            &["--time-limit-ms", "200"],
            "stdout",
            "the line \"this is not json {\"",
        ),
        ("crasher.py", &[], "lifecycle", "deliberate crash"),
        // Seen gone between the matches ("gone before goodbye, after match_end of match 1"), or,
        // on a loaded machine where it exits after match 2's start is written, at that match's
        // first request ("did it exit after match_end?"): match_end is named either way.
        ("one_match.py", &[], "lifecycle", "match_end"),
        ("lingers.py", &[], "lifecycle", "still running"),
        ("picky.py unknown", &[], "forward_compat", "unknown message"),
        (
            "picky.py error",
            &[],
            "error_message",
            "the referee sent an error",
        ),
    ];
    for &(bot, args, failed, says) in cases {
        let command = format!("python3 {}", file(&format!("tests/bots/{bot}")));
        let (report, out) = report(args, &command);
        assert_eq!(out.status.code(), Some(4), "{bot}: {report:#}");
        assert_eq!(report["passed"], false);
        let item = item(&report, failed);
        assert_eq!(item["verdict"], "fail", "{bot}: {report:#}");
        let detail = item["detail"].as_str().unwrap();
        assert!(detail.contains(says), "{bot}: {failed}: {detail}");
        assert!(
            !item["expected"].as_str().unwrap().is_empty(),
            "{bot}: {item:#}"
        );
        assert!(
            item["doc"]
                .as_str()
                .unwrap()
                .starts_with("docs/protocol.md#"),
            "{item:#}"
        );
        assert!(
            report["summary"].as_str().unwrap().contains(failed),
            "{bot}: {report:#}"
        );
    }
}

#[test]
fn a_debug_print_is_named_with_its_line() {
    let command = format!("python3 {}", file("tests/bots/debug_print.py"));
    // Each debug line comes before the reply it goes with, and so at that reply's request (no
    // reply is late with the default limit of `check`).
    let out = check(&[], &command);
    assert_eq!(out.status.code(), Some(4));
    let text = stdout(&out);
    assert!(
        text.contains("│ stdout           │ FAIL    │"),
        "the table names the item: {text}"
    );
    for line in [
        "stdout: FAIL — writes nothing but protocol lines to stdout",
        "  expected: only protocol lines on stdout, one JSON message per line (log to stderr)",
        "  got:      3 stray lines; the first at match 1, its 1st turn (phase chip; log decision 1; request id 0): the line \"debug: hand ['raise', 'bluff', 'trap']\" (malformed)",
        "  rule:     docs/protocol.md#transport",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    let (report, _) = report(&[], &command);
    assert_eq!(item(&report, "handshake")["verdict"], "pass");
}

/// What the check saw at the edges of a bot's life and of its matches: each bot's items get the
/// verdicts listed, with the words given in their detail (`""`: any detail).
#[test]
fn exits_stray_lines_and_probes_are_charged_where_they_belong() {
    type Expect<'a> = &'a [(&'a str, &'a str, &'a str)];
    let cases: &[(&str, &[&str], Expect)] = &[
        // Gone at the last match_end, before goodbye: not a pass.
        (
            "last_words.py quit 3",
            &[],
            &[
                (
                    "lifecycle",
                    "fail",
                    "gone before goodbye, after match_end of match 3; the bot exited with status 3",
                ),
                ("forward_compat", "pass", ""),
            ],
        ),
        // Gone before the probes' match: the probes are not blamed, they did not run.
        (
            "last_words.py quit 2",
            &[],
            &[
                ("lifecycle", "fail", "after match_end of match 2"),
                ("forward_compat", "not_run", ""),
                ("error_message", "not_run", ""),
                ("phases", "pass", ""),
            ],
        ),
        // A traceback on goodbye.
        (
            "last_words.py crash-on-goodbye",
            &[],
            &[(
                "lifecycle",
                "fail",
                "after goodbye it did not exit cleanly; the bot exited with status 1",
            )],
        ),
        // A line on goodbye is read before the bot is gone.
        (
            "last_words.py print-on-goodbye",
            &[],
            &[
                (
                    "stdout",
                    "fail",
                    "after goodbye: the line \"bye\" (malformed)",
                ),
                ("lifecycle", "pass", ""),
            ],
        ),
        // Every line after an answer is counted, the one after the match's last answer too.
        (
            "last_words.py print-after-answers 1",
            &["--max-faults", "1000"],
            &[(
                "stdout",
                "fail",
                "26 stray lines; the first at match 1, its 2nd turn (phase chip; log decision 4; request id 1)",
            )],
        ),
        // Lines between matches are stdout's, never a probe's.
        (
            "gg.py",
            &[],
            &[
                (
                    "stdout",
                    "fail",
                    "3 stray lines; the first after the bot's last request of match 1: the line \"gg\"",
                ),
                ("forward_compat", "pass", ""),
            ],
        ),
        // Exits on goodbye but not at the end of its input.
        (
            "last_words.py spin-at-eof",
            &[],
            &[(
                "lifecycle",
                "fail",
                "a run whose input ended after hello, with no goodbye, was still running",
            )],
        ),
        // A debug line or a slow answer at match 3's first request is not the probes'. (The
        // slow answer comes once the referee has given up on it, whatever the limit; the limit
        // is one every other answer meets.)
        (
            "third_match.py debug",
            &[],
            &[
                (
                    "stdout",
                    "fail",
                    "match 3, its 1st turn (phase chip; log decision ",
                ),
                ("forward_compat", "pass", ""),
            ],
        ),
        (
            "third_match.py slow",
            &["--time-limit-ms", SHORT_LIMIT_MS],
            &[
                ("time", "fail", "; request id 52): timeout"),
                ("forward_compat", "pass", ""),
            ],
        ),
        // A wrong id is the answer to the request: the id's fault, and no timeout. (The reply
        // with the wrong id must come within the limit to be seen at its own request.) With no
        // answer accepted, nothing was timed: `time` is not run, not passed.
        (
            "wrong_id.py",
            &["--time-limit-ms", SHORT_LIMIT_MS],
            &[
                (
                    "id_echo",
                    "fail",
                    "3 faults; the first at match 1, its 1st turn (phase chip; log decision 1; request id 0)",
                ),
                ("time", "not_run", "no answer accepted in 3 requests"),
            ],
        ),
        // An over-long line shows how it began and the cap.
        (
            "longline.py",
            &[],
            &[
                ("stdout", "fail", "the line \"{\\\"pad\\\": \\\"xxxxxxxx"),
                ("stdout", "fail", "line-length cap of 1 MiB"),
            ],
        ),
        // Phases never asked because the bot was stopped are not run, not failed: a line after
        // each answer is stray, the next answer still counts, and the third line stops it.
        (
            "last_words.py print-after-answers 1",
            &[],
            &[
                (
                    "phases",
                    "not_run",
                    "never asked: the bot was stopped in match 1",
                ),
                ("stdout", "fail", ""),
            ],
        ),
        // A debug line before each answer is the answer: the phase asked never got one.
        (
            "debug_print.py",
            &[],
            &[
                ("phases", "fail", "chip: no answer accepted in 3 requests"),
                ("stdout", "fail", ""),
            ],
        ),
    ];
    for &(bot, args, expect) in cases {
        let command = format!("python3 {}", file(&format!("tests/bots/{bot}")));
        let (report, out) = report(args, &command);
        assert_eq!(out.status.code(), Some(4), "{bot}: {report:#}");
        for &(name, verdict, says) in expect {
            let item = item(&report, name);
            assert_eq!(item["verdict"], verdict, "{bot}: {item:#}");
            let detail = item["detail"].as_str().unwrap();
            assert!(detail.contains(says), "{bot}: {name}: {detail}");
        }
    }
}

/// A bot that never answers with the right id: the items with nothing to judge are `not run`,
/// shown so in the table and below it, and the summary says why; the check fails.
#[test]
fn a_bot_whose_every_answer_has_a_wrong_id_has_items_not_run_and_fails() {
    let command = format!("python3 {}", file("tests/bots/wrong_id.py"));
    let args = ["--time-limit-ms", SHORT_LIMIT_MS];
    let out = check(&args, &command);
    assert_eq!(out.status.code(), Some(4));
    let text = stdout(&out);
    for line in [
        "│ legal_actions    │ not run │ no answer accepted in 3 requests: no action to judge (see the failed items)",
        "│ time             │ not run │ no answer accepted in 3 requests: no answer to time (see the failed items)",
        "│ decision_time    │ not run │ no answer was accepted, so none was timed",
        "time: not run — answers within the time limit\n  why:      no answer accepted in 3 requests: no answer to time (see the failed items)\n  rule:     docs/protocol.md#time\n",
        "\nFAIL: 2 of 11 required items failed (phases, id_echo); 5 not run (legal_actions, time, lifecycle, forward_compat, error_message): the bot answered no request correctly, and the referee stopped it in match 1\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert!(!text.contains("0 answers"), "{text}");
    let (report, _) = report(&args, &command);
    assert_eq!(report["passed"], false);
    for (name, verdict) in [
        ("phases", "fail"),
        ("legal_actions", "not_run"),
        ("id_echo", "fail"),
        ("time", "not_run"),
        ("decision_time", "not_run"),
    ] {
        assert_eq!(item(&report, name)["verdict"], verdict, "{name}");
    }
    assert_eq!(report["decision_times"], Value::Null);
}

/// The referee's options and a bot's own arguments on one `referee check` line: after a quoted
/// command, options of the referee are its own; among the command's words they are refused,
/// with the line in the right order; after `--`, every word is the bot's.
#[test]
fn options_after_the_bots_command_are_read_as_meant_or_refused() {
    let bot = file("sample-bots/python/vabanque_random.py");
    let run_check = |line: &[&str]| {
        let mut cmd = referee();
        cmd.args(["check", "--game", "vabanque", "--time-limit-ms", LIMIT_MS])
            .args(line);
        let out = cmd.output().unwrap();
        assert_no_marked_survivors(&cmd);
        out
    };
    let json = |out: &Output| -> Value {
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}{}", stdout(out), stderr(out)))
    };
    // Quoted: the options after it are the referee's.
    let quoted = format!("python3 {bot}");
    let out = run_check(&[&quoted, "--seed", "2", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["seed"], 2);
    assert_eq!(report["command"], quoted);
    // Unquoted: refused before any bot starts, with both right orders.
    let out = run_check(&["python3", &bot, "--seed", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"");
    assert_eq!(
        stderr(&out),
        format!(
            "referee: `--seed 2` comes after the bot's command, so it would be passed to the bot: \
             put the referee's options first: referee check --game vabanque --time-limit-ms {LIMIT_MS} \
             --seed 2 python3 {bot} (or, if it is the bot's own, mark where the bot's command \
             starts with --: referee check --game vabanque --time-limit-ms {LIMIT_MS} -- python3 \
             {bot} --seed 2)\n"
        )
    );
    // A quoted command followed by a word of the bot's: inside the quotes.
    let out = run_check(&[&quoted, "--level", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "put the bot's own arguments inside the quotes: referee check --game vabanque \
             --time-limit-ms {LIMIT_MS} 'python3 {bot} --level 3'"
        )),
        "{}",
        stderr(&out)
    );
    // A bot's own flags: after `--` (even one named like the referee's), quoted, or unquoted
    // when the referee has no option of that name. The sample bot ignores them.
    for line in [
        vec!["--format", "json", "--", "python3", &bot, "--seed", "2"],
        vec!["--format", "json", "python3", &bot, "--level", "3"],
    ] {
        let out = run_check(&line);
        assert_eq!(out.status.code(), Some(0), "{line:?}: {}", stderr(&out));
        let report = json(&out);
        let words = &line[line.iter().position(|w| *w == "python3").unwrap()..];
        assert_eq!(report["command"], words.join(" "), "{line:?}");
        assert_eq!(
            report["seed"], 1,
            "{line:?}: the bot's flag is not the referee's"
        );
    }
    let own = format!("python3 {bot} --level 3");
    let out = run_check(&["--format", "json", &own]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["command"], own);
}
