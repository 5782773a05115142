//! The suit of a French deck, shared by the card games: one type, one wire letter.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A suit, in sorting order: clubs, diamonds, hearts, spades (also La Bouillabaisse's order of
/// removing cards).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Suit {
    /// Clubs (`C`).
    #[serde(rename = "C")]
    Clubs,
    /// Diamonds (`D`).
    #[serde(rename = "D")]
    Diamonds,
    /// Hearts (`H`).
    #[serde(rename = "H")]
    Hearts,
    /// Spades (`S`).
    #[serde(rename = "S")]
    Spades,
}

impl Suit {
    /// The four suits, in sorting order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's letter on the wire.
    pub fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The suit written `letter`, if any.
    pub fn from_letter(letter: char) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| s.letter() == letter)
    }
}
