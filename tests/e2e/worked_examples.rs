//! The rules' worked examples, reproduced by scripted bots over the real protocol.
//!
//! Four players, nine tables. With a seed whose first player is seat 0 (A), the tokens start
//! on tables 0 (A), 2 (B), 4 (C) and 6 (D). Three chips of 5 go on table 3 (value 15) and the
//! other thirteen on table 8, where no token ever stands. A moves 3 and B moves 1 to table 3;
//! C and D stay on chipless tables. Every card not in the example goes to table 8, so it is
//! never revealed.

use crate::util::*;
use engine::Game;
use engine::vabanque::{Options, Vabanque};
use serde_json::{Value, json};

/// A seed whose first player is seat 0.
fn seed_with_first_player_a() -> u64 {
    (0..)
        .find(|&s| {
            Vabanque::new(&Options::default(), 4, s)
                .unwrap()
                .to_move()
                .unwrap()
                .seat
                == 0
        })
        .unwrap()
}

fn chips(first: usize) -> Vec<Value> {
    (0..4)
        .map(|i| json!({"table": if i == 0 { first } else { 8 }}))
        .collect()
}

/// One bot's round-1 script: its first chip on `first` (the rest on table 8), its three cards
/// in pass order, and its move.
fn script(first: usize, cards: [Value; 3], steps: usize) -> Vec<Value> {
    let mut s = chips(first);
    s.extend(cards);
    s.push(json!({"steps": steps}));
    s
}

fn card(card: &str, table: usize) -> Value {
    json!({"card": card, "table": table})
}

/// Runs one match of four scripted bots and returns the round-1 payout event as bot A saw it.
fn play(name: &str, scripts: [Vec<Value>; 4]) -> Value {
    let dir = temp_dir(name);
    let stderr_dir = dir.join("stderr");
    let seed = seed_with_first_player_a().to_string();
    let mut args: Vec<String> = vec![
        "match".into(),
        "--game".into(),
        "vabanque".into(),
        "--seed".into(),
        seed,
        "--time-limit-ms".into(),
        LIMIT_MS.into(),
    ];
    for (label, script) in ["A", "B", "C", "D"].iter().zip(scripts) {
        let path = dir.join(format!("{label}.json"));
        std::fs::write(&path, serde_json::to_string(&script).unwrap()).unwrap();
        args.push("--bot".into());
        args.push(format!(
            "{label}=python3 {} {}",
            file("tests/bots/scripted.py"),
            path.display()
        ));
    }
    args.extend([
        "--stderr-dir".into(),
        stderr_dir.display().to_string(),
        "--log".into(),
        dir.join("log.jsonl").display().to_string(),
    ]);
    let out = referee().args(&args).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("fault:"), "{}", stdout(&out));
    let replay = run(&["replay", dir.join("log.jsonl").to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    let seen = std::fs::read_to_string(stderr_dir.join("A.stderr")).unwrap();
    let requests = seen
        .lines()
        .filter(|l| l.starts_with("scripted: request"))
        .count();
    assert_eq!(
        requests, 26,
        "the stderr file keeps everything up to the bot's last line:\n{seen}"
    );
    let payout = seen
        .lines()
        .filter_map(|l| l.strip_prefix("scripted: event "))
        .map(|e| serde_json::from_str::<Value>(e).unwrap())
        .find(|e| e["kind"] == "payout" && e["round"] == 1);
    payout.unwrap_or_else(|| panic!("bot A saw no round-1 payout; its stderr:\n{seen}"))
}

fn table(payout: &Value, table: usize) -> &Value {
    payout["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["table"] == table)
        .unwrap()
}

#[test]
fn worked_example_1_pays_90000_to_b() {
    // Chips 15; Raise by A and C, Bluff by D, Trap by B; tokens of B and A.
    let payout = play(
        "example1",
        [
            script(3, [card("raise", 3), card("bluff", 8), card("trap", 8)], 3),
            script(3, [card("trap", 3), card("raise", 8), card("bluff", 8)], 1),
            script(3, [card("raise", 3), card("bluff", 8), card("trap", 8)], 0),
            script(8, [card("bluff", 3), card("raise", 8), card("trap", 8)], 0),
        ],
    );
    let t3 = table(&payout, 3);
    assert_eq!(t3["chips"], 15);
    assert_eq!(t3["value"], 45_000);
    assert_eq!(t3["tokens"], json!([0, 1]));
    assert_eq!(t3["paid"], json!([0, 90_000, 0, 0]));
    assert_eq!(payout["money"], json!([0, 90_000, 0, 0]));
    assert!(
        payout["tables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["table"] != 8),
        "table 8 has no token"
    );
}

#[test]
fn worked_example_2_pays_15000_to_a_and_30000_to_d() {
    // Chips 15; Trap by D, Trap by A; tokens of A and B.
    let payout = play(
        "example2",
        [
            script(3, [card("trap", 3), card("raise", 8), card("bluff", 8)], 3),
            script(3, [card("raise", 8), card("bluff", 8), card("trap", 8)], 1),
            script(3, [card("raise", 8), card("bluff", 8), card("trap", 8)], 0),
            script(8, [card("trap", 3), card("raise", 8), card("bluff", 8)], 0),
        ],
    );
    let t3 = table(&payout, 3);
    assert_eq!(t3["value"], 15_000);
    assert_eq!(t3["paid"], json!([15_000, 0, 0, 30_000]));
    assert_eq!(payout["money"], json!([15_000, 0, 0, 30_000]));
}
