//! Machiavelli's game-specific messages: the options, the view a seat receives, the action it
//! sends and the events it is told about. The rules are in `docs/rules-machiavelli.md`, these
//! messages on the wire in `docs/protocol-machiavelli.md`.
//!
//! A card is a string on the wire: the rank (`A`, `2`–`10`, `J`, `Q`, `K`) then the suit (`C`
//! clubs, `D` diamonds, `H` hearts, `S` spades), e.g. `"AC"`, `"10S"`, `"QH"`; a joker is `"JK"`.
//! The two copies of a card (and the four jokers) are identical: a card is its string.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

pub use crate::suit::Suit;

/// The ace's rank (it is also the highest card of a run Q-K-A).
pub const ACE: u8 = 1;
/// The king's rank, the highest.
pub const KING: u8 = 13;
/// The number of distinct cards: 52 suited cards and the joker.
pub const DISTINCT_CARDS: usize = 53;
const RANK_NAMES: [&str; 13] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];

/// A card: a rank (1 the ace to 13 the king) and a suit, or the joker. Ordered as hands are
/// sorted: by suit (C, D, H, S), then rank A..K, the joker last. On the wire its string, such as
/// `"10S"` or `"JK"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The joker.
    pub const JOKER: Card = Card(52);

    /// The card of `rank` (1 ace to 13 king) and `suit`.
    ///
    /// # Panics
    /// If `rank` is not 1 to 13.
    pub const fn new(rank: u8, suit: Suit) -> Card {
        assert!(rank >= ACE && rank <= KING, "a rank is 1 to 13");
        Card(suit as u8 * 13 + rank - 1)
    }

    /// The card's index, 0 to 52, in sorting order (the joker is 52): for counting arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The card of index `index` (0 to 52), if there is one.
    pub const fn from_index(index: usize) -> Option<Card> {
        if index < DISTINCT_CARDS {
            Some(Card(index as u8))
        } else {
            None
        }
    }

    /// Whether this is the joker.
    pub const fn is_joker(self) -> bool {
        self.0 == Card::JOKER.0
    }

    /// The rank, 1 (ace) to 13 (king); `None` for the joker.
    pub const fn rank(self) -> Option<u8> {
        if self.is_joker() {
            None
        } else {
            Some(self.0 % 13 + 1)
        }
    }

    /// The suit; `None` for the joker.
    pub const fn suit(self) -> Option<Suit> {
        match self.0 / 13 {
            0 => Some(Suit::Clubs),
            1 => Some(Suit::Diamonds),
            2 => Some(Suit::Hearts),
            3 => Some(Suit::Spades),
            _ => None,
        }
    }

    /// Reads a card's wire form (`"10S"`, `"JK"`): the last character is the suit, the rest the
    /// rank; upper case only. `None` if it is not a card.
    pub fn parse(text: &str) -> Option<Card> {
        if text == "JK" {
            return Some(Card::JOKER);
        }
        let suit = Suit::from_letter(text.chars().last()?)?;
        let rank = &text[..text.len() - 1];
        let rank = RANK_NAMES.iter().position(|&r| r == rank)? as u8 + 1;
        Some(Card::new(rank, suit))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(rank), Some(suit)) => {
                write!(f, "{}{}", RANK_NAMES[usize::from(rank - 1)], suit.letter())
            }
            _ => f.write_str("JK"),
        }
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CardText;
        impl serde::de::Visitor<'_> for CardText {
            type Value = Card;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a card such as \"10S\" (rank A, 2-10, J, Q, K; suit C, D, H, S) or \"JK\"",
                )
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
            "description": "A card: rank (A, 2-10, J, Q, K) then suit (C, D, H, S), e.g. \"10S\"; or the joker \"JK\".",
            "type": "string",
            "pattern": "^(([A2-9JQK]|10)[CDHS]|JK)$"
        })
    }
}

/// The value `true`, the only value of the keys `draw` and `skip`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct True;

impl Serialize for True {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(true)
    }
}

impl<'de> Deserialize<'de> for True {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match bool::deserialize(deserializer)? {
            true => Ok(True),
            false => Err(serde::de::Error::invalid_value(
                serde::de::Unexpected::Bool(false),
                &"true",
            )),
        }
    }
}

