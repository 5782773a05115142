//! A match that starts from a position set by hand instead of the seed's first deal: the hands,
//! the table and the seat to play are given, the rest of the deck is the stock (shuffled from the
//! seed). For tests through the real protocol (the guide's examples), puzzles and analysis.

use super::Machiavelli;
use super::cards::{Card, card_of_index, counts, deck};
use super::table::canonical;
use crate::{Game, SetupError};
use protocol::machiavelli::Options;
use rand::seq::SliceRandom;

/// The first hand's position: what each seat holds, what lies on the table, who plays first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Each seat's cards, by seat (one hand per player; any sizes).
    pub hands: Vec<Vec<Card>>,
    /// The melds on the table; each must be valid.
    pub table: Vec<Vec<Card>>,
    /// The seat to play first (the dealer is the seat before it).
    pub to_play: usize,
}

impl Machiavelli {
    /// A match of `players` whose first hand starts at `position`; the cards neither in a hand
    /// nor on the table are the stock, shuffled from `seed`. Later hands, if the options ask for
    /// more than one, are dealt from the seed as in [`Game::new`].
    ///
    /// The log of such a match names only the seed and options, so `referee replay` would
    /// replay the seed's deal, not this position.
    ///
    /// # Errors
    /// [`SetupError`] when the options or player count are refused as by [`Game::new`], the
    /// position has not one hand per player or an empty one, the seat to play does not exist, a meld of the
    /// table is not valid, or the position holds a card more often than the deck does.
    pub fn arranged(
        options: &Options,
        players: usize,
        seed: u64,
        position: Position,
    ) -> Result<Self, SetupError> {
        let mut game = Machiavelli::new(options, players, seed)?;
        let refuse = |message: String| SetupError::Options {
            game: Self::NAME,
            message,
        };
        if position.hands.len() != players {
            return Err(refuse(format!(
                "the position has {} hands for {players} players",
                position.hands.len()
            )));
        }
        if position.hands.iter().any(Vec::is_empty) {
            return Err(refuse("a hand of the position is empty".into()));
        }
        if position.to_play >= players {
            return Err(refuse(format!("there is no seat {}", position.to_play)));
        }
        let limit = options.jokers_per_meld as usize;
        let table = canonical(&position.table, limit)
            .ok_or_else(|| refuse("a meld of the position's table is not valid".into()))?;
        let mut stock = deck(options.jokers);
        let used = counts(position.hands.iter().chain(&position.table).flatten());
        let available = counts(&stock);
        if let Some(i) = (0..used.len()).find(|&i| used[i] > available[i]) {
            return Err(refuse(format!(
                "the position holds {} more often than the deck",
                card_of_index(i)
            )));
        }
        let mut left = used;
        stock.retain(|card| {
            let n = &mut left[card.index()];
            let keep = *n == 0;
            *n = n.saturating_sub(1);
            keep
        });
        stock.shuffle(&mut crate::seed::rng(seed, "position stock", 0));
        game.hands = position.hands;
        for hand in &mut game.hands {
            hand.sort_unstable();
        }
        game.deals = vec![game.hands.clone()];
        game.table = table;
        game.stock = stock;
        game.to_play = position.to_play;
        game.first_dealer = (position.to_play + players - 1) % players;
        Ok(game)
    }
}

/// The cards written in `text` (`"QH 10S JK"`), or the first word that is not a card.
///
/// # Errors
/// The word that is not a card.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, String> {
    text.split_whitespace()
        .map(|word| Card::parse(word).ok_or_else(|| word.to_string()))
        .collect()
}
