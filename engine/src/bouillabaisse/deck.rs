//! The cards of a match: one or two decks, the cards removed so that hands are equal, the deal,
//! and the draw of the chosen suit, face rank and card. All chance comes from the match seed.

use crate::seed;
use protocol::bouillabaisse::{ACE, Card, Chosen, FACE_RANKS, LOWEST_RANK, Suit};
use rand::RngExt;
use rand::seq::SliceRandom;

/// The decks played by default: one for 2 to 6 players, two for 7 to 12.
pub fn default_decks(players: usize) -> u8 {
    if players <= 6 { 1 } else { 2 }
}

/// Every card of `decks` decks in removal order: lowest rank first; within a rank clubs,
/// diamonds, hearts, spades; with two decks all four suits of a rank once before a second copy.
pub fn all_cards(decks: u8) -> Vec<Card> {
    (LOWEST_RANK..=ACE)
        .flat_map(|rank| {
            (0..decks)
                .flat_map(move |_| Suit::ALL.into_iter().map(move |suit| Card::new(rank, suit)))
        })
        .collect()
}

/// Splits the cards into those removed before the deal (the first `cards mod players` in removal
/// order; public) and those in play.
pub fn trim(decks: u8, players: usize) -> (Vec<Card>, Vec<Card>) {
    let mut cards = all_cards(decks);
    let in_play = cards.split_off(cards.len() % players);
    (cards, in_play)
}

/// Sorts a hand by suit, then rank.
pub fn sort_hand(hand: &mut [Card]) {
    hand.sort_by_key(|c| (c.suit, c.rank));
}

/// Deals `in_play` for `manche` (1 to 6): shuffled from the match seed, one card at a time
/// clockwise from the dealer's left. Returns the hands by seat, each sorted.
pub fn deal(
    in_play: &[Card],
    players: usize,
    dealer: usize,
    match_seed: u64,
    manche: u32,
) -> Vec<Vec<Card>> {
    let mut cards = in_play.to_vec();
    cards.shuffle(&mut seed::rng(match_seed, "deal", u64::from(manche)));
    let mut hands = vec![Vec::with_capacity(cards.len() / players); players];
    for (i, card) in cards.into_iter().enumerate() {
        hands[(dealer + 1 + i) % players].push(card);
    }
    for hand in &mut hands {
        sort_hand(hand);
    }
    hands
}

/// Draws the chosen suit, face rank (J, Q or K) and card (among the distinct cards in play),
/// each uniformly, from stream `index` of the match seed (0 for the whole match; the manche's
/// number when they are redrawn every manche).
pub fn draw_chosen(in_play: &[Card], match_seed: u64, index: u64) -> Chosen {
    let mut rng = seed::rng(match_seed, "chosen", index);
    let mut distinct = in_play.to_vec();
    distinct.sort();
    distinct.dedup();
    Chosen {
        suit: Suit::ALL[rng.random_range(0..Suit::ALL.len())],
        rank: FACE_RANKS[rng.random_range(0..FACE_RANKS.len())],
        card: distinct[rng.random_range(0..distinct.len())],
    }
}
