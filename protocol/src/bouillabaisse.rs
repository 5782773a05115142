//! La Bouillabaisse's game-specific messages: the view a seat receives, the action it sends and
//! the events it is told about. The rules are in `docs/rules-bouillabaisse.md`, these messages on
//! the wire in `docs/protocol-bouillabaisse.md`.
//!
//! A card is a two-character string on the wire: the rank (`2`–`9`, `T` for 10, `J`, `Q`, `K`,
//! `A`) then the suit (`C` clubs, `D` diamonds, `H` hearts, `S` spades), e.g. `"TH"` or `"QS"`.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

pub use crate::suit::Suit;

/// The lowest rank (2).
pub const LOWEST_RANK: u8 = 2;
/// The highest rank (the ace, 14).
pub const ACE: u8 = 14;
/// The face ranks that can be chosen: jack (11), queen (12), king (13).
pub const FACE_RANKS: [u8; 3] = [11, 12, 13];
const RANK_LETTERS: &[u8; 13] = b"23456789TJQKA";

/// A playing card: a rank from 2 (low) to 14 (the ace, high) and a suit. Ordered by rank, then
/// suit; on the wire a two-character string such as `"TH"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    /// 2 to 10, then 11 jack, 12 queen, 13 king, 14 ace.
    pub rank: u8,
    /// The suit.
    pub suit: Suit,
}

impl Card {
    /// The card of `rank` (2 to 14) and `suit`.
    pub const fn new(rank: u8, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// Reads a card's wire form (`"QS"`); `None` if it is not one.
    pub fn parse(text: &str) -> Option<Card> {
        let mut chars = text.chars();
        let (rank, suit, rest) = (chars.next()?, chars.next()?, chars.next());
        if rest.is_some() {
            return None;
        }
        let rank = RANK_LETTERS.iter().position(|&r| char::from(r) == rank)? as u8 + LOWEST_RANK;
        Some(Card::new(rank, Suit::from_letter(suit)?))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = RANK_LETTERS[usize::from(self.rank - LOWEST_RANK)];
        write!(f, "{}{}", char::from(rank), self.suit.letter())
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rank = RANK_LETTERS[usize::from(self.rank - LOWEST_RANK)];
        let text = [rank, self.suit.letter() as u8];
        serializer.serialize_str(std::str::from_utf8(&text).expect("ASCII"))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CardText;
        impl serde::de::Visitor<'_> for CardText {
            type Value = Card;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card such as \"QS\" (rank 2-9, T, J, Q, K, A; suit C, D, H, S)")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Card, E> {
                Card::parse(text)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(text), &self))
            }
        }
        deserializer.deserialize_str(CardText)
    }
}

impl JsonSchema for Card {
    fn schema_name() -> Cow<'static, str> {
        "Card".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A card: rank (2-9, T, J, Q, K, A) then suit (C, D, H, S), e.g. \"TH\".",
            "type": "string",
            "pattern": "^[2-9TJQKA][CDHS]$"
        })
    }
}

/// The one decision of the game: the card to play to the current trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// A card from the hand; it must follow the led suit when the hand holds that suit.
    pub card: Card,
}

/// The chosen suit, face rank and card that score in manches 2 to 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Chosen {
    /// Every card of this suit scores in manches 2, 5 and 6.
    pub suit: Suit,
    /// Every card of this face rank (11 jack, 12 queen, 13 king) scores in manches 3, 5 and 6.
    #[schemars(range(min = 11, max = 13))]
    pub rank: u8,
    /// Every copy of this card scores in manches 4, 5 and 6.
    pub card: Card,
}

/// What each scoring item is worth in the current manche (0 when it does not score; negative in
/// manche 6). A card can score several ways at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Scoring {
    /// Per trick taken.
    pub trick: i64,
    /// Per card of the chosen suit taken.
    pub suit: i64,
    /// Per card of the chosen face rank taken.
    pub rank: i64,
    /// Per copy of the chosen card taken.
    pub card: i64,
}

