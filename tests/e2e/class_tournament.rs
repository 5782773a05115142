//! Issue 28's acceptance, as a teacher runs it: a class tournament of twelve Machiavelli bots,
//! three of them broken the way students' bots break — `fay` crashes on its 5th turn of every
//! match (a `KeyError: 'discard_pile'` traceback), `hal` is sometimes slow (one reply late in
//! one match of three), `jo` prints debug text to stdout — among Python, Rust, JavaScript and
//! built-in bots (`tests/bots/class/`). The report sums each broken bot's faults up in one
//! line per kind with its counts and first occurrence, and that line's link opens the replay
//! viewer at the fault's turn (headless Chromium); `report --bot` holds no other bot's stderr;
//! the grade sheet has a row per bot with its faults by kind; and `--replace` of the crasher by
//! its fixed version plays only the crasher's matches and gives the leaderboard a fresh run
//! with the fixed bot gives. With `REFEREE_SCREENSHOTS=DIR`, it also writes the docs' images
//! `DIR/class-fault-summary.png` and `DIR/class-student-page.png`.

use crate::browser::Browser;
use crate::report::{keep_element, keep_view};
use crate::report_one_bot::written_text;
use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Matches: the sampled schedule's 12 bots, 3 a match, in 24 groups (each bot in 6 groups, so
/// 18 matches each).
const MATCHES: usize = 72;
/// Matches each bot plays.
const EACH: usize = MATCHES * 3 / 12;

/// The class's tournament file, with `fay`'s command `fay`, its results in `out`.
fn class_file(dir: &Path, fay: &str, out: &Path) -> PathBuf {
    let bot =
        |name: &str, command: &str| format!("[[bot]]\nname = \"{name}\"\ncommand = {command:?}\n");
    let bots = [
        bot("ada", "builtin:heuristic"),
        bot("ben", "builtin:baseline"),
        bot("cleo", "sample-bots/python/machiavelli_random.py"),
        bot("dev", &bin("machiavelli-heuristic").display().to_string()),
        bot("eli", "node sample-bots/javascript/machiavelli_random.js"),
        bot("fay", fay),
        bot("gus", "builtin:heuristic"),
        // Its late replies are late whatever the limit: a short one keeps the test short.
        format!(
            "{}time_limit_ms = {SHORT_LIMIT_MS}\n",
            bot("hal", "tests/bots/class/sometimes_slow.py")
        ),
        bot("ivy", "builtin:baseline"),
        bot("jo", "tests/bots/class/debug_printer.py"),
        bot("kim", "builtin:heuristic"),
        bot("lou", "builtin:baseline"),
    ];
    let text = format!(
        "game = \"machiavelli\"\nplayers = 3\nschedule = \"sampled\"\nmatches = {MATCHES}\n\
         seed = 28\njobs = 2\ntime_limit_ms = {LIMIT_MS}\nout = {:?}\n\n[options]\ncards = 10\n\n{}",
        out.display().to_string(),
        bots.join("\n")
    );
    let path = dir.join(format!(
        "{}.toml",
        out.file_name().unwrap().to_str().unwrap()
    ));
    std::fs::write(&path, text).unwrap();
    path
}

/// A played class tournament: its results directory and what the terminal showed.
struct Played {
    dir: PathBuf,
    out: String,
}

/// Plays the class tournament with `fay`'s command `fay` into `DIR/name`.
fn play(name: &str, fay: &str, check: bool) -> Played {
    let base = temp_dir(&format!("class-{name}"));
    let dir = base.join(name);
    let toml = class_file(&base, fay, &dir);
    let played = referee()
        .args([
            "tournament",
            toml.to_str().unwrap(),
            "--logs",
            "--no-legend",
        ])
        .args(check.then_some("--check"))
        .output()
        .unwrap();
    assert!(played.status.success(), "{}", stderr(&played));
    assert_eq!(json_lines(&dir.join("matches.jsonl")).len(), MATCHES);
    Played {
        dir,
        out: stdout(&played),
    }
}

/// The class as the students gave it, played once for every test here.
fn class() -> &'static Played {
    static CLASS: OnceLock<Played> = OnceLock::new();
    CLASS.get_or_init(|| play("class", "tests/bots/class/crasher.py", true))
}

/// The recorded faults of `bot`, by kind.
fn faults_of(dir: &Path, bot: &str) -> std::collections::BTreeMap<String, usize> {
    let mut kinds = std::collections::BTreeMap::new();
    for r in json_lines(&dir.join("matches.jsonl")) {
        let Some(seat) = r["players"]
            .as_array()
            .unwrap()
            .iter()
            .position(|p| p == bot)
        else {
            continue;
        };
        for f in r["faults"].as_array().unwrap() {
            if f["seat"] == seat {
                *kinds
                    .entry(f["fault"].as_str().unwrap().to_string())
                    .or_default() += 1;
            }
        }
    }
    kinds
}