impl JsonSchema for True {
    fn schema_name() -> Cow<'static, str> {
        "True".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "description": "Always `true`.", "const": true })
    }
}

/// The one decision of the game, an object with exactly one key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// `{"draw": true}`: take the top card of the stock; with an empty stock, a pass.
    Draw(True),
    /// `{"skip": true}`: neither play nor draw. Once per hand; a second skip in the same hand
    /// draws 2 cards (or what is left) as a penalty.
    Skip(True),
    /// `{"play": [["QH", "QS", "QD"], ...]}`: the whole new table, a list of melds. It must hold
    /// every card of the table and at least one card of the hand, each meld a valid set or run;
    /// otherwise the table stays as it was and the player draws 3 (or what is left). Any strings
    /// are accepted here: one that is not a card makes the play invalid, not malformed.
    Play(Vec<Vec<String>>),
}

impl Action {
    /// The play of `table`, written with the cards' strings.
    pub fn play(table: &[Vec<Card>]) -> Action {
        Action::Play(
            table
                .iter()
                .map(|meld| meld.iter().map(Card::to_string).collect())
                .collect(),
        )
    }
}

/// Game options (`[options]` or `--option KEY=VALUE`; echoed in `hello` and `match_start`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Add 4 jokers (108 cards instead of 104).
    pub jokers: bool,
    /// Cards dealt to each player: 10, 11, 12 or 13.
    #[schemars(range(min = 10, max = 13))]
    pub cards: u32,
    /// Hands in the match; points are summed.
    #[schemars(range(min = 1))]
    pub hands: u32,
    /// The most jokers one meld may hold.
    #[schemars(range(min = 1))]
    pub jokers_per_meld: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jokers: false,
            cards: 13,
            hands: 1,
            jokers_per_meld: 1,
        }
    }
}

/// Everything one seat may know, sent with every request. Seats are 0-based, in clockwise order;
/// every per-seat list is indexed by seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct View {
    /// The hand being played, from 1.
    pub hand_number: u32,
    /// Hands in the match.
    pub hands: u32,
    /// This hand's dealer.
    pub dealer: usize,
    /// The receiving seat.
    pub you: usize,
    /// Number of players.
    pub players: usize,
    /// The receiving seat's cards, sorted (suit C, D, H, S, then rank A..K, jokers last).
    pub hand: Vec<Card>,
    /// The melds on the table, canonical: each meld's cards in order (runs by rank, sets by
    /// suit, jokers where they stand in), melds sorted by their first card.
    pub table: Vec<Vec<Card>>,
    /// Cards left in the stock.
    pub stock: usize,
    /// Cards in each seat's hand.
    pub hand_sizes: Vec<usize>,
    /// Whether the receiving seat may still skip this hand without the penalty.
    pub skip_available: bool,
    /// Match points so far, by seat (lower is better).
    pub totals: Vec<i64>,
    /// The hands shown at the end of the last finished hand, by seat (each sorted); empty lists
    /// before the first hand ends.
    pub revealed: Vec<Vec<Card>>,
}

/// Why a seat drew cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    /// The seat chose to draw.
    Draw,
    /// A second skip in the same hand: 2 cards (or what was left).
    SkipPenalty,
    /// A refused play: 3 cards (or what was left).
    InvalidPlay,
}

