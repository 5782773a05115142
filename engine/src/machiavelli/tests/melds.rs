//! One meld: sets, runs, jokers, the canonical order, and each fault.

use super::cards;
use crate::machiavelli::cards::Card;
use crate::machiavelli::meld::{MeldFault, check_meld};

fn valid(text: &str, limit: usize) -> String {
    let canonical = check_meld(&cards(text), limit).unwrap_or_else(|f| panic!("{text}: {f}"));
    canonical
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn fault(text: &str, limit: usize) -> String {
    match check_meld(&cards(text), limit) {
        Ok(c) => panic!("{text} is valid: {c:?}"),
        Err(f) => f.to_string(),
    }
}

#[test]
fn sets_are_three_or_four_of_a_rank_in_different_suits() {
    assert_eq!(valid("7S 7H 7D", 1), "7D 7H 7S");
    assert_eq!(valid("QS QC QH QD", 1), "QC QD QH QS");
    assert_eq!(
        fault("7H 7H 7S", 1),
        "has 7H twice; a set needs different suits"
    );
    assert_eq!(
        fault("7H 7D 7S 7C 7S", 1),
        "has 7S twice; a set needs different suits"
    );
    assert_eq!(
        fault("7H 7D 7S 7C JK", 1),
        "has 5 cards; a set has at most four"
    );
}

#[test]
fn a_meld_needs_three_cards() {
    assert_eq!(fault("", 1), "has no cards; a meld needs three");
    assert_eq!(fault("QC", 1), "has one card; a meld needs three");
    assert_eq!(fault("QC QD", 1), "has two cards; a meld needs three");
    assert_eq!(fault("JK", 1), "has one card; a meld needs three");
}

#[test]
fn runs_are_consecutive_cards_of_one_suit_the_ace_low_or_high() {
    assert_eq!(valid("5S 3S 4S", 1), "3S 4S 5S");
    assert_eq!(valid("2H AH 3H", 1), "AH 2H 3H");
    assert_eq!(valid("AH KH QH", 1), "QH KH AH");
    let all = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC";
    assert_eq!(valid(all, 1), all);
    assert_eq!(
        valid("KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD", 1),
        "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    );
    assert_eq!(
        fault("4S 5S 7S", 1),
        "is not a run: 6S is missing between 5S and 7S"
    );
    assert_eq!(
        fault("4S 5S 8S", 1),
        "is not a run: 6S is missing between 5S and 8S"
    );
    assert_eq!(fault("KS AS 2S", 1), "is not a run: K-A-2 wraps around");
    assert_eq!(
        fault("QS KS AS 2S 3S", 1),
        "is not a run: K-A-2 wraps around"
    );
    assert_eq!(
        fault("4S 5S 5S", 1),
        "has 5S twice; a run needs different ranks"
    );
    assert_eq!(
        fault(&format!("{all} AC"), 1),
        "has AC twice; a run needs different ranks"
    );
    assert_eq!(
        fault(&format!("{all} JK"), 1),
        "has 14 cards; a run has at most 13"
    );
    assert_eq!(fault("5H 5D 6H", 1), "is neither a set nor a run");
    assert_eq!(fault("5H 6D 7H", 1), "is neither a set nor a run");
}

#[test]
fn a_run_with_an_ace_is_refused_by_its_closest_hole_or_as_a_wrap_around() {
    assert_eq!(
        fault("AS 2S 3S QS KS", 1),
        "is not a run: K-A-2 wraps around"
    );
    assert_eq!(
        fault("AS 2S 3S 9S KS", 1),
        "is not a run: 4S is missing between 3S and 9S"
    );
    assert_eq!(
        fault("AS JS QS", 1),
        "is not a run: KS is missing between QS and AS"
    );
}

#[test]
fn jokers_stand_for_any_card_up_to_the_limit_per_meld() {
    assert_eq!(valid("4S JK 6S", 1), "4S JK 6S");
    assert_eq!(valid("7H JK 7S", 1), "7H 7S JK");
    assert_eq!(valid("JK QS KS", 1), "QS KS JK");
    assert_eq!(valid("JK JS QS KS", 1), "JS QS KS JK");
    assert_eq!(valid("AS JK 3S", 1), "AS JK 3S");
    assert_eq!(valid("AS JK KS", 1), "JK KS AS");
    assert_eq!(valid("AS 2S JK", 1), "AS 2S JK");
    assert_eq!(valid("JK 5H JK", 2), "5H JK JK");
    assert_eq!(valid("JK 5H JK JK JK", 4), "5H JK JK JK JK");
    assert_eq!(valid("JK 5H JK JK JK", 4).len(), "5H JK JK JK JK".len());
    assert_eq!(valid("9C JK 10C JK", 2), "9C 10C JK JK");
    // A run too high to extend upwards extends downwards.
    assert_eq!(valid("QD KD AD JK JK", 2), "JK JK QD KD AD");
    assert_eq!(valid("QD KD JK JK", 2), "JK QD KD JK");
    assert_eq!(valid("4S JK 7S JK", 2), "4S JK JK 7S");
    assert_eq!(fault("JK JK 4H", 1), "has 2 jokers; at most 1 per meld");
    assert_eq!(fault("JK JK JK", 3), "has only jokers");
    assert_eq!(
        fault("4S JK 8S", 1),
        "is not a run: 6S is missing between 4S and 8S"
    );
    assert_eq!(fault("KS AS JK 3S", 1), "is not a run: K-A-2 wraps around");
    // A joker standing for the ace goes round the corner as well.
    assert_eq!(fault("KS JK 2S", 1), "is not a run: K-A-2 wraps around");
    assert_eq!(fault("QS KS JK 2S", 1), "is not a run: K-A-2 wraps around");
    assert_eq!(
        fault("QS JK 3S", 1),
        "is not a run: 5S is missing between 3S and QS"
    );
    assert_eq!(
        fault("7H 7H JK", 1),
        "has 7H twice; a set needs different suits"
    );
}

#[test]
fn a_joker_cannot_make_a_fourteenth_card() {
    let all = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC";
    assert_eq!(valid(&format!("{all} JK"), 1), format!("{all} JK"));
    let top = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC";
    assert_eq!(valid(&format!("{top} JK"), 1), format!("{top} JK"));
    // Spare jokers go above first, up to a high ace, then below.
    let middle = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC";
    assert_eq!(
        valid(&format!("{middle} JK JK"), 2),
        format!("{middle} JK JK")
    );
    let low = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC";
    assert_eq!(valid(&format!("JK {low} JK"), 2), format!("{low} JK JK"));
    let middle = "3C 4C 5C 6C 7C 8C 9C 10C JC QC";
    assert_eq!(
        valid(&format!("JK {middle} JK JK"), 3),
        format!("JK {middle} JK JK")
    );
}

#[test]
fn the_faults_name_the_card() {
    assert_eq!(
        check_meld(&cards("4S 5S 7S"), 1),
        Err(MeldFault::Missing {
            card: Card::parse("6S").unwrap(),
            below: Card::parse("5S").unwrap(),
            above: Card::parse("7S").unwrap(),
        })
    );
}
