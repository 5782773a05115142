//! Machiavelli's tests: a test per ruling.

mod bots;
mod melds;
mod position;
mod props;
mod tables;
mod turns;

use super::cards::Card;
use super::parse_cards;

/// The cards written in `text`, separated by spaces.
pub(super) fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap_or_else(|word| panic!("{word} is a card"))
}

/// The melds written in `text`, separated by `|`.
pub(super) fn melds(text: &str) -> Vec<Vec<Card>> {
    text.split('|')
        .filter(|m| !m.trim().is_empty())
        .map(cards)
        .collect()
}

/// The table written in `text` as a bot would send it: melds separated by `|`.
pub(super) fn written(text: &str) -> Vec<Vec<String>> {
    text.split('|')
        .map(|m| m.split_whitespace().map(String::from).collect())
        .collect()
}
