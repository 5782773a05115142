//! A match started from a position set by hand: the position is what the seats are dealt, the
//! rest of the deck is the stock, and a position the deck cannot hold is refused.

use super::{cards, melds};
use crate::machiavelli::{Machiavelli, Options, Position};
use crate::{Game, SetupError};
use protocol::machiavelli::{Action, True};

fn position(hands: &[&str], table: &str, to_play: usize) -> Position {
    Position {
        hands: hands.iter().map(|h| cards(h)).collect(),
        table: melds(table),
        to_play,
    }
}

fn refusal(result: Result<Machiavelli, SetupError>) -> String {
    match result {
        Err(SetupError::Options { message, .. }) => message,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn the_position_is_dealt_and_the_rest_of_the_deck_is_the_stock() {
    let start = position(
        &["AC 5D", "QS KS 2H", "9S"],
        "JH JD JC | QC QD QH | KC KD KH",
        1,
    );
    let game = Machiavelli::arranged(&Options::default(), 3, 4, start).unwrap();
    assert_eq!(
        game.hands,
        vec![cards("AC 5D"), cards("2H QS KS"), cards("9S")]
    );
    assert_eq!(game.table, melds("JC JD JH | QC QD QH | KC KD KH"));
    assert_eq!(game.stock.len(), 104 - 6 - 9);
    assert_eq!(game.to_move().unwrap().seat, 1);
    assert_eq!(game.dealer(), 0);
    // The stock holds the second AC and no more; its order comes from the seed.
    let aces = game.stock.iter().filter(|c| **c == cards("AC")[0]).count();
    assert_eq!(aces, 1);
    let again = position(
        &["AC 5D", "QS KS 2H", "9S"],
        "JH JD JC | QC QD QH | KC KD KH",
        1,
    );
    let other_seed = Machiavelli::arranged(&Options::default(), 3, 5, again).unwrap();
    assert_ne!(game.stock, other_seed.stock);
}

#[test]
fn the_match_goes_on_from_the_position() {
    let start = position(&["AC", "2D 3D"], "JC JD JH | QC QD QH | KC KD KH", 0);
    let mut game = Machiavelli::arranged(&Options::default(), 2, 1, start).unwrap();
    let mut events = Vec::new();
    let play = Action::Play(vec![
        vec!["JC".into(), "QC".into(), "KC".into(), "AC".into()],
        vec!["JD".into(), "QD".into(), "KD".into()],
        vec!["JH".into(), "QH".into(), "KH".into()],
    ]);
    game.play(&play, &mut events).unwrap();
    // Seat 0 laid its last card: the hand (and the one-hand match) is over, seat 1 pays 5.
    assert_eq!(game.outcome().unwrap().scores, vec![0, 5]);
    let mut game =
        Machiavelli::arranged(&Options::default(), 2, 1, position(&["AC", "2D 3D"], "", 1))
            .unwrap();
    game.play(&Action::Draw(True), &mut Vec::new()).unwrap();
    assert_eq!(game.hands[1].len(), 3);
}

#[test]
fn a_position_the_deck_cannot_hold_is_refused() {
    let options = Options::default();
    let arranged = |hands: &[&str], table: &str, to_play| {
        refusal(Machiavelli::arranged(
            &options,
            2,
            1,
            position(hands, table, to_play),
        ))
    };
    assert_eq!(
        arranged(&["AC", "AC", "AC"], "", 0),
        "the position has 3 hands for 2 players"
    );
    assert_eq!(
        arranged(&["AC", ""], "", 0),
        "a hand of the position is empty"
    );
    assert_eq!(arranged(&["AC", "2C"], "", 2), "there is no seat 2");
    assert_eq!(
        arranged(&["AC", "2C"], "5H 5D", 0),
        "a meld of the position's table is not valid"
    );
    assert_eq!(
        arranged(&["AC AC", "2C"], "AC AD AH", 0),
        "the position holds AC more often than the deck"
    );
    assert_eq!(
        arranged(&["JK", "2C"], "", 0),
        "the position holds JK more often than the deck"
    );
}
