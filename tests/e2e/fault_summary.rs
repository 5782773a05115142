//! Faults summed up by bot and kind, and every moment named one way ("match 3, its 6th turn
//! (phase card; log decision 17)"), with real bot processes: a tournament of a crasher, a bot
//! that prints debug text to stdout and a built-in, whose end lines, `leaderboard --bot`,
//! `matches.jsonl` and report (in headless Chromium, its link opening the replay viewer at the
//! moment, which the viewer names in the same words) all say the same.

use crate::browser::{Browser, file_url};
use crate::util::*;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The tournament: its directory and the terminal's output.
fn played() -> &'static (PathBuf, String) {
    static PLAYED: OnceLock<(PathBuf, String)> = OnceLock::new();
    PLAYED.get_or_init(|| {
        let out = temp_dir("fault-summary").join("out");
        let played = referee()
            .args(["tournament", "--game", "vabanque", "--players", "3"])
            .args(["--seed", "5", "-j", "2", "--logs", "-q", "--no-legend"])
            .args(["--time-limit-ms", LIMIT_MS, "--out", out.to_str().unwrap()])
            .args(["--bot", &format!("crash={}", file("tests/bots/crasher.py"))])
            .args([
                "--bot",
                &format!("dbg={}", file("tests/bots/debug_print.py")),
            ])
            .args(["--bot", "r1=builtin:random", "--bot", "r2=builtin:random"])
            .output()
            .unwrap();
        assert!(played.status.success(), "{}", stderr(&played));
        (out, stdout(&played))
    })
}

/// Each bot plays 3 of the 4 groups of 3, each rotated through 3 seats.
const PLAYED_BY_EACH: usize = 9;

