//! Vabanque's narrative against the rules' two worked examples (`docs/rules-vabanque.md`,
//! "Worked example 1/2"): four scripted seats A–D play round 1 so that table 3 pays out as the
//! example says (tokens of A and B there, every other card at table 8, where no token ever
//! stands), then play on with the first legal action.

use super::*;
use engine::vabanque::{Options, Vabanque};
use serde_json::json;

/// The rules' seed for the examples (4 players): seat 0, A, plays first, so the tokens start on
/// tables 0, 2, 4 and 6 (the first round's playing order is checked below).
const SEED: u64 = 2;

/// One seat's round 1: its first chip on `first` and the other three on table 8, its three
/// cards as `(card, table)` in pass order, and its move.
fn round_1(first: usize, cards: [(&str, usize); 3], steps: usize) -> Vec<Reply> {
    let mut replies: Vec<Reply> = (0..4)
        .map(|i| Reply::play(json!({"table": if i == 0 { first } else { 8 }})))
        .collect();
    replies.extend(
        cards
            .iter()
            .map(|(card, table)| Reply::play(json!({"card": card, "table": table}))),
    );
    replies.push(Reply::play(json!({"steps": steps})));
    replies
}

/// The log of the match whose round 1 the seats A–D play as `scripts` say.
async fn play(scripts: [Vec<Reply>; 4]) -> Vec<LogRecord> {
    let options = Options::default();
    let game = Vabanque::new(&options, 4, SEED).unwrap();
    let players = ["A", "B", "C", "D"]
        .iter()
        .zip(scripts)
        .map(|(name, replies)| scripted(name, replies))
        .collect();
    logged(game, &options, SEED, players).await
}

/// Example 1: chips 15 at table 3; a raise by A and by C, a bluff by D, a trap by B; the
/// tokens of A and B.
fn example_1() -> [Vec<Reply>; 4] {
    [
        round_1(3, [("raise", 3), ("bluff", 8), ("trap", 8)], 3),
        round_1(3, [("trap", 3), ("raise", 8), ("bluff", 8)], 1),
        round_1(3, [("raise", 3), ("bluff", 8), ("trap", 8)], 0),
        round_1(8, [("bluff", 3), ("raise", 8), ("trap", 8)], 0),
    ]
}

/// Example 2: chips 15 at table 3; a trap by D and by A; the tokens of A and B.
fn example_2() -> [Vec<Reply>; 4] {
    [
        round_1(3, [("trap", 3), ("raise", 8), ("bluff", 8)], 3),
        round_1(3, [("raise", 8), ("bluff", 8), ("trap", 8)], 1),
        round_1(3, [("raise", 8), ("bluff", 8), ("trap", 8)], 0),
        round_1(8, [("trap", 3), ("raise", 8), ("bluff", 8)], 0),
    ]
}

/// The chip lines of round 1: A, B and C put their first chip on table 3, D on table 8, and
/// every other chip goes to table 8.
fn chip_lines() -> Vec<String> {
    let mut lines = Vec::new();
    let (mut on_3, mut on_8) = (0, 0);
    for pass in 0..4 {
        for name in ["A", "B", "C", "D"] {
            let table = if pass == 0 && name != "D" { 3 } else { 8 };
            let total = if table == 3 {
                on_3 += 5;
                on_3
            } else {
                on_8 += 5;
                on_8
            };
            lines.push(format!(
                "{name} puts a chip of 5 on table {table} ({total} in chips there)."
            ));
        }
    }
    lines
}

