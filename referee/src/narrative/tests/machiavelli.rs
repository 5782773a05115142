//! Machiavelli's narrative against the rules' examples (`docs/rules-machiavelli.md`): the
//! guide's four rearrangements ("The guide's examples") and the closing example of Ruling 12.
//! Each match starts from the example's position ([`Machiavelli::arranged`]); seat 0 sends the
//! example's plays, the other seats draw.

use super::*;
use engine::machiavelli::{Machiavelli, Options, Position, parse_cards};
use serde_json::json;

/// Seat 0's plays, each the melds of a `play`.
fn plays(tables: &[&[&[&str]]]) -> Vec<Reply> {
    tables
        .iter()
        .map(|t| Reply::play(json!({"play": t})))
        .collect()
}

/// The log of a match of `hands.len()` seats s0, s1, … from the position (hands by seat, the
/// table's melds separated by `|`), seat 0 playing first with `replies`, the others drawing.
async fn play(
    options: Options,
    hands: &[&str],
    table: &str,
    replies: Vec<Reply>,
) -> Vec<LogRecord> {
    let cards = |text: &str| parse_cards(text).expect("cards");
    let position = Position {
        hands: hands.iter().map(|h| cards(h)).collect(),
        table: table.split('|').map(cards).collect(),
        to_play: 0,
    };
    let game = Machiavelli::arranged(&options, hands.len(), 11, position).expect("a position");
    let mut scripts = vec![replies];
    scripts.resize(hands.len(), Vec::new());
    let players = scripts
        .into_iter()
        .enumerate()
        .map(|(seat, replies)| scripted(&format!("s{seat}"), replies))
        .collect();
    logged(game, &options, 11, players).await
}

/// The cards seat 0 drew as a penalty, from the line that tells them.
fn penalty_cards<'a>(lines: &[&'a str]) -> &'a str {
    let line = lines
        .iter()
        .find(|l| l.starts_with("s0 draws 3 cards as the penalty: "))
        .expect("a penalty");
    line.trim_start_matches("s0 draws 3 cards as the penalty: ")
        .trim_end_matches('.')
}

#[tokio::test(start_paused = true)]
async fn the_kings_queens_and_jacks_become_three_runs_to_lay_the_ace_of_clubs() {
    let records = play(
        Options::default(),
        &["AC 5D 9H", "2S 7H 8C"],
        "JC JD JH | QC QD QH | KC KD KH",
        plays(&[
            &[&["JC", "QC", "KC", "AC"]],
            &[
                &["JH", "QH", "KH"],
                &["JD", "QD", "KD"],
                &["JC", "QC", "KC", "AC"],
            ],
        ]),
    )
    .await;
    let story = told(&records, Perspective::Everything);
    assert!(
        section(&story, "Machiavelli")
            .contains(&"The table at the start: [JC JD JH] [QC QD QH] [KC KD KH].")
    );
    let hand = section(&story, "Hand 1");
    let drawn = penalty_cards(&hand);
    assert_eq!(drawn.split(' ').count(), 3);
    assert_eq!(
        hand[..7],
        [
            "s1 deals; s0 plays first.",
            "s0 is dealt 3 cards: AC 5D 9H.",
            "s1 is dealt 3 cards: 8C 7H 2S.",
            "s0's play is refused: JD was on the table and is missing from your table.",
            "The table it tried: [JC QC KC AC].",
            &format!("s0 draws 3 cards as the penalty: {drawn}."),
            hand[6],
        ]
    );
    assert!(hand[6].starts_with("s1 draws ") && !hand[6].contains("card"));
    assert_eq!(
        hand[7..9],
        [
            "s0 lays AC (5 cards left).",
            "The table: [JC QC KC AC] [JD QD KD] [JH QH KH].",
        ]
    );

    // Seat 1 hears that the play was refused and cost three cards; not why, not which.
    let other = told(&records, Perspective::Seat(1));
    let hand = section(&other, "Hand 1");
    assert_eq!(
        hand[..4],
        [
            "s1 deals; s0 plays first.",
            "s1 is dealt 3 cards: 8C 7H 2S.",
            "s0's play is refused; s0 draws 3 cards as the penalty.",
            hand[3],
        ]
    );
    assert!(hand[3].starts_with("s1 draws "));
    assert_eq!(hand[4], "s0 lays AC (5 cards left).");
    assert!(hand[6].starts_with("s1 draws "));
    assert_eq!(hand[7], "s0 draws 1 card.");
    let text = all_text(&other);
    assert!(!text.contains("JD was on the table") && !text.contains(drawn));
    assert!(!text.contains("AC 5D 9H") && !text.contains("tried"));
}