#[test]
fn a_tournament_ends_with_one_fault_line_per_bot_and_kind() {
    let (dir, out) = played();
    let start = out.find("Faults, by bot and kind").expect(out);
    let lines: Vec<&str> = out[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(
        lines.len(),
        2,
        "one line for each faulty bot's one kind: {lines:#?}"
    );
    let crash = format!(
        "  crash: exited ×{PLAYED_BY_EACH} in all {PLAYED_BY_EACH} of its matches: RuntimeError: crasher: deliberate crash at request "
    );
    assert!(lines.iter().any(|l| l.starts_with(&crash)), "{lines:#?}");
    let dbg = lines
        .iter()
        .find(|l| l.starts_with("  dbg: malformed ×"))
        .expect(out);
    assert!(
        dbg.contains(&format!(
            " in all {PLAYED_BY_EACH} of its matches: not valid JSON (expected value at line 1 column 1): debug: hand ["
        )),
        "{dbg}"
    );
    // The first of the crashes: at the crasher's 6th turn, as matches.jsonl records it.
    let results = json_lines(&dir.join("matches.jsonl"));
    let first = results
        .iter()
        .filter_map(|r| {
            let faults = r["faults"].as_array()?;
            let f = faults.iter().find(|f| f["fault"] == "exited")?;
            Some((r["id"].as_u64()?, f.clone()))
        })
        .min_by_key(|(id, _)| *id)
        .unwrap();
    assert_eq!(first.1["turn"], 6, "{}", first.1);
    let moment = format!(
        "; first in match {}, its 6th turn (phase {}; log decision {})",
        first.0,
        first.1["phase"].as_str().unwrap(),
        first.1["decision"]
    );
    assert!(
        lines.iter().any(|l| l.ends_with(&moment)),
        "{moment} in {lines:#?}"
    );
}

#[test]
fn leaderboard_bot_sums_the_faults_up_and_lists_them_all_on_request() {
    let (dir, _) = played();
    let dir = dir.to_str().unwrap();
    let summed = stdout(&run(&["leaderboard", dir, "--bot", "dbg"]));
    let at = summed
        .find("Faults by kind:\n\n- malformed ×")
        .expect(&summed);
    assert!(
        summed[at..].contains("(--all-faults lists every fault, match by match)"),
        "{summed}"
    );
    assert!(!summed.contains("Faults, by match:"), "{summed}");
    let all = stdout(&run(&[
        "leaderboard",
        dir,
        "--bot",
        "dbg",
        "--all-faults",
        "--limit",
        "0",
    ]));
    let listed = &all[all.find("Faults, by match:").expect(&all)..];
    assert_eq!(
        listed.matches("\nmatch ").count(),
        PLAYED_BY_EACH,
        "{listed}"
    );
    assert!(listed.contains(", its 1st turn (phase "), "{listed}");
    assert!(listed.contains("malformed: not valid JSON"), "{listed}");
    // The crasher: its traceback's end under its summary.
    let crash = stdout(&run(&["leaderboard", dir, "--bot", "crash"]));
    assert!(
        crash.contains("    | RuntimeError: crasher: deliberate crash at request "),
        "{crash}"
    );
}

#[test]
fn the_report_sums_faults_up_and_its_link_opens_the_viewer_at_the_moment_it_names() {
    let (dir, _) = played();
    let out = temp_dir("fault-summary-report").join("report");
    let written = run(&[
        "report",
        dir.to_str().unwrap(),
        "--html",
        out.to_str().unwrap(),
    ]);
    assert!(written.status.success(), "{}", stderr(&written));
    let Some(mut browser) = Browser::launch("fault_summary", &[]) else {
        return;
    };
    let index = out.join("index.html");
    browser.open(&index);
    browser.wait_until("document.body.dataset.ready === 'true'");
    let data = browser.eval(
        "JSON.parse(document.getElementById('report-data').textContent).bots.find(b => b.bot === 'crash').summary",
    );
    let kinds = data.as_array().unwrap();
    assert_eq!(kinds.len(), 1, "{data}");
    let summary = browser.texts("#bot-crash .fault-summary > .where");
    assert_eq!(summary.len(), 1, "{summary:?}");
    let line = kinds[0]["line"].as_str().unwrap();
    assert!(summary[0].starts_with(line), "{summary:?}");
    assert!(line.starts_with(&format!(
        "exited ×{PLAYED_BY_EACH} in all {PLAYED_BY_EACH} of its matches: RuntimeError"
    )));
    // Every fault, one click away.
    assert_eq!(
        browser.count("#bot-crash details.all-faults .fault"),
        PLAYED_BY_EACH
    );
    assert_eq!(
        browser.eval("document.querySelector('#bot-crash details.all-faults').open"),
        Value::Bool(false)
    );
    assert_eq!(browser.count("#bot-dbg .fault-summary"), 1);
    // The summary's link opens the viewer at its first crash, as the crasher's seat saw it,
    // and the viewer names that moment in the report's words.
    let first = &kinds[0]["first"];
    let href = browser
        .eval("document.querySelector('#bot-crash .fault-summary a.replay').getAttribute('href')");
    let (id, decision, seat) = (&first["id"], &first["decision"], &first["seat"]);
    assert_eq!(
        href,
        Value::String(format!("replays/{id}.html#decision={decision}&view={seat}"))
    );
    let moment = first["moment"].as_str().unwrap();
    browser.open_url(&format!(
        "{}#decision={decision}&view={seat}",
        file_url(&out.join("replays").join(format!("{id}.html")))
    ));
    browser.wait_until("document.body.dataset.ready === 'true'");
    let label = browser.text("#step-label");
    assert!(label.starts_with(moment), "{label:?} names {moment:?}");
    assert!(
        browser
            .text("#faults")
            .contains(moment.split_once(", ").unwrap().1)
    );
    assert_eq!(browser.errors(), Vec::<String>::new());
}

#[test]
fn referee_match_names_a_fault_by_the_bots_turn() {
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--seed",
        "2",
        "--bot",
        &format!("crash={}", file("tests/bots/crasher.py")),
        "--bot",
        "r1=builtin:random",
        "--bot",
        "r2=builtin:random",
    ]);
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("fault: crash (seat 0), "))
        .expect(&text);
    assert!(
        line.starts_with("fault: crash (seat 0), its 6th turn (phase "),
        "{line}"
    );
    assert!(line.contains("; log decision "), "{line}");
    // A bot that never starts: at start-up.
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--seed",
        "2",
        "--bot",
        &format!("x={}", file("tests/bots/exits.py")),
        "--bot",
        "r1=builtin:random",
        "--bot",
        "r2=builtin:random",
    ]);
    assert!(
        stdout(&out).contains("fault: x (seat 0), at start-up, before its first turn: exited: "),
        "{}",
        stdout(&out)
    );
}
