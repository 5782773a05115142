//! The rules of one trick, as pure functions of the cards played to it: which suit a hand must
//! follow, and which card wins. The engine enforces them, and the built-in heuristic bot reads
//! the trick with the same functions, so the two cannot drift apart.

use protocol::bouillabaisse::{Card, Played, Suit};

/// The suit a seat holding `hand` must play to `trick`: the led suit when the hand holds a card
/// of it; `None` when the seat leads or is void in the led suit (any card may then be played).
pub fn suit_to_follow(trick: &[Played], hand: &[Card]) -> Option<Suit> {
    let led = trick.first()?.card.suit;
    hand.iter().any(|c| c.suit == led).then_some(led)
}

/// The card winning `trick` so far: the highest of the led suit; of identical winning cards (two
/// decks), the one played first. `None` for an empty trick.
pub fn winning(trick: &[Played]) -> Option<Played> {
    let (first, rest) = trick.split_first()?;
    Some(rest.iter().fold(*first, |best, p| {
        if p.card.suit == first.card.suit && p.card.rank > best.card.rank {
            *p
        } else {
            best
        }
    }))
}
