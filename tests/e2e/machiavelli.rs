//! Machiavelli on the same referee: matches of 2, 4 and 6 bots in three languages that complete
//! and replay, and a bot that sends only tables the referee must refuse: each refusal is a game
//! penalty told to that bot with its exact reason, never a fault, and the match ends normally;
//! and the sample bots' own Python and JavaScript tests.

use crate::util::*;
use serde_json::Value;

fn python(name: &str) -> String {
    file(&format!("sample-bots/python/machiavelli_{name}.py"))
}

fn js_random() -> String {
    format!(
        "node {}",
        file("sample-bots/javascript/machiavelli_random.js")
    )
}

fn rust_heuristic() -> String {
    bin("machiavelli-heuristic").display().to_string()
}

/// Seat `i` of a mixed table: Python, Rust and JavaScript bots in turn.
fn mixed_bot(i: usize) -> String {
    match i % 4 {
        0 => format!("py-rearranger-{i}={}", python("rearranger")),
        1 => format!("rust-heuristic-{i}={}", rust_heuristic()),
        2 => format!("js-random-{i}={}", js_random()),
        _ => format!("py-random-{i}={}", python("random")),
    }
}

#[test]
fn matches_of_2_4_and_6_bots_in_three_languages_complete_and_replay() {
    let dir = temp_dir("machiavelli-sizes");
    for players in [2, 4, 6] {
        let log = dir.join(format!("{players}.jsonl"));
        let mut args: Vec<String> = [
            "match",
            "--game",
            "machiavelli",
            "--seed",
            "13",
            "--time-limit-ms",
            LIMIT_MS,
        ]
        .map(String::from)
        .into();
        if players == 2 {
            // Two seats: Python against JavaScript, so three languages across the sizes.
            args.extend(["--bot".into(), mixed_bot(0), "--bot".into(), mixed_bot(2)]);
        } else {
            for i in 0..players {
                args.extend(["--bot".into(), mixed_bot(i)]);
            }
        }
        if players == 6 {
            // Six hands of 10 cards with jokers: 48 cards left in the stock, two hands.
            args.extend(
                [
                    "--option",
                    "jokers=true",
                    "--option",
                    "cards=10",
                    "--option",
                    "hands=2",
                ]
                .map(String::from),
            );
        }
        args.extend(["--log".into(), log.display().to_string()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&refs);
        assert!(out.status.success(), "{players}: {}", stderr(&out));
        let records = json_lines(&log);
        let faults: Vec<&Value> = records.iter().filter(|r| r["type"] == "fault").collect();
        assert!(faults.is_empty(), "{players}: faults {faults:?}");
        let actions: Vec<&Value> = records.iter().filter(|r| r["type"] == "action").collect();
        for seat in 0..players {
            assert!(
                actions.iter().any(|a| a["seat"] == seat),
                "{players}: seat {seat} never decided"
            );
        }
        assert!(
            actions.iter().any(|a| a["action"]["play"].is_array()),
            "{players}: nobody laid a meld"
        );
        let result = records.last().unwrap();
        assert_eq!(result["type"], "result");
        assert_eq!(result["scores"].as_array().unwrap().len(), players);
        let replay = run(&["replay", log.to_str().unwrap()]);
        assert!(replay.status.success(), "{players}: {}", stderr(&replay));
        assert!(stdout(&replay).contains("result confirmed"));
    }
}

/// What the refusal of the invalid bot's `turn`-th table (0-based) must say, from the view it
/// was sent; see `tests/bots/machiavelli_invalid.py` for the three tables it sends in turn.
fn expected_refusal(turn: usize, view: &Value) -> String {
    let table = view["table"].as_array().unwrap();
    let hand: Vec<&str> = view["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    match turn % 3 {
        0 => format!(
            "meld {} ({}) has one card; a meld needs three",
            table.len() + 1,
            hand[0]
        ),
        1 if first_absent(view).is_some() => {
            format!("{} is not in your hand", first_absent(view).unwrap())
        }
        _ => "\"1X\" is not a card".to_string(),
    }
}

/// The first card in card order (clubs first, ace to king) neither in the view's hand nor on its
/// table.
fn first_absent(view: &Value) -> Option<String> {
    let seen: Vec<&Value> = view["hand"]
        .as_array()
        .unwrap()
        .iter()
        .chain(
            view["table"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|m| m.as_array().unwrap()),
        )
        .collect();
    let ranks = [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ];
    ["C", "D", "H", "S"]
        .iter()
        .flat_map(|s| ranks.iter().map(move |r| format!("{r}{s}")))
        .find(|card| seen.iter().all(|c| c.as_str() != Some(card.as_str())))
}

#[test]
fn every_refused_table_costs_three_cards_and_is_explained_to_its_bot_alone() {
    let dir = temp_dir("machiavelli-invalid");
    let log = dir.join("match.jsonl");
    let out = run(&[
        "match",
        "--game",
        "machiavelli",
        "--seed",
        "5",
        "--time-limit-ms",
        LIMIT_MS,
        "--stderr-dir",
        dir.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
        "--bot",
        &format!("invalid={}", file("tests/bots/machiavelli_invalid.py")),
        "--bot",
        &format!("rec={}", file("tests/bots/machiavelli_recorder.py")),
        "--bot",
        "h=builtin:heuristic",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = json_lines(&log);
    assert!(
        records.iter().all(|r| r["type"] != "fault"),
        "a refused table is a game penalty, not a fault"
    );
    assert_eq!(records.last().unwrap()["type"], "result", "the match ended");

    let told: Vec<Value> = std::fs::read_to_string(dir.join("invalid.stderr"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut turn = 0;
    let mut pending: Option<(String, Value)> = None;
    for message in &told {
        if message["type"] == "event" {
            let event = &message["event"];
            if event["kind"] == "play_refused" {
                let (expected, _) = pending.take().expect("a refusal follows a play");
                assert_eq!(event["message"], expected.as_str(), "turn {turn}");
                turn += 1;
            }
        } else if message["type"] == "request" {
            assert!(pending.is_none(), "turn {turn}: the play was not refused");
            let view = &message["view"];
            if turn > 0 {
                // The table is as the others left it: never the refused one.
                let tables: Vec<&Value> = view["table"].as_array().unwrap().iter().collect();
                assert!(tables.iter().all(|m| m.as_array().unwrap().len() >= 3));
            }
            pending = Some((expected_refusal(turn, view), view.clone()));
        }
    }
    assert!(turn >= 3, "every kind of refusal was tried ({turn})");

    // The others hear that it drew 3 (or what was left) for an invalid play, and not why.
    let rec: Vec<Value> = std::fs::read_to_string(dir.join("rec.stderr"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let events: Vec<&Value> = rec
        .iter()
        .filter(|m| m["type"] == "event")
        .map(|m| &m["event"])
        .collect();
    assert!(events.iter().all(|e| e["kind"] != "play_refused"));
    let penalties: Vec<&&Value> = events
        .iter()
        .filter(|e| e["kind"] == "drew" && e["reason"] == "invalid_play")
        .collect();
    assert_eq!(penalties.len(), turn, "one penalty per refused table");
    assert!(
        penalties
            .iter()
            .all(|e| e["seat"] == 0 && e["count"].as_u64().unwrap() <= 3)
    );
}

#[test]
fn the_sample_bots_own_tests_pass() {
    // Their meld logic against an independent validator, the guide's example found by the
    // rearranger, and each bot answering protocol lines (the Go starter built with its cache
    // here, as tests/e2e/new_bot.rs does, rather than in a HOME that may not be writable).
    let python = std::process::Command::new("python3")
        .args(["-m", "unittest", "-q", "test_machiavelli"])
        .current_dir(file("sample-bots/python"))
        .env(
            "GOCACHE",
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-cache"),
        )
        .output()
        .unwrap();
    assert!(python.status.success(), "{}", stderr(&python));
    let node = std::process::Command::new("node")
        .args(["--test", "machiavelli.test.js"])
        .current_dir(file("sample-bots/javascript"))
        .output()
        .unwrap();
    assert!(node.status.success(), "{}", stdout(&node));
    // The Java and C++ ports, built as `referee new-bot` writes them (javac, g++ with
    // nlohmann-json3-dev), against the same validator and the Python starter's cases.
    for (dir, test) in [
        ("sample-bots/java", "test_java_machiavelli"),
        ("sample-bots/cpp", "test_cpp_machiavelli"),
    ] {
        let ported = std::process::Command::new("python3")
            .args(["-m", "unittest", "-q", test])
            .current_dir(file(dir))
            .output()
            .unwrap();
        assert!(ported.status.success(), "{dir}: {}", stderr(&ported));
    }
}