#[tokio::test(start_paused = true)]
async fn worked_example_1_is_told_as_the_rules_tell_it() {
    let records = play(example_1()).await;
    let story = told(&records, Perspective::Everything);
    assert_eq!(
        section(&story, "Vabanque"),
        [
            "A (seat 0): script:A.",
            "B (seat 1): script:B.",
            "C (seat 2): script:C.",
            "D (seat 3): script:D.",
            "The score is money; higher is better.",
            "9 tables in a circle, 0 to 8. The tokens start on the tables: A 0, B 2, C 4, D 6.",
        ]
    );
    let mut expected = vec!["Playing order: A, B, C and D.".to_string()];
    expected.extend(chip_lines());
    expected.extend(
        [
            "A places a raise face down at table 3.",
            "B places a trap face down at table 3.",
            "C places a raise face down at table 3.",
            "D places a bluff face down at table 3.",
            "A places a bluff face down at table 8.",
            "B places a raise face down at table 8.",
            "C places a bluff face down at table 8.",
            "D places a raise face down at table 8.",
            "A places a trap face down at table 8.",
            "B places a bluff face down at table 8.",
            "C places a trap face down at table 8.",
            "D places a trap face down at table 8.",
            "A moves its token 3 tables clockwise, from table 0 to table 3.",
            "B moves its token 1 table clockwise, from table 2 to table 3.",
            "C leaves its token on table 4.",
            "D leaves its token on table 6.",
            "Payout of round 1:",
            // The example: two raises, 15 × (1 + 2) × 1,000; B's own trap does not block B's
            // token, and catches A's: B 45,000 + 45,000, A nothing.
            "Table 3: 15 in chips, worth 45,000; the tokens of A and B.",
            "Cards turned up: A's raise, B's trap, C's raise, D's bluff.",
            "Paid: B 90,000, A nothing.",
            "Table 4: 0 in chips, worth 0; the token of C.",
            "No card there.",
            "Paid: C nothing.",
            "Table 6: 0 in chips, worth 0; the token of D.",
            "No card there.",
            "Paid: D nothing.",
            "Table 8 has no token: its cards stay face down for ever (A's bluff, B's raise, C's bluff, D's raise, A's trap, B's bluff, C's trap, D's trap).",
            "Money: A 0, B 90,000, C 0, D 0.",
        ]
        .map(String::from),
    );
    assert_eq!(section(&story, "Round 1: chips worth 5"), expected);
    // The rules' next playing order: B richest, then the tied A, C, D reversed.
    assert_eq!(
        section(&story, "Round 2: chips worth 10")[0],
        "Playing order: B, D, C and A."
    );
    let headings: Vec<String> = story.sections.iter().map(|s| s.heading.clone()).collect();
    assert_eq!(
        headings,
        [
            "Vabanque, match told (seed 2)",
            "Round 1: chips worth 5",
            "Round 2: chips worth 10",
            "Round 3: chips worth 20",
            "Round 4: chips worth 50",
            "Result",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn worked_example_2_is_told_as_the_rules_tell_it() {
    let records = play(example_2()).await;
    let story = told(&records, Perspective::Everything);
    let round = section(&story, "Round 1");
    let payout = round
        .iter()
        .position(|l| *l == "Payout of round 1:")
        .unwrap();
    assert_eq!(
        round[payout..payout + 4],
        [
            "Payout of round 1:",
            // No raise: 15,000. Both tokens are blocked; A's trap catches B's token, D's both.
            "Table 3: 15 in chips, worth 15,000; the tokens of A and B.",
            "Cards turned up: A's trap, D's trap.",
            "Paid: A 15,000, D 30,000, B nothing.",
        ]
    );
    assert_eq!(round.last(), Some(&"Money: A 15,000, B 0, C 0, D 30,000."));
    assert_eq!(
        section(&story, "Round 2")[0],
        "Playing order: D, A, C and B."
    );
}

/// The lines of `story` that name a card's type, with every mention the seat `me` may know
/// taken out: its own cards, and the cards a payout turned up.
fn types_left(story: &Narrative, me: &str) -> Vec<String> {
    story
        .lines()
        .filter(|l| !l.text.starts_with("Cards turned up:"))
        .map(|l| {
            let mut text = l.text.clone();
            for card in ["raise", "bluff", "trap"] {
                text = text
                    .replace(&format!("{me}'s {card}"), "")
                    .replace(&format!("{me} places a {card}"), "");
            }
            text
        })
        .filter(|t| ["raise", "bluff", "trap"].iter().any(|c| t.contains(c)))
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_seat_never_learns_the_type_of_a_card_that_stays_face_down() {
    let records = play(example_1()).await;
    // Told in full, the cards of table 8 are named (the test would prove nothing otherwise).
    let everything = told(&records, Perspective::Everything);
    assert!(!types_left(&everything, "A").is_empty());
    let c = told(&records, Perspective::Seat(2));
    let round = section(&c, "Round 1");
    assert!(round.contains(&"A places a card face down at table 3."));
    assert!(round.contains(&"C places a raise face down at table 3."));
    assert!(round.contains(
        &"Table 8 has no token: its cards stay face down for ever (A's card, B's card, C's bluff, D's card, A's card, B's card, C's trap, D's card)."
    ));
    for (seat, name) in ["A", "B", "C", "D"].iter().enumerate() {
        let story = told(&records, Perspective::Seat(seat));
        assert_eq!(
            types_left(&story, name),
            Vec::<String>::new(),
            "seat {seat}"
        );
    }
}