#[tokio::test(start_paused = true)]
async fn a_six_joins_a_set_to_free_another() {
    let records = play(
        Options::default(),
        &["6D 7S 8S 2H", "2S 7H 8C"],
        "6C 6H 6S",
        plays(&[&[&["6C", "6D", "6H"], &["6S", "7S", "8S"]]]),
    )
    .await;
    let story = told(&records, Perspective::Everything);
    let hand = section(&story, "Hand 1");
    assert_eq!(
        hand[3..5],
        [
            "s0 lays 6D 7S 8S (1 card left).",
            "The table: [6C 6D 6H] [6S 7S 8S].",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn the_nine_of_spades_leaving_the_queen_of_clubs_alone_is_refused_then_completed() {
    let records = play(
        Options::default(),
        &["9S QD QS 2H", "2S 7H 8C"],
        "10H 10D 10S | JH JD JS | QH QD QC",
        plays(&[
            &[
                &["10H", "JH", "QH"],
                &["10D", "JD", "QD"],
                &["9S", "10S", "JS"],
                &["QC"],
            ],
            &[
                &["10H", "JH", "QH"],
                &["10D", "JD", "QD"],
                &["9S", "10S", "JS"],
                &["QC", "QD", "QS"],
            ],
        ]),
    )
    .await;
    let story = told(&records, Perspective::Everything);
    assert!(
        section(&story, "Machiavelli")
            .contains(&"The table at the start: [QC QD QH] [10D 10H 10S] [JD JH JS].")
    );
    let hand = section(&story, "Hand 1");
    let drawn = penalty_cards(&hand);
    assert_eq!(
        hand[3..6],
        [
            "s0's play is refused: meld 4 (QC) has one card; a meld needs three.",
            "The table it tried: [10H JH QH] [10D JD QD] [9S 10S JS] [QC].",
            &format!("s0 draws 3 cards as the penalty: {drawn}."),
        ]
    );
    assert_eq!(
        hand[7..9],
        [
            "s0 lays QD 9S QS (4 cards left).",
            "The table: [QC QD QS] [10D JD QD] [10H JH QH] [9S 10S JS].",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_chain_of_moves_lays_the_seven_of_spades_and_the_nine_of_hearts() {
    let records = play(
        Options::default(),
        &["7S 9H 2C", "2S 7H 8C"],
        "7C 7D 7H | 10C 10H 10S | 8D 9D 10D | JH QH KH",
        plays(&[&[
            &["7C", "7H", "7S"],
            &["7D", "8D", "9D"],
            &["10C", "10D", "10S"],
            &["9H", "10H", "JH", "QH", "KH"],
        ]]),
    )
    .await;
    let story = told(&records, Perspective::Everything);
    let hand = section(&story, "Hand 1");
    assert_eq!(
        hand[3..5],
        [
            "s0 lays 9H 7S (1 card left).",
            "The table: [7C 7H 7S] [10C 10D 10S] [7D 8D 9D] [9H 10H JH QH KH].",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_closer_ends_the_hand_and_the_others_score_their_cards() {
    // Ruling 12's example: seat 0 closes; seat 1 holds 2C KD JK (37), seat 2 AH 5S (16), seat 3
    // 9C 9D 10H QS (38).
    let options = Options {
        jokers: true,
        ..Options::default()
    };
    let records = play(
        options,
        &["AC", "2C KD JK", "AH 5S", "9C 9D 10H QS"],
        "JC QC KC",
        plays(&[&[&["JC", "QC", "KC", "AC"]]]),
    )
    .await;
    let story = told(&records, Perspective::Everything);
    assert!(
        section(&story, "Machiavelli").contains(&"Options other than the defaults: jokers = true.")
    );
    let hand = section(&story, "Hand 1");
    assert_eq!(
        hand[5..],
        [
            "s0 lays AC and has no card left.",
            "The table: [JC QC KC AC].",
            "s0 has closed: hand 1 is over.",
            "s0: no card left, 0 points.",
            "s1 keeps 2C KD JK: 37 points.",
            "s2 keeps AH 5S: 16 points.",
            "s3 keeps 9C 9D 10H QS: 38 points.",
            "Totals: s0 0, s1 37, s2 16, s3 38.",
        ]
    );
    assert_eq!(
        section(&story, "Result"),
        [
            "1. s0: 0 points",
            "2. s2: 16 points",
            "3. s1: 37 points",
            "4. s3: 38 points",
            "No bot committed a fault.",
        ]
    );
}
