//! A submitted table: the checks 1–5 in order, their exact messages, and the guide's examples.

use super::{cards, melds, written};
use crate::machiavelli::table::check_table;

/// The message for playing `submitted` on `old` with `hand`, or the new table written back.
fn play(submitted: &str, old: &str, hand: &str, limit: usize) -> Result<String, String> {
    let new = check_table(&written(submitted), &melds(old), &cards(hand), limit)?;
    Ok(new
        .table
        .iter()
        .map(|m| {
            m.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" | "))
}

#[test]
fn the_guides_kings_queens_and_jacks_become_three_runs_to_lay_the_ace_of_clubs() {
    let old = "KH KD KC | QH QD QC | JH JD JC";
    let new = check_table(
        &written("JH QH KH | JD QD KD | JC QC KC AC"),
        &melds(old),
        &cards("AC 5D"),
        1,
    )
    .unwrap();
    assert_eq!(new.from_hand, cards("AC"));
    assert_eq!(
        play("JH QH KH | JD QD KD | JC QC KC AC", old, "AC 5D", 1).unwrap(),
        "JC QC KC AC | JD QD KD | JH QH KH"
    );
}

#[test]
fn the_guides_nine_of_spades_leaving_the_queen_of_clubs_alone_is_refused() {
    let old = "10H 10D 10S | JH JD JS | QH QD QC";
    assert_eq!(
        play("10H JH QH | 10D JD QD | 9S 10S JS | QC", old, "9S QD QS", 1),
        Err("meld 4 (QC) has one card; a meld needs three".into())
    );
    // Completed with the queens of diamonds and spades from the hand, it holds.
    assert_eq!(
        play(
            "10H JH QH | 10D JD QD | 9S 10S JS | QC QD QS",
            old,
            "9S QD QS",
            1
        )
        .unwrap(),
        "QC QD QS | 10D JD QD | 10H JH QH | 9S 10S JS"
    );
}

#[test]
fn check_1_a_string_that_is_not_a_card() {
    assert_eq!(
        play("QH QS 1X | 2S 3S", "", "QH QS", 1),
        Err("\"1X\" is not a card".into())
    );
    // Before anything else: the missing queen of clubs is not reported.
    assert_eq!(
        play("qh QS QD", "QC QD QH", "QS", 1),
        Err("\"qh\" is not a card".into())
    );
    let long = "X".repeat(40);
    assert_eq!(
        play(&long, "", "", 1),
        Err("\"XXXXXXXXXXXX\"... is not a card".into())
    );
}

#[test]
fn check_2_every_card_of_the_table_stays_the_first_missing_in_card_order() {
    assert_eq!(
        play("QH QS QD", "QC QD QH", "QS", 1),
        Err("QC was on the table and is missing from your table".into())
    );
    assert_eq!(
        play("5H 6H 7H", "QS QD QC | 3C 4C 5C", "5H 6H 7H", 1),
        Err("3C was on the table and is missing from your table".into())
    );
    // Two copies on the table, one on the new table: the second is missing.
    assert_eq!(
        play("QC QD QH | 3C 4C 5C", "QC QD QH | QC QD QS", "3C 4C 5C", 1),
        Err("a second QC was on the table and is missing from your table".into())
    );
}

#[test]
fn check_3_every_other_card_comes_from_the_hand_copies_counting() {
    assert_eq!(
        play("5H 6H 7H", "", "6H 7H", 1),
        Err("5H is not in your hand".into())
    );
    assert_eq!(
        play("5H 6H 7H | 5H 5D 5S", "", "5H 6H 7H 5D 5S", 1),
        Err("a second 5H is not in your hand".into())
    );
    assert_eq!(
        play(
            "5H 6H JK | 5D JK 5S | 5C 6C JK",
            "",
            "5H 6H JK JK 5D 5S 5C 6C",
            1
        ),
        Err("a third JK is not in your hand".into())
    );
    // A copy on the table and one in the hand allow two.
    assert!(play("5H 6H 7H | 5H 5D 5S", "5D 5H 5S", "5H 6H 7H", 1).is_ok());
}

#[test]
fn check_4_a_play_adds_a_card_from_the_hand() {
    assert_eq!(
        play("QC QD QH", "QC QD QH", "5H", 1),
        Err("your table adds no card from your hand".into())
    );
    // Rearranging alone is not a play.
    assert_eq!(
        play(
            "JH QH KH | JD QD KD | JC QC KC",
            "KH KD KC | QH QD QC | JH JD JC",
            "AC",
            1
        ),
        Err("your table adds no card from your hand".into())
    );
    assert_eq!(
        play("", "", "5H", 1),
        Err("your table adds no card from your hand".into())
    );
}

#[test]
fn check_5_each_meld_in_the_order_submitted_as_written() {
    assert_eq!(
        play("QC QD QH | 7H 7H 7S", "", "QC QD QH 7H 7H 7S", 1),
        Err("meld 2 (7H 7H 7S) has 7H twice; a set needs different suits".into())
    );
    assert_eq!(
        play(
            "QC QD QH | 2C 3C 4C | 4S 5S 7S | 5H 5D 6H",
            "",
            "QC QD QH 2C 3C 4C 4S 5S 7S 5H 5D 6H",
            1
        ),
        Err("meld 3 (4S 5S 7S) is not a run: 6S is missing between 5S and 7S".into())
    );
    assert_eq!(
        play("KS AS 2S", "", "KS AS 2S", 1),
        Err("meld 1 (KS AS 2S) is not a run: K-A-2 wraps around".into())
    );
    assert_eq!(
        play(
            "QC QD QH | AC 2C 3C | 2D 3D 4D | 5S 6S 7S | JK JK 4H",
            "",
            "QC QD QH AC 2C 3C 2D 3D 4D 5S 6S 7S JK JK 4H",
            1
        ),
        Err("meld 5 (JK JK 4H) has 2 jokers; at most 1 per meld".into())
    );
    assert_eq!(
        play("QC QD QH | 5H 5D 6H", "", "QC QD QH 5H 5D 6H", 1),
        Err("meld 2 (5H 5D 6H) is neither a set nor a run".into())
    );
    assert_eq!(
        play(
            "QC QD QH | 2C 3C 4C | 5C 6C 7C | QC",
            "QC QD QH",
            "QC 2C 3C 4C 5C 6C 7C",
            1
        ),
        Err("meld 4 (QC) has one card; a meld needs three".into())
    );
    assert_eq!(
        play("JK JK JK", "", "JK JK JK", 3),
        Err("meld 1 (JK JK JK) has only jokers".into())
    );
    // Cards appear as written and in the meld's order.
    assert_eq!(
        play("7S 5S 4S", "", "7S 5S 4S", 1),
        Err("meld 1 (7S 5S 4S) is not a run: 6S is missing between 5S and 7S".into())
    );
}

#[test]
fn a_valid_table_is_canonical_whatever_the_order() {
    let old = "3C 4C 5C";
    let a = play("6C 5C 4C 3C | 9H 9S 9D", old, "6C 9D 9H 9S", 1).unwrap();
    let b = play("9S 9D 9H | 3C 4C 5C 6C", old, "6C 9D 9H 9S", 1).unwrap();
    assert_eq!(a, b);
    assert_eq!(a, "3C 4C 5C 6C | 9D 9H 9S");
}

#[test]
fn jokers_stay_on_the_table_but_may_move_between_melds() {
    // Taking the joker back into the hand is leaving a table card out.
    assert_eq!(
        play("4S 5S 6S | 9H 9D 9C", "4S JK 6S", "5S 9H 9D 9C", 1),
        Err("JK was on the table and is missing from your table".into())
    );
    // Replacing it with the card it stood for and using it elsewhere holds.
    assert_eq!(
        play("4S 5S 6S | 9H 9D JK", "4S JK 6S", "5S 9H 9D", 1).unwrap(),
        "9D 9H JK | 4S 5S 6S"
    );
}
