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
        let mut args: Vec<String> = [
            "match",
            "--game",
            "bouillabaisse",
            "--seed",
            "21",
            "--time-limit-ms",
            LIMIT_MS,
        ]
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
        // Manches 5 and 6 cancel; 1 to 4 hand out tricks × 5 and the suit, rank and card points
        // of the cards in play (all of manche 1's hands).
        let truth = &result["truth"];
        let in_play: Vec<&str> = truth["deals"][0]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|hand| hand.as_array().unwrap().iter().map(|c| c.as_str().unwrap()))
            .collect();
        let chosen = &truth["chosen"];
        let rank = ["J", "Q", "K"][chosen["rank"].as_u64().unwrap() as usize - 11];
        let count = |f: &dyn Fn(&str) -> bool| in_play.iter().filter(|c| f(c)).count() as i64;
        let expected = (in_play.len() / players) as i64 * 5
            + count(&|c| c.ends_with(chosen["suit"].as_str().unwrap())) * 10
            + count(&|c| c.starts_with(rank)) * 50
            + count(&|c| c == chosen["card"].as_str().unwrap()) * 200;
        assert_eq!(scores, expected, "{players} players");
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
        "--time-limit-ms",
        LIMIT_MS,
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
    // No message names a card of another seat's hand before that card is played: every card in
    // everything the bot was told is its own (this manche), removed, the public chosen card, or
    // already played this manche.
    let removed: HashSet<String> = strings(&truth["removed"]);
    let chosen_card = truth["chosen"]["card"].as_str().unwrap().to_string();
    let (mut manche, mut played) = (0usize, HashSet::new());
    let mut requests = 0;
    for message in &told {
        let event = &message["event"];
        if event["kind"] == "manche_start" {
            manche = event["manche"].as_u64().unwrap() as usize;
            played.clear();
        }
        if event["kind"] == "card_played" {
            played.insert(event["card"].as_str().unwrap().to_string());
        }
        requests += usize::from(message["type"] == "request");
        let own: HashSet<String> = if manche > 0 {
            strings(own[manche - 1])
        } else {
            HashSet::new()
        };
        for card in cards_in(message) {
            assert!(
                own.contains(&card)
                    || removed.contains(&card)
                    || played.contains(&card)
                    || card == chosen_card,
                "manche {manche}: {card} named in {message}"
            );
        }
    }
    assert_eq!(requests, 6 * 102 / 3);
}

/// The strings of a JSON array.
fn strings(value: &serde_json::Value) -> HashSet<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// Every string anywhere in `value` that is a card ("QS").
fn cards_in(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(s) => {
            let b = s.as_bytes();
            let card = b.len() == 2 && b"23456789TJQKA".contains(&b[0]) && b"CDHS".contains(&b[1]);
            if card { vec![s.clone()] } else { vec![] }
        }
        serde_json::Value::Array(items) => items.iter().flat_map(cards_in).collect(),
        serde_json::Value::Object(map) => map.values().flat_map(cards_in).collect(),
        _ => vec![],
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
        "--time-limit-ms",
        LIMIT_MS,
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

/// Duplicate play replays each deal with the bots rotated. A bot process that played one match of
/// a group has seen every card of that deal played, so it must never be given another match of
/// the same group: the pool keeps a process per bot for each match of a group it plays.
/// `deal_memory.py` remembers
/// every hand it has seen played and reports a new hand it recognises.
#[test]
fn with_duplicate_play_no_process_sees_a_deal_twice() {
    let dir = temp_dir("bouillabaisse-deal-memory");
    let out_dir = dir.join("out");
    let out = run(&[
        "tournament",
        "--game",
        "bouillabaisse",
        "--players",
        "3",
        "--matches",
        "12",
        "-j",
        "1",
        "-q",
        "--time-limit-ms",
        LIMIT_MS,
        "--out",
        out_dir.to_str().unwrap(),
        "--bot",
        &format!("memory={}", file("tests/bots/deal_memory.py")),
        "--bot",
        "r=builtin:random",
        "--bot",
        &format!("rust={}", rust("random")),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut played = Vec::new();
    for entry in std::fs::read_dir(out_dir.join("stderr")).unwrap() {
        let path = entry.unwrap().path();
        if !path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("memory.")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("RECOGNISED"), "{}: {text}", path.display());
        played.push(
            text.lines()
                .find_map(|l| l.strip_prefix("matches played: "))
                .unwrap()
                .parse::<u32>()
                .unwrap(),
        );
    }
    // 4 groups of 3 rotations on one worker: three processes, each playing one match of every
    // group.
    played.sort();
    assert_eq!(played, [4, 4, 4], "processes kept across groups");
}