/// What the seats are told as the match goes on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A hand begins (told to all).
    HandStart {
        /// The hand, from 1.
        hand_number: u32,
        /// Its dealer.
        dealer: usize,
        /// The seat that plays first (the dealer's left).
        first: usize,
    },
    /// The receiving seat's new hand, sorted (told to that seat only).
    Dealt {
        /// The cards.
        cards: Vec<Card>,
    },
    /// `seat` played a new table (told to all).
    Played {
        /// Who.
        seat: usize,
        /// The new table, canonical.
        table: Vec<Vec<Card>>,
        /// The cards that left the hand for the table, sorted.
        from_hand: Vec<Card>,
        /// Cards left in that hand.
        hand_size: usize,
    },
    /// `seat` drew cards (told to all; the cards only to that seat, by `you_drew`).
    Drew {
        /// Who.
        seat: usize,
        /// How many (0 when the stock was empty).
        count: usize,
        /// Why.
        reason: DrawReason,
    },
    /// The cards the receiving seat drew (told to that seat only, when it drew any).
    YouDrew {
        /// The cards, in the order drawn.
        cards: Vec<Card>,
    },
    /// `seat` drew with an empty stock: a pass (told to all).
    Passed {
        /// Who.
        seat: usize,
    },
    /// `seat` used its one skip of the hand (told to all).
    Skipped {
        /// Who.
        seat: usize,
    },
    /// The receiving seat's play was refused, and why (told to that seat only; the others see
    /// a `drew` with reason `invalid_play`).
    PlayRefused {
        /// The reason.
        message: String,
    },
    /// A hand is over (told to all).
    HandEnd {
        /// The hand, from 1.
        hand_number: u32,
        /// The seat that emptied its hand, or `null` when the stock ran out with no closer.
        closer: Option<usize>,
        /// Points of the cards left in each hand (the closer 0).
        points: Vec<i64>,
        /// Match points after this hand, by seat.
        totals: Vec<i64>,
        /// The cards left in each hand, sorted.
        hands_left: Vec<Vec<Card>>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_read_and_write_their_strings() {
        let mut all: Vec<Card> = (0..DISTINCT_CARDS)
            .map(|i| Card::from_index(i).unwrap())
            .collect();
        for card in &all {
            let text = serde_json::to_string(card).unwrap();
            assert_eq!(text, format!("\"{card}\""));
            assert_eq!(serde_json::from_str::<Card>(&text).unwrap(), *card);
            assert_eq!(Card::parse(&card.to_string()), Some(*card));
        }
        assert_eq!(Card::parse("10S"), Some(Card::new(10, Suit::Spades)));
        assert_eq!(Card::parse("AC"), Some(Card::new(ACE, Suit::Clubs)));
        assert_eq!(Card::parse("JK"), Some(Card::JOKER));
        for bad in [
            "", "1X", "1S", "TS", "ac", "10", "S", "JKK", "11H", "KSS", "é", "AÉ",
        ] {
            assert_eq!(Card::parse(bad), None, "{bad}");
        }
        let sorted = all.clone();
        all.sort();
        assert_eq!(all, sorted);
        assert_eq!(sorted[0].to_string(), "AC");
        assert_eq!(sorted[13].to_string(), "AD");
        assert_eq!(sorted[52].to_string(), "JK");
    }

    #[test]
    fn an_action_has_exactly_one_key() {
        let read = |text: &str| serde_json::from_str::<Action>(text);
        assert_eq!(read(r#"{"draw":true}"#).unwrap(), Action::Draw(True));
        assert_eq!(read(r#"{"skip":true}"#).unwrap(), Action::Skip(True));
        assert_eq!(
            read(r#"{"play":[["QH","1X"]]}"#).unwrap(),
            Action::Play(vec![vec!["QH".into(), "1X".into()]])
        );
        for bad in [
            r#"{"draw":false}"#,
            r#"{"draw":true,"skip":true}"#,
            r#"{}"#,
            r#""draw""#,
            r#"{"play":["QH"]}"#,
            r#"{"play":[[1]]}"#,
            r#"{"pass":true}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
        let play = Action::play(&[vec![Card::new(12, Suit::Hearts), Card::JOKER]]);
        assert_eq!(
            serde_json::to_string(&play).unwrap(),
            r#"{"play":[["QH","JK"]]}"#
        );
        assert_eq!(
            serde_json::to_string(&Action::Draw(True)).unwrap(),
            r#"{"draw":true}"#
        );
    }

    #[test]
    fn options_default_and_refuse_unknown_keys() {
        let options: Options = serde_json::from_str(r#"{"jokers":true}"#).unwrap();
        assert_eq!(
            options,
            Options {
                jokers: true,
                ..Options::default()
            }
        );
        assert_eq!(Options::default().cards, 13);
        assert!(serde_json::from_str::<Options>(r#"{"joker":true}"#).is_err());
    }
}
