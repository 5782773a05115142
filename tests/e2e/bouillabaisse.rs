//! La Bouillabaisse on the same referee: matches of 2, 5 and 12 bots in three languages, its
//! options echoed to bots, the hidden-information boundary as a bot sees it, and a tournament
//! that ranks the heuristic bots above the random ones.

use crate::util::*;
use std::collections::HashSet;

fn python(name: &str) -> String {
    file(&format!("sample-bots/python/bouillabaisse_{name}.py"))
}

fn js_random() -> String {
    format!(
        "node {}",
        file("sample-bots/javascript/bouillabaisse_random.js")
    )
}

fn rust(name: &str) -> String {
    bin(&format!("bouillabaisse-{name}")).display().to_string()
}

/// Seat `i` of a mixed table: Python, Rust and JavaScript bots in turn.
fn mixed_bot(i: usize) -> String {
    match i % 5 {
        0 => format!("py-heuristic-{i}={}", python("heuristic")),
        1 => format!("rust-random-{i}={}", rust("random")),
        2 => format!("js-random-{i}={}", js_random()),
        3 => format!("rust-heuristic-{i}={}", rust("heuristic")),
        _ => format!("py-random-{i}={}", python("random")),
    }
}

#[test]
fn matches_of_2_5_and_12_bots_in_three_languages_complete_and_replay() {
    let dir = temp_dir("bouillabaisse-sizes");
    for players in [2, 5, 12] {
        let log = dir.join(format!("{players}.jsonl"));
        let mut args: Vec<String> = ["match", "--game", "bouillabaisse", "--seed", "21"]
            .map(String::from)
            .into();
        if players == 2 {
            // Two seats: one Python and one JavaScript bot, so three languages across the sizes.
            args.extend(["--bot".into(), mixed_bot(0), "--bot".into(), mixed_bot(2)]);
        } else {
            for i in 0..players {
                args.extend(["--bot".into(), mixed_bot(i)]);
            }
        }
        args.extend(["--log".into(), log.display().to_string()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&refs);
        assert!(out.status.success(), "{players}: {}", stderr(&out));
        let records = json_lines(&log);
        assert!(
            records.iter().all(|r| r["type"] != "fault"),
            "{players}: faults"
        );
        let decks = if players <= 6 { 1 } else { 2 };
        let in_play = 52 * decks - (52 * decks) % players;
        let actions = records.iter().filter(|r| r["type"] == "action").count();
        assert_eq!(
            actions,
            6 * in_play,
            "{players}: every card of six deals played"
        );
        let result = records.last().unwrap();
        assert_eq!(result["truth"]["decks"], decks);
        let scores: i64 = result["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_i64().unwrap())
            .sum();
        // Manches 5 and 6 cancel; 1 to 4 hand out tricks × 5 + the suit, rank and card points.
        assert!(scores > 0, "{players}: {scores}");
        let replay = run(&["replay", log.to_str().unwrap()]);
        assert!(replay.status.success(), "{players}: {}", stderr(&replay));
        assert!(stdout(&replay).contains("result confirmed"));
    }
}

/// What the recorder bot at seat 0 was told, one JSON message per line.
fn recorded(dir: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("rec.stderr"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn options_are_echoed_and_a_bot_sees_its_own_hand_only() {
    let dir = temp_dir("bouillabaisse-hidden");
    let log = dir.join("match.jsonl");
    let out = run(&[
        "match",
        "--game",
        "bouillabaisse",
        "--seed",
        "8",
        "--option",
        "decks=2",
        "--option",
        "all_or_nothing=true",
        "--stderr-dir",
        dir.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
        "--bot",
        &format!("rec={}", file("tests/bots/recorder.py")),
        "--bot",
        "b=builtin:heuristic",
        "--bot",
        "c=builtin:random",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let told = recorded(&dir);
    let of = |kind: &'static str| told.iter().filter(move |m| m["type"] == kind);
    let hello = of("hello").next().unwrap();
    assert_eq!(hello["game"], "bouillabaisse");
    assert_eq!(hello["options"]["decks"], 2);
    assert_eq!(hello["options"]["all_or_nothing"], true);
    assert_eq!(
        of("match_start").next().unwrap()["options"],
        hello["options"]
    );

    // The log's truth has every deal; the recorder must have been told its own hands only.
    let records = json_lines(&log);
    let truth = &records.last().unwrap()["truth"];
    let deals = truth["deals"].as_array().unwrap();
    assert_eq!(deals.len(), 6);
    let events: Vec<&serde_json::Value> = of("event").map(|m| &m["event"]).collect();
    let dealt: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["kind"] == "dealt")
        .map(|e| &e["hand"])
        .collect();
    let own: Vec<&serde_json::Value> = deals.iter().map(|d| &d[0]).collect();
    assert_eq!(dealt, own, "one dealt event per manche, with seat 0's hand");
    // No message names a card of another seat's hand before that card is played.
    let requests: Vec<&serde_json::Value> = of("request").collect();
    assert_eq!(requests.len(), 6 * 102 / 3);
    for request in &requests {
        let view = &request["view"];
        let manche = view["manche"].as_u64().unwrap() as usize - 1;
        let hand: HashSet<&str> = view["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let deal: HashSet<&str> = own[manche]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert!(
            hand.is_subset(&deal),
            "the view's hand is from seat 0's deal"
        );
        let keys: Vec<&str> = view
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert!(
            !keys.iter().any(|k| k.contains("hands")),
            "no other hands in the view: {keys:?}"
        );
    }
}

#[test]
fn a_tournament_of_the_sample_bots_ranks_heuristic_above_random() {
    let dir = temp_dir("bouillabaisse-tournament");
    let out_dir = dir.join("out");
    let out = run(&[
        "tournament",
        "--game",
        "bouillabaisse",
        "--players",
        "4",
        "--matches",
        "120",
        "-j",
        "2",
        "-q",
        "--out",
        out_dir.to_str().unwrap(),
        "--bot",
        &format!("rust-heuristic={}", rust("heuristic")),
        "--bot",
        &format!("py-heuristic={}", python("heuristic")),
        "--bot",
        &format!("rust-random={}", rust("random")),
        "--bot",
        &format!("js-random={}", js_random()),
        "--bot",
        "builtin-random=builtin:random",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let board = run(&["leaderboard", out_dir.to_str().unwrap(), "--format", "json"]);
    assert!(board.status.success(), "{}", stderr(&board));
    let board: serde_json::Value = serde_json::from_slice(&board.stdout).unwrap();
    assert_eq!(board["matches"], 120);
    let order: Vec<&str> = board["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["bot"].as_str().unwrap())
        .collect();
    let position = |name: &str| order.iter().position(|b| *b == name).unwrap();
    for heuristic in ["rust-heuristic", "py-heuristic"] {
        for random in ["rust-random", "js-random", "builtin-random"] {
            assert!(position(heuristic) < position(random), "{order:?}");
        }
    }
    for standing in board["standings"].as_array().unwrap() {
        assert_eq!(standing["faults"], serde_json::json!({}), "{standing}");
    }
}
