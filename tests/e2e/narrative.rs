//! `referee replay FILE --text [--seat K]`: the real binary tells a real match log — Python
//! bots in their own processes, one of which writes to its standard error — in full and as
//! each seat saw it, wrapped for an 80-column terminal.

use crate::util::*;
use std::path::{Path, PathBuf};

/// Plays a Vabanque match of a Python random bot (a), the built-in heuristic (b) and the
/// scripted test bot (c, which logs every request and event to its stderr) in a directory of
/// its own, `name`, and returns the directory and the log.
fn played_match(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let log = dir.join("log.jsonl");
    let script = dir.join("c.json");
    std::fs::write(&script, "[]").unwrap();
    let mut cmd = referee();
    cmd.args([
        "match",
        "--game",
        "vabanque",
        "--seed",
        "21",
        "--time-limit-ms",
        LIMIT_MS,
        "--log",
        log.to_str().unwrap(),
        "--bot",
        &format!("a={}", file("sample-bots/python/vabanque_random.py")),
        "--bot",
        "b=builtin:heuristic",
        "--bot",
        &format!(
            "c=python3 {} {}",
            file("tests/bots/scripted.py"),
            script.display()
        ),
    ]);
    played_log(&mut cmd, &log);
    (dir, log)
}

/// `referee replay LOG --text` with `more` arguments: its standard output, after checking that
/// it succeeded.
fn text(log: &Path, more: &[&str]) -> String {
    let mut args = vec!["replay", log.to_str().unwrap(), "--text"];
    args.extend(more);
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// The text with its line breaks and indents taken out, as one run of words.
fn flat(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "|" && *w != "!")
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_match_is_told_in_full_and_as_each_seat_saw_it() {
    let (_dir, log) = played_match("narrative-seats");
    let full = text(&log, &[]);
    assert_eq!(full, text(&log, &[]), "the same log is told the same way");
    for line in full.lines() {
        assert!(
            line.chars().count() <= 80,
            "wider than 80 columns: {line:?}"
        );
    }
    let headings: Vec<&str> = full
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' '))
        .collect();
    assert_eq!(headings.len(), 6, "{headings:?}");
    assert!(headings[0].starts_with("Vabanque, match "));
    assert_eq!(
        headings[1..],
        [
            "Round 1: chips worth 5",
            "Round 2: chips worth 10",
            "Round 3: chips worth 20",
            "Round 4: chips worth 50",
            "Result",
        ]
    );
    // Each seat is introduced once with its number, then called by its name.
    for seat in 0..3 {
        assert_eq!(full.matches(&format!("(seat {seat})")).count(), 1, "{full}");
    }
    let words = flat(&full);
    assert!(words.contains("c wrote to its standard error: scripted: "));
    assert!(words.contains("scripted: request 0 (chip): legal[0] = "));
    assert_eq!(words.matches("places a card face down").count(), 0);
    assert_eq!(words.matches("Payout of round ").count(), 4);

    for seat in 0..3 {
        let mine = text(&log, &["--seat", &seat.to_string()]);
        let words = flat(&mine);
        assert!(words.contains(&format!("As {} saw it", ["a", "b", "c"][seat])));
        assert_eq!(words.matches("Payout of round ").count(), 4);
        assert_eq!(words.contains("c wrote to its standard error"), seat == 2);
        for other in ["a", "b", "c"]
            .iter()
            .filter(|n| **n != ["a", "b", "c"][seat])
        {
            for card in ["raise", "bluff", "trap"] {
                let placed = format!("{other} places a {card}");
                assert!(!words.contains(&placed), "seat {seat} was told {placed}");
            }
        }
        for line in mine.lines() {
            assert!(
                line.chars().count() <= 80,
                "wider than 80 columns: {line:?}"
            );
        }
    }
}

#[test]
fn a_log_of_version_2_is_told_from_the_events_the_engine_makes_again() {
    let (dir, log) = played_match("narrative-v2");
    // The same match as a version 2 log: the header, the faults, the actions and the result.
    let old = dir.join("v2.jsonl");
    let kept: Vec<String> = json_lines(&log)
        .into_iter()
        .filter(|r| ["header", "fault", "action", "result"].contains(&r["type"].as_str().unwrap()))
        .map(|mut r| {
            if r["type"] == "header" {
                r["log_version"] = 2.into();
                let header = r.as_object_mut().unwrap();
                header.remove("score_name");
                header.remove("higher_is_better");
            }
            r.to_string()
        })
        .collect();
    std::fs::write(&old, kept.join("\n") + "\n").unwrap();
    let told = text(&old, &[]);
    let note = "(A log of version 2: its events were made again from its actions; it recorded no stderr.)\n\n";
    assert!(told.starts_with(note), "{told}");
    // Everything but the stderr is told as from the version 3 log.
    let without_stderr: String = text(&log, &[])
        .lines()
        .filter(|l| !l.starts_with("    | ") && !l.ends_with("wrote to its standard error:"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(&told[note.len()..], without_stderr);
}

#[test]
fn a_seat_the_match_lacks_or_a_seat_without_text_is_refused() {
    let (_dir, log) = played_match("narrative-refused");
    let log = log.to_str().unwrap();
    let out = run(&["replay", log, "--text", "--seat", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("there is no seat 3: the match has 3 seats, 0 to 2"),
        "{}",
        stderr(&out)
    );
    let out = run(&["replay", log, "--seat", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--text"), "{}", stderr(&out));
}

#[test]
fn the_example_log_is_told_with_its_faults_and_stderr_to_whom_they_belong() {
    // docs/match-log.md's example: Machiavelli, a bot that writes notes to its stderr (seat 0),
    // one that writes garbage until it is stopped (seat 1) and the built-in heuristic.
    let log = root().join("tests/fixtures/logs/machiavelli.jsonl");
    let full = flat(&text(&log, &[]));
    assert_eq!(full.matches("garbage: fault malformed, its ").count(), 3);
    assert_eq!(
        full.matches("The referee plays {\"draw\":true} for garbage.")
            .count(),
        3
    );
    assert_eq!(
        full.matches("garbage no longer plays: the referee plays {\"draw\":true} for it")
            .count(),
        1
    );
    assert!(full.contains(
        "notes wrote to its standard error: notes: match match-1 starts, seat 0 notes: request 0 in the turn phase notes draws"
    ));
    assert!(full.contains("garbage is dealt 10 cards: "));
    assert!(
        full.contains("Result 1. heuristic: 66 points 2. garbage: 273 points 3. notes: 276 points")
    );

    let notes = flat(&text(&log, &["--seat", "0"]));
    assert!(notes.contains("notes is dealt 10 cards: 9C 7D 2H 6H 8H 9H 10H AS 10S KS."));
    assert!(!notes.contains("garbage is dealt") && !notes.contains("heuristic is dealt"));
    assert!(!notes.contains("garbage: fault") && !notes.contains("for garbage"));
    assert!(notes.contains("notes wrote to its standard error"));
    assert!(notes.contains("heuristic draws 1 card."));
    let garbage = flat(&text(&log, &["--seat", "1"]));
    assert!(garbage.contains(
        "garbage: fault malformed, its 2nd turn (phase turn; log decision 3): not valid JSON"
    ));
    assert!(!garbage.contains("notes wrote") && !garbage.contains("notes is dealt"));
}
