//! What each manche counts, and the points of the cards a seat takes.

use protocol::bouillabaisse::{Card, Chosen, Scoring};

/// Points per trick (manches 1, 5, 6).
pub const TRICK_POINTS: i64 = 5;
/// Points per card of the chosen suit (manches 2, 5, 6).
pub const SUIT_POINTS: i64 = 10;
/// Points per card of the chosen face rank (manches 3, 5, 6).
pub const RANK_POINTS: i64 = 50;
/// Points per copy of the chosen card (manches 4, 5, 6).
pub const CARD_POINTS: i64 = 200;

/// What each item scores in `manche` (1 to 6): one item in manches 1 to 4, all of them in 5,
/// all of them subtracted in 6.
pub fn scoring(manche: u32) -> Scoring {
    let none = Scoring {
        trick: 0,
        suit: 0,
        rank: 0,
        card: 0,
    };
    let all = Scoring {
        trick: TRICK_POINTS,
        suit: SUIT_POINTS,
        rank: RANK_POINTS,
        card: CARD_POINTS,
    };
    match manche {
        1 => Scoring {
            trick: TRICK_POINTS,
            ..none
        },
        2 => Scoring {
            suit: SUIT_POINTS,
            ..none
        },
        3 => Scoring {
            rank: RANK_POINTS,
            ..none
        },
        4 => Scoring {
            card: CARD_POINTS,
            ..none
        },
        5 => all,
        6 => Scoring {
            trick: -TRICK_POINTS,
            suit: -SUIT_POINTS,
            rank: -RANK_POINTS,
            card: -CARD_POINTS,
        },
        _ => none,
    }
}

/// The points `card` carries under `scoring` (a card can score several ways at once).
pub fn card_points(card: Card, chosen: &Chosen, scoring: &Scoring) -> i64 {
    let mut points = 0;
    if card.suit == chosen.suit {
        points += scoring.suit;
    }
    if card.rank == chosen.rank {
        points += scoring.rank;
    }
    if card == chosen.card {
        points += scoring.card;
    }
    points
}

/// The points of a trick made of `cards`: the trick itself and every card in it.
pub fn trick_points(
    cards: impl IntoIterator<Item = Card>,
    chosen: &Chosen,
    scoring: &Scoring,
) -> i64 {
    scoring.trick
        + cards
            .into_iter()
            .map(|card| card_points(card, chosen, scoring))
            .sum::<i64>()
}

/// The all-or-nothing variant: whether taking every item of this kind in `manche` reverses the
/// sign, and which items count. Manches 1 and 5 count tricks, 2 the chosen suit's cards, 3 the
/// chosen face rank's cards; 4 and 6 have no such reversal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    /// Every trick of the manche.
    Tricks,
    /// Every card of the chosen suit in play.
    Suit,
    /// Every card of the chosen face rank in play.
    Rank,
}

/// The sweep that reverses a manche's points under the all-or-nothing variant, if any.
pub fn sweep(manche: u32) -> Option<Sweep> {
    match manche {
        1 | 5 => Some(Sweep::Tricks),
        2 => Some(Sweep::Suit),
        3 => Some(Sweep::Rank),
        _ => None,
    }
}
