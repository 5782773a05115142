//! Vabanque's game-specific messages: the view a seat receives, the actions it may send and
//! the events it is told about. The rules are in `docs/rules-vabanque.md`, these messages on the
//! wire in `docs/protocol-vabanque.md`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An action card. Each player holds one of each.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    /// Multiplies the table's value: value = chips × (1 + number of Raise cards).
    Raise,
    /// No effect.
    Bluff,
    /// Blocks every other player's token at its table and collects the table's value once per
    /// other player's token there.
    Trap,
}

impl Card {
    /// The three cards, in the order a hand is listed.
    pub const ALL: [Card; 3] = [Card::Raise, Card::Bluff, Card::Trap];
}

/// What a seat must decide now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Place one chip of the round's value on a table: answer `{"table": T}`.
    Chip,
    /// Place one card from the hand face down at a table: answer `{"card": C, "table": T}`.
    Card,
    /// Move the token 0 to 4 tables clockwise: answer `{"steps": S}`.
    Move,
}

impl Phase {
    /// The phase's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Chip => "chip",
            Phase::Card => "card",
            Phase::Move => "move",
        }
    }
}

/// An action, as a bot sends it. Which shape is expected depends on the phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum Action {
    /// Card phase: place `card` face down at `table`.
    Card {
        /// The card, from the hand.
        card: Card,
        /// The table, 0-based.
        table: usize,
    },
    /// Chip phase: place a chip on `table`.
    Chip {
        /// The table, 0-based.
        table: usize,
    },
    /// Move phase: move the token `steps` tables clockwise (0 stays).
    Move {
        /// 0 to 4.
        steps: usize,
    },
}

/// On the wire an action is untagged: its keys tell the variants apart. It is read through a
/// plain struct of optional fields rather than serde's untagged-enum machinery, which buffers
/// every value before trying each variant; the accepted shapes are the same.
impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Fields {
            card: Option<Card>,
            table: Option<usize>,
            steps: Option<usize>,
        }
        let f = Fields::deserialize(deserializer)?;
        match (f.card, f.table, f.steps) {
            (Some(card), Some(table), None) => Ok(Action::Card { card, table }),
            (None, Some(table), None) => Ok(Action::Chip { table }),
            (None, None, Some(steps)) => Ok(Action::Move { steps }),
            _ => Err(serde::de::Error::custom(
                "data did not match any variant of untagged enum Action",
            )),
        }
    }
}

/// A card placed this round, as the receiving seat may see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlacedCard {
    /// The seat that placed it.
    pub owner: usize,
    /// Where it lies.
    pub table: usize,
    /// Its type: present only for the receiving seat's own cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<Card>,
}

/// A card turned face up at a payout (public from then on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Reveal {
    /// The round of the payout, 1 to 4.
    pub round: u32,
    /// The table it lay at.
    pub table: usize,
    /// The seat that placed it.
    pub owner: usize,
    /// Its type.
    pub card: Card,
}

/// Everything one seat may know, sent with every request. Seats, tables and rounds are
/// 0-based indices except `round` (1 to 4); every per-seat list is indexed by seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct View {
    /// The receiving seat.
    pub you: usize,
    /// Number of players.
    pub players: usize,
    /// Number of tables (7, 9, 10 or 12 for 3 to 6 players), arranged in a circle.
    pub tables: usize,
    /// The round, 1 to 4.
    pub round: u32,
    /// The current phase.
    pub phase: Phase,
    /// The value of this round's chips: 5, 10, 20 or 50.
    pub chip_value: u32,
    /// This round's playing order (seats, first player first).
    pub order: Vec<usize>,
    /// Chips each seat still has to place this round.
    pub chips_left: Vec<u32>,
    /// Sum of the chip values on each table.
    pub table_chips: Vec<u32>,
    /// The table of each seat's token.
    pub tokens: Vec<usize>,
    /// Whether each seat has moved its token this round.
    pub moved: Vec<bool>,
    /// Each seat's money so far.
    pub money: Vec<u64>,
    /// The receiving seat's cards not yet placed this round.
    pub hand: Vec<Card>,
    /// This round's cards in the order placed; types shown only for the receiving seat's own.
    pub cards: Vec<PlacedCard>,
    /// Every card revealed at an earlier payout.
    pub revealed: Vec<Reveal>,
}

/// A table's payout at the end of a round (only tables with at least one token).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TablePayout {
    /// The table.
    pub table: usize,
    /// Sum of its chips.
    pub chips: u32,
    /// Its value in money: chips × (1 + Raise cards) × 1,000.
    pub value: u64,
    /// Seats whose tokens stand there.
    pub tokens: Vec<usize>,
    /// The cards turned face up there, in the order placed.
    pub cards: Vec<RevealedCard>,
    /// Money paid to each seat at this table (indexed by seat).
    pub paid: Vec<u64>,
}

/// A card turned face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RevealedCard {
    /// The seat that placed it.
    pub owner: usize,
    /// Its type.
    pub card: Card,
}

/// What every seat is told as the match goes on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A round begins with this playing order.
    RoundStart {
        /// 1 to 4.
        round: u32,
        /// Seats in playing order.
        order: Vec<usize>,
        /// The round's chip value.
        chip_value: u32,
    },
    /// `seat` placed a chip on `table`.
    Chip {
        /// Who.
        seat: usize,
        /// Where.
        table: usize,
        /// The chip's value.
        value: u32,
    },
    /// `seat` placed a card face down at `table` (its type stays hidden).
    Card {
        /// Who.
        seat: usize,
        /// Where.
        table: usize,
    },
    /// `seat` moved its token.
    Move {
        /// Who.
        seat: usize,
        /// From which table.
        from: usize,
        /// To which table.
        to: usize,
        /// How many tables clockwise (0 to 4).
        steps: usize,
    },
    /// The round's payout: cards at tables with tokens are revealed and money is paid.
    Payout {
        /// 1 to 4.
        round: u32,
        /// Every table with at least one token.
        tables: Vec<TablePayout>,
        /// Each seat's money after the payout.
        money: Vec<u64>,
    },
}