/// A card played to a trick, and by whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Played {
    /// The seat that played it.
    pub seat: usize,
    /// The card.
    pub card: Card,
}

/// Everything one seat may know, sent with every request. Seats are 0-based, in clockwise
/// order; every per-seat list is indexed by seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct View {
    /// The receiving seat.
    pub you: usize,
    /// Number of players.
    pub players: usize,
    /// Number of decks in play (1 or 2).
    #[schemars(range(min = 1, max = 2))]
    pub decks: u8,
    /// The manche, 1 to 6.
    pub manche: u32,
    /// This manche's dealer.
    pub dealer: usize,
    /// The seat that led the current trick.
    pub leader: usize,
    /// The trick number within the manche, from 1.
    pub trick_number: u32,
    /// The current trick so far, in the order played (empty: the receiving seat leads).
    pub trick: Vec<Played>,
    /// The receiving seat's hand, sorted by suit then rank.
    pub hand: Vec<Card>,
    /// The chosen suit, face rank and card.
    pub chosen: Chosen,
    /// What each item scores in this manche.
    pub scoring: Scoring,
    /// Cards removed before the deal so that hands are equal (public; the same every manche).
    pub removed: Vec<Card>,
    /// Cards of this manche's finished tricks, in the order played.
    pub played: Vec<Played>,
    /// Tricks each seat has taken this manche.
    pub tricks_taken: Vec<u32>,
    /// Points each seat has taken this manche so far (before any all-or-nothing reversal).
    pub points: Vec<i64>,
    /// Each seat's total after the finished manches (lower is better).
    pub totals: Vec<i64>,
}

/// What the seats are told as the match goes on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A manche begins (told to all).
    MancheStart {
        /// 1 to 6.
        manche: u32,
        /// The dealer.
        dealer: usize,
        /// The seat that leads the first trick (the dealer's left).
        leader: usize,
        /// The chosen suit, face rank and card.
        chosen: Chosen,
        /// What each item scores in this manche.
        scoring: Scoring,
        /// The cards removed before the deal.
        removed: Vec<Card>,
    },
    /// The receiving seat's new hand (told to that seat only).
    Dealt {
        /// The hand, sorted by suit then rank.
        hand: Vec<Card>,
    },
    /// `seat` played `card` (told to all).
    CardPlayed {
        /// Who.
        seat: usize,
        /// What.
        card: Card,
    },
    /// A trick is complete (told to all).
    TrickWon {
        /// The winner, who leads next.
        seat: usize,
        /// The trick's cards in the order played.
        cards: Vec<Played>,
        /// The points the trick is worth in this manche.
        points: i64,
    },
    /// The manche is scored (told to all).
    MancheScored {
        /// 1 to 6.
        manche: u32,
        /// Points each seat scored in the manche, after any all-or-nothing reversal.
        points: Vec<i64>,
        /// The seat whose points were subtracted instead of added because it took every scoring
        /// item (all-or-nothing variant only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        all_or_nothing: Option<usize>,
        /// Each seat's total after the manche.
        totals: Vec<i64>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_read_and_write_their_two_characters() {
        for rank in LOWEST_RANK..=ACE {
            for suit in Suit::ALL {
                let card = Card::new(rank, suit);
                let text = serde_json::to_string(&card).unwrap();
                assert_eq!(text, format!("\"{card}\""));
                assert_eq!(serde_json::from_str::<Card>(&text).unwrap(), card);
            }
        }
        assert_eq!(Card::parse("TH"), Some(Card::new(10, Suit::Hearts)));
        assert_eq!(Card::parse("AS"), Some(Card::new(ACE, Suit::Spades)));
        for bad in ["", "T", "10H", "1H", "TX", "th", "THH"] {
            assert_eq!(Card::parse(bad), None, "{bad}");
        }
    }
}