/// The ids of the matches `bot` played in `dir`.
fn matches_of(dir: &Path, bot: &str) -> Vec<u64> {
    json_lines(&dir.join("matches.jsonl"))
        .iter()
        .filter(|r| r["players"].as_array().unwrap().iter().any(|p| p == bot))
        .map(|r| r["id"].as_u64().unwrap())
        .collect()
}

#[test]
fn the_broken_bots_fault_as_students_bots_do() {
    let dir = &class().dir;
    assert_eq!(matches_of(dir, "fay").len(), EACH);
    let fay = faults_of(dir, "fay");
    assert_eq!(fay.get("exited"), Some(&EACH), "{fay:?}");
    assert_eq!(faults_of(dir, "jo").get("malformed"), Some(&(3 * EACH)));
    let hal = faults_of(dir, "hal");
    let late = hal.get("timeout").copied().unwrap_or(0);
    assert!(
        (2..EACH).contains(&late),
        "one late reply in about one match of three: {hal:?}"
    );
    assert_eq!(hal.len(), 1, "{hal:?}");
    for good in [
        "ada", "ben", "cleo", "dev", "eli", "gus", "ivy", "kim", "lou",
    ] {
        assert!(
            faults_of(dir, good).is_empty(),
            "{good}: {:?}",
            faults_of(dir, good)
        );
    }
}

#[test]
fn the_tournament_ends_with_one_fault_line_per_broken_bot_and_kind() {
    let out = &class().out;
    let start = out.find("Faults, by bot and kind").expect(out);
    let lines: Vec<&str> = out[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(lines.len(), 3, "{lines:#?}");
    let fay = format!(
        "  fay: exited ×{EACH} in all {EACH} of its matches: KeyError: 'discard_pile'; first in match "
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&fay) && l.contains("its 5th turn")),
        "{lines:#?}"
    );
    let jo = format!(
        "  jo: malformed ×{} in all {EACH} of its matches: ",
        3 * EACH
    );
    // Its debug prints differ in their cards only: one group, named by the first.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&jo) && !l.contains("other message")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("  hal: timeout ×") && l.contains("its 4th turn")),
        "{lines:#?}"
    );
}

#[test]
fn the_report_sums_each_broken_bot_up_in_one_line_per_kind_whose_link_opens_the_turn() {
    let dir = &class().dir;
    let report = temp_dir("class-report").join("report");
    let written = run(&[
        "report",
        dir.to_str().unwrap(),
        "--html",
        report.to_str().unwrap(),
    ]);
    assert!(written.status.success(), "{}", stderr(&written));
    let Some(mut browser) = Browser::launch("class-report", &[]) else {
        return skipped("class report", "no chromium");
    };
    browser.open(&report.join("index.html"));
    browser.wait_until("document.querySelectorAll('.fault-summary').length > 0");
    for (bot, kind, words) in [
        (
            "fay",
            "exited",
            format!("exited ×{EACH} in all {EACH} of its matches: KeyError: 'discard_pile'"),
        ),
        (
            "jo",
            "malformed",
            format!("malformed ×{} in all {EACH} of its matches", 3 * EACH),
        ),
        ("hal", "timeout", "timeout ×".to_string()),
    ] {
        let lines = browser.texts(&format!(
            "section.bot[data-bot='{bot}'] .fault-summary .where"
        ));
        assert_eq!(
            lines.len(),
            1,
            "{bot}: one line for its one kind: {lines:#?}"
        );
        assert!(
            lines[0].contains(&words) && lines[0].contains("first in match "),
            "{bot}: {}",
            lines[0]
        );
        let kinds = browser.eval(&format!(
            "[...document.querySelectorAll(\"section.bot[data-bot='{bot}'] .fault-summary\")].map(e => e.dataset.kind).join()"
        ));
        assert_eq!(kinds, kind);
    }
    // The full list is behind a click: every one of the crasher's faults.
    assert_eq!(
        browser.count("section.bot[data-bot='fay'] details.all-faults .fault"),
        EACH
    );
    keep_element(
        &mut browser,
        "section.bot[data-bot='fay']",
        "class-fault-summary.png",
    );
    // The crasher's summary links to its first crash, as its seat saw it, at its 5th turn.
    let href = browser.eval(
        "document.querySelector(\"section.bot[data-bot='fay'] .fault-summary .where a\").href",
    );
    let href = href.as_str().unwrap().to_string();
    assert!(
        href.contains("#decision=") && href.contains("&view="),
        "{href}"
    );
    browser.open_url(&href);
    browser.wait_until("document.body.innerText.includes('its 5th turn')");
    assert!(browser.errors().is_empty(), "{:?}", browser.errors());
}

