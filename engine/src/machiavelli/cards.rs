//! Machiavelli's cards: the deck (two French decks, plus four jokers when they are on), the
//! points a card left in hand costs, and counting arrays indexed by card. The card type itself
//! and its wire form are in [`protocol::machiavelli`].

pub use protocol::machiavelli::{ACE, Card, DISTINCT_CARDS, KING, Suit};

/// How many copies of each card a collection holds, indexed by [`Card::index`].
pub type Counts = [u32; DISTINCT_CARDS];

/// The ace when it ends a run Q-K-A: rank 14 in run arithmetic (below 2 it is [`ACE`], 1).
pub const HIGH_ACE: u8 = 14;

/// The card of run rank `rank` (1 to [`HIGH_ACE`]) in `suit`.
pub fn run_card(rank: u8, suit: Suit) -> Card {
    Card::new(if rank == HIGH_ACE { ACE } else { rank }, suit)
}

/// The card of counting index `i` (below [`DISTINCT_CARDS`]).
pub fn card_of_index(i: usize) -> Card {
    Card::from_index(i).expect("an index below DISTINCT_CARDS")
}

/// The jokers added when the `jokers` option is on.
pub const JOKERS: usize = 4;

/// Every card of the game, sorted: two copies of each of the 52 cards, then the jokers if any
/// (104 or 108 cards).
pub fn deck(jokers: bool) -> Vec<Card> {
    let mut cards: Vec<Card> = Suit::ALL
        .into_iter()
        .flat_map(|suit| (ACE..=KING).flat_map(move |rank| [Card::new(rank, suit); 2]))
        .collect();
    if jokers {
        cards.extend([Card::JOKER; JOKERS]);
    }
    cards
}

/// The points a card left in hand costs: 2 to 10 their face value, J, Q and K 10, the ace 11,
/// the joker 25.
pub fn points(card: Card) -> i64 {
    match card.rank() {
        None => 25,
        Some(ACE) => 11,
        Some(rank) => i64::from(rank.min(10)),
    }
}

/// The points of a hand.
pub fn hand_points(cards: &[Card]) -> i64 {
    cards.iter().copied().map(points).sum()
}

/// How many copies of each card `cards` holds.
pub fn counts<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Counts {
    let mut counts = [0; DISTINCT_CARDS];
    for card in cards {
        counts[card.index()] += 1;
    }
    counts
}

/// The cards of `counts`, sorted (suit C, D, H, S, then rank A..K, jokers last).
pub fn cards_of(counts: &Counts) -> Vec<Card> {
    counts
        .iter()
        .enumerate()
        .flat_map(|(i, &n)| std::iter::repeat_n(card_of_index(i), n as usize))
        .collect()
}
