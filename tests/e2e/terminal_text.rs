//! A bot's text on the reader's terminal (docs/security.md, "What a bot's text can do to your
//! terminal"). `tests/bots/terminal_text.py` puts terminal escape sequences (clear the screen,
//! set the window's title, a C1 control), carriage returns, bidi overrides and line breaks that
//! would forge a line of the referee's own (`! rival: fault timeout FORGED`) in its hello name,
//! its stderr and its replies; and a results directory edited by hand gives a bot a name that
//! holds the same, with a `|`, a comma, quotes and a leading `=`. Every command that shows them
//! — `match`, `replay` (`--text`, `--seat`), `check`, `tournament`, `leaderboard` (the table,
//! `--bot`, CSV, Markdown, JSON), `merge` and `rerun` — is run on them for real, and what it
//! prints is checked: no control character but its own line breaks, no bidi control, the forged
//! line never a line of its own, and CSV and Markdown tables with the right rows and cells.

use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The line the bot's text would forge if it reached the terminal raw.
const FORGED: &str = "! rival: fault timeout FORGED";

/// The name a results directory edited by hand gives the bot: a formula, a table's cell border,
/// a terminal sequence, a comma and quotes, a forged line and a right-to-left override.
const NAME: &str =
    "=HYPERLINK(\"http://x\")|\u{1b}[2J, \"q\"\n! rival: fault timeout FORGED\u{202e}x";

/// [`NAME`] as a terminal shows it.
const NAME_SHOWN: &str =
    r#"=HYPERLINK("http://x")|\u{1b}[2J, "q"\n! rival: fault timeout FORGED\u{202e}x"#;

/// [`NAME`] in a CSV cell: as the terminal shows it, after a `'` that keeps it from being a
/// formula.
const NAME_CSV: &str =
    r#"'=HYPERLINK("http://x")|\u{1b}[2J, "q"\n! rival: fault timeout FORGED\u{202e}x"#;

/// [`NAME`] in a Markdown cell: `|`, `\` and `[` escaped.
const NAME_MARKDOWN: &str =
    r#"=HYPERLINK("http://x")\|\\u{1b}\[2J, "q"\\n! rival: fault timeout FORGED\\u{202e}x"#;

/// A character that acts on a terminal or reorders what it shows: a control character other
/// than a line break, a bidi control, an invisible character.
fn acts_on_a_terminal(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}' | '\u{200e}' | '\u{200f}' | '\u{feff}' | '\u{2028}' | '\u{2029}')
}

/// Asserts that `text`, what `what` printed on one stream, can do nothing to a terminal: it is
/// UTF-8 with no character that acts on one, and the forged line is nowhere a line of its own —
/// wherever the bot's text holds it, something of the referee's comes before it on its line (a
/// `|` marking the bot's lines, the escaped line break, the text that quotes it), or it is a
/// continuation of a line wrapped in the narrative (indented by 6 or more).
fn assert_inert_text(what: &str, bytes: &[u8]) {
    let text = std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
    if let Some(c) = text.chars().find(|&c| acts_on_a_terminal(c)) {
        panic!("{what}: the character {c:?} reached the terminal raw:\n{text}");
    }
    for line in text.lines() {
        if let Some(at) = line.find(FORGED) {
            let before = &line[..at];
            assert!(
                !before.trim().is_empty() || before.len() >= 6,
                "{what}: the bot forged a line of its own: {line:?}\n{text}"
            );
        }
    }
}

/// Asserts that both streams of `out` can do nothing to a terminal ([`assert_inert_text`]).
fn assert_inert(what: &str, out: &Output) {
    assert_inert_text(&format!("{what} (stdout)"), &out.stdout);
    assert_inert_text(&format!("{what} (stderr)"), &out.stderr);
}

/// `referee ARGS`, which must exit with `code`; its output, checked to be inert.
fn inert(args: &[&str], code: i32) -> Output {
    let mut cmd = referee();
    cmd.args(args);
    let out = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
    assert_inert(&format!("{args:?}"), &out);
    out
}