#[test]
fn a_students_report_holds_no_other_bots_stderr() {
    let dir = &class().dir;
    let page = temp_dir("class-student").join("jo");
    let written = run(&[
        "report",
        dir.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        "--bot",
        "jo",
    ]);
    assert!(written.status.success(), "{}", stderr(&written));
    let texts = written_text(&page);
    assert!(
        texts.iter().any(|(_, t)| t.contains("my hand is")),
        "jo's own faults are there"
    );
    for (file, text) in &texts {
        for other in [
            "discard_pile",
            "Traceback",
            "sometimes_slow.py",
            "crasher.py",
        ] {
            assert!(
                !text.contains(other),
                "{file} holds {other:?}, another bot's"
            );
        }
    }
    if let Some(mut browser) = Browser::launch("class-student", &[]) {
        browser.open(&page.join("index.html"));
        browser.wait_until("document.querySelectorAll('section.bot').length > 0");
        assert_eq!(browser.count("section.bot"), 1);
        // The page's top: whose report it is, and the leaderboard with the others by name.
        keep_view(&mut browser, "body", "class-student-page.png");
    } else {
        skipped("class student page", "no chromium");
    }
}

#[test]
fn the_grade_sheet_has_a_row_per_bot_with_its_faults_by_kind() {
    let dir = &class().dir;
    let cell = |bot: &str, column: &str| grade(dir, bot, column);
    assert_eq!(cell("fay", "exited"), EACH.to_string());
    assert_eq!(cell("fay", "forfeits"), EACH.to_string());
    assert_eq!(cell("jo", "malformed"), (3 * EACH).to_string());
    assert_eq!(
        cell("hal", "timeout"),
        faults_of(dir, "hal")["timeout"].to_string()
    );
    assert_eq!(cell("ada", "faults"), "0");
    assert_eq!(cell("ada", "matches"), EACH.to_string());
    // `--check` kept each program's verdict; the built-ins have none.
    assert_eq!(cell("fay", "check"), "fail");
    assert_eq!(cell("jo", "check"), "fail");
    assert_eq!(cell("cleo", "check"), "pass");
    assert_eq!(cell("ada", "check"), "");
}

/// The cell of `bot`'s row and `column` in the grade sheet of `dir`.
fn grade(dir: &Path, bot: &str, column: &str) -> String {
    let sheet = run(&[
        "leaderboard",
        dir.to_str().unwrap(),
        "--format",
        "csv",
        "--grades",
    ]);
    assert!(sheet.status.success(), "{}", stderr(&sheet));
    let text = stdout(&sheet);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 12, "{text}");
    let c = header.iter().position(|h| *h == column).expect(column);
    rows.iter().find(|r| r[1] == bot).expect(bot)[c].to_string()
}

#[test]
fn replacing_the_crasher_plays_only_its_matches_and_gives_a_fresh_runs_leaderboard() {
    let class = class();
    let fixed = "tests/bots/class/fixed.py";
    let out = temp_dir("class-replaced").join("replaced");
    let replaced = referee()
        .args(["tournament", class.dir.to_str().unwrap()])
        .args([
            "--replace",
            &format!("fay={fixed}"),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let new_board = board(&replaced);
    let said = stderr(&replaced);
    let fay = matches_of(&class.dir, "fay");
    assert!(
        said.contains(&format!(
            "plays again the {} matches 'fay' played, keeps the other {}",
            fay.len(),
            MATCHES - fay.len()
        )),
        "{said}"
    );
    // Every other match is kept as it was, its decision times included.
    let before = json_lines(&class.dir.join("matches.jsonl"));
    let after = json_lines(&out.join("matches.jsonl"));
    for r in &before {
        if !fay.contains(&r["id"].as_u64().unwrap()) {
            let kept = after.iter().find(|a| a["id"] == r["id"]).unwrap();
            assert_eq!(
                kept["duration_ms"], r["duration_ms"],
                "match {} was played again",
                r["id"]
            );
        }
    }
    assert!(faults_of(&out, "fay").is_empty());
    let fresh = play("fresh", fixed, false);
    assert_eq!(comparable(&out), comparable(&fresh.dir));
    let fresh_board = board(&run(&[
        "leaderboard",
        fresh.dir.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(
        standings_without_timings(&new_board),
        standings_without_timings(&fresh_board)
    );
    // The other bots' check verdicts still hold and are carried; the crasher's is not.
    assert_eq!(grade(&out, "cleo", "check"), "pass");
    assert_eq!(grade(&out, "jo", "check"), "fail");
    assert_eq!(grade(&out, "fay", "check"), "");
    // The class's own results are as they were.
    assert_eq!(json_lines(&class.dir.join("matches.jsonl")), before);
}

/// `dir`'s results without what the clock decides: the timings, and how late a late reply
/// came, which a timeout's message says.
fn comparable(dir: &Path) -> Vec<Value> {
    let mut rows = results_without_timings(dir);
    for row in &mut rows {
        for fault in row["faults"].as_array_mut().unwrap() {
            if let Some(message) = fault["message"].as_str()
                && let Some(at) = message.find("; its reply came")
            {
                fault["message"] = Value::from(&message[..at]);
            }
        }
    }
    rows
}

/// A JSON leaderboard's standings, without the decision times (which only the clock decides).
fn standings_without_timings(board: &Value) -> Vec<Value> {
    let mut rows = board["standings"].as_array().unwrap().clone();
    for row in &mut rows {
        let row = row.as_object_mut().unwrap();
        row.retain(|k, _| !k.contains("ms") && k != "times");
    }
    rows
}