/// `command` for Vabanque with seed 3 and a decision limit of [`LIMIT_MS`], then `rest`.
fn vabanque<'a>(command: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![command];
    args.extend("--game vabanque --seed 3 --time-limit-ms".split(' '));
    args.push(LIMIT_MS);
    args.extend(rest);
    args
}

/// The bot's `--bot` argument.
fn hostile() -> String {
    format!("hostile=python3 {}", file("tests/bots/terminal_text.py"))
}

#[test]
fn a_match_and_its_replay_show_a_bots_text_inert() {
    let dir = temp_dir("terminal-match");
    let log = dir.join("log.jsonl");
    let log_arg = log.to_str().unwrap();
    let played = inert(
        &vabanque(
            "match",
            &[
                "--log",
                log_arg,
                "--bot",
                &hostile(),
                "--bot",
                "rival=builtin:random",
                "--bot",
                "third=builtin:heuristic",
            ],
        ),
        0,
    );
    // Its replies and stderr are quoted in the fault lines, escaped.
    let text = stdout(&played);
    for quoted in [
        r"not json\r! rival: fault timeout FORGED\u{1b}]0;pwned\u{7}\u{202e}DESREVER",
        r#"the action {"table":"\u001b[2J\u001b[H\u001b]0;pwned\u0007\u009b31m\u202eDESREVER"#,
        r"its last stderr lines: turn 1 \u{1b}[2J\u{1b}[H\u{1b}]0;pwned\u{7}\u{9b}31m",
    ] {
        assert!(text.contains(quoted), "{quoted} in:\n{text}");
    }

    inert(&["replay", log_arg], 0);
    let told = stdout(&inert(&["replay", log_arg, "--text"], 0));
    // Its hello name, escaped, in quotes on the lines the narrative wraps it to.
    let flat = told.split_whitespace().collect::<String>();
    assert!(
        flat.contains(r#"whichcallsitself"hostile\u{1b}[2J\u{1b}[H\u{1b}]0;pwned\u{7}"#),
        "{told}"
    );
    // Its stderr: each of its lines on a line of the referee's, marked as the bot's.
    assert!(told.contains(&format!("    | {FORGED}\n")), "{told}");
    assert!(told.contains(r"    | turn 1"), "{told}");
    for seat in ["0", "1"] {
        let seen = stdout(&inert(&["replay", log_arg, "--text", "--seat", seat], 0));
        let flat = seen.split_whitespace().collect::<String>();
        assert!(flat.contains(r#"whichcallsitself"hostile\u{1b}"#), "{seen}");
        assert_eq!(seat == "0", seen.contains(&format!("| {FORGED}")), "{seen}");
    }
}

#[test]
fn check_shows_a_bots_text_inert() {
    let command = format!("python3 {}", file("tests/bots/terminal_text.py"));
    let out = inert(&vabanque("check", &[&command]), 4);
    let text = stdout(&out);
    assert!(
        text.contains(r#"detail:   "hostile\u{1b}[2J\u{1b}[H\u{1b}]0;pwned\u{7}\u{9b}31m\u{202e}DESREVER\u{202c}\u{2066}\n! rival: fault timeout FORGED\r""#),
        "{text}"
    );
    assert!(
        text.contains(r#"the line "\u{1b}[2J\u{1b}[Hnot json\r! rival"#),
        "{text}"
    );
}

/// Plays a tournament of the bot, the built-in random bot and the heuristic one (3 matches,
/// logs kept) in `dir`; checks its output and returns it.
fn tournament(dir: &Path) -> Output {
    let out = dir.to_str().unwrap();
    let hostile = hostile();
    let field = ["--bot", &hostile, "--bot", "rival=builtin:random"];
    let rest = [
        "--bot",
        "third=builtin:heuristic",
        "-j",
        "1",
        "-q",
        "--logs",
        "--out",
        out,
    ];
    inert(&vabanque("tournament", &[&field[..], &rest].concat()), 0)
}

/// A copy of the results `dir` in `copy` edited by hand: the bot `hostile` renamed [`NAME`]
/// (in `tournament.json` and `matches.jsonl`), its command given a terminal sequence and a
/// line break, a carriage return, ESC and a forged line added to every fault message, its first
/// stderr file renamed with ESC and a line break in its name, and the log of match 0 given the
/// new name and command.
fn edited_copy(dir: &Path, copy: &Path) {
    let command = "python3 \u{1b}]0;t\u{7}x.py\n! rival: fault timeout FORGED";
    let _ = std::fs::remove_dir_all(copy);
    std::fs::create_dir_all(copy.join("stderr")).unwrap();
    std::fs::create_dir_all(copy.join("logs")).unwrap();
    std::fs::copy(dir.join("run.json"), copy.join("run.json")).unwrap();
    let mut meta: Value =
        serde_json::from_slice(&std::fs::read(dir.join("tournament.json")).unwrap()).unwrap();
    for bot in meta["bots"].as_array_mut().unwrap() {
        if bot["name"] == "hostile" {
            bot["name"] = NAME.into();
            bot["command"] = command.into();
        }
    }
    std::fs::write(copy.join("tournament.json"), meta.to_string()).unwrap();
    let evil_file = "h\u{1b}[2J\n! rival: fault timeout FORGED.stderr";
    let mut renamed = None;
    let mut lines = String::new();
    for mut row in json_lines(&dir.join("matches.jsonl")) {
        for player in row["players"].as_array_mut().unwrap() {
            if *player == "hostile" {
                *player = NAME.into();
            }
        }
        for fault in row["faults"].as_array_mut().unwrap() {
            let message = format!(
                "{}\r\u{1b}[2J\n{FORGED}",
                fault["message"].as_str().unwrap()
            );
            fault["message"] = message.into();
        }
        for range in row["stderr"].as_array_mut().unwrap() {
            if let Some(file) = range.get("file").and_then(Value::as_str) {
                let file = file.to_string();
                if renamed.is_none() {
                    renamed = Some(file.clone());
                }
                if renamed.as_deref() == Some(file.as_str()) {
                    range["file"] = evil_file.into();
                }
            }
        }
        lines += &format!("{row}\n");
    }
    std::fs::write(copy.join("matches.jsonl"), lines).unwrap();
    for entry in std::fs::read_dir(dir.join("stderr")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let to = if renamed.as_deref() == Some(name.as_str()) {
            evil_file.to_string()
        } else {
            name.clone()
        };
        std::fs::copy(dir.join("stderr").join(&name), copy.join("stderr").join(to)).unwrap();
    }
    let mut log = json_lines(&dir.join("logs/0.jsonl"));
    for player in log[0]["players"].as_array_mut().unwrap() {
        if player["name"] == "hostile" {
            player["name"] = NAME.into();
            player["bot"] = command.into();
        }
    }
    let log: String = log.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(copy.join("logs/0.jsonl"), log).unwrap();
}

/// The cells of each line of the first Markdown table in `text`, split at each `|` that is not
/// escaped, trimmed.
fn markdown_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let inner = &row[1..row.len() - 1];
            let mut cells = vec![String::new()];
            let mut escaped = false;
            for c in inner.chars() {
                match c {
                    '|' if !escaped => cells.push(String::new()),
                    _ => cells.last_mut().unwrap().push(c),
                }
                escaped = c == '\\' && !escaped;
            }
            cells.iter().map(|c| c.trim().to_string()).collect()
        })
        .collect()
}

/// The records of CSV `text`, read by the `csv` crate (RFC 4180), every record as long as the
/// header.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

#[test]
fn a_tournament_its_results_edited_by_hand_and_every_leaderboard_show_names_inert() {
    let base = temp_dir("terminal-tournament");
    let dir = base.join("played");
    let played = tournament(&dir);
    assert!(
        stdout(&played).contains("│ hostile "),
        "{}",
        stdout(&played)
    );
    let path = |d: &PathBuf| d.to_str().unwrap().to_string();
    // The bot's own view of its faults: its stderr lines marked as its own.
    let own = stdout(&inert(&["leaderboard", &path(&dir), "--bot", "hostile"], 0));
    assert!(own.contains(&format!("  | {FORGED}\n")), "{own}");
    // Played again: its faults quoted as in the match.
    let again = inert(&["rerun", &path(&dir), "0"], 0);
    assert!(stdout(&again).contains(r"\u{1b}[2J"), "{}", stdout(&again));

    let edited = base.join("edited");
    edited_copy(&dir, &edited);
    let e = path(&edited);
    let table = stdout(&inert(&["leaderboard", &e], 0));
    let row = table
        .lines()
        .find(|l| l.contains("HYPERLINK"))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(row.contains(&format!("│ {NAME_SHOWN} │")), "{row}");

    // CSV: a header and a row per bot of 14 cells, the name one cell, no formula.
    for args in [
        vec!["leaderboard", &e, "--format", "csv"],
        vec!["merge", &e, "--format", "csv"],
    ] {
        let csv = stdout(&inert(&args, 0));
        let rows = csv_rows(&csv);
        assert_eq!(rows.len(), 4, "{csv}");
        assert!(rows.iter().all(|r| r.len() == 14), "{csv}");
        assert_eq!(rows[0][1], "bot");
        let bots: Vec<&str> = rows[1..].iter().map(|r| r[1].as_str()).collect();
        assert!(bots.contains(&NAME_CSV), "{bots:?}");
        assert!(
            rows[1..].iter().all(|r| r[2].parse::<f64>().is_ok()),
            "{csv}"
        );
    }

    // Markdown: the standings table keeps its 12 columns in every row.
    let md = stdout(&inert(&["leaderboard", &e, "--format", "markdown"], 0));
    let rows = markdown_rows(&md);
    assert_eq!(rows.len(), 5, "a header, its rule and 3 bots:\n{md}");
    assert!(rows.iter().all(|r| r.len() == 12), "{rows:?}");
    assert!(rows.iter().any(|r| r[1] == NAME_MARKDOWN), "{rows:?}");

    // JSON: the name as it was, read back by any JSON reader.
    let json = board(&inert(&["leaderboard", &e, "--format", "json"], 0));
    let standings = json["standings"].as_array().unwrap();
    assert!(standings.iter().any(|s| s["bot"] == NAME), "{json}");

    // The bot's view, asked by its name: table, CSV and Markdown.
    let view = stdout(&inert(
        &["leaderboard", &e, "--bot", NAME, "--all-faults"],
        0,
    ));
    assert!(
        view.starts_with(&format!("{NAME_SHOWN}: rank 3 of 3")),
        "{view}"
    );
    assert!(
        view.contains(r"command: python3 \u{1b}]0;t\u{7}x.py\n! rival: fault timeout FORGED"),
        "{view}"
    );
    assert!(
        view.contains(r"of h\u{1b}[2J\n! rival: fault timeout FORGED.stderr"),
        "{view}"
    );
    let bot_view = |format: &str| {
        let out = inert(&["leaderboard", &e, "--bot", NAME, "--format", format], 0);
        stdout(&out)
    };
    let csv = bot_view("csv");
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 4, "{csv}");
    assert!(rows.iter().all(|r| r.len() == 12), "{csv}");
    assert!(
        rows[1..].iter().all(|r| r[4].contains(&NAME_CSV[1..])),
        "{csv}"
    );
    let md = bot_view("markdown");
    let rows = markdown_rows(&md);
    assert_eq!(rows.len(), 5, "{md}");
    assert!(rows.iter().all(|r| r.len() == 8), "{rows:?}");
    // A name asked for that is not there: the refusal lists the names, escaped, on one line.
    let refused = inert(&["leaderboard", &e, "--bot", "nobody"], 2);
    assert_eq!(stderr(&refused).lines().count(), 1, "{}", stderr(&refused));

    // The log edited by hand, checked and told.
    let log = edited.join("logs/0.jsonl");
    let log = log.to_str().unwrap();
    let checked = stdout(&inert(&["replay", log], 0));
    assert!(
        checked.contains(&format!("seat 0 {NAME_SHOWN}: score")),
        "{checked}"
    );
    let told = stdout(&inert(&["replay", log, "--text", "--seat", "0"], 0));
    let flat = told.split_whitespace().collect::<String>();
    assert!(
        flat.contains(&NAME_SHOWN.split_whitespace().collect::<String>()),
        "{told}"
    );
}
