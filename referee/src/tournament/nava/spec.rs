//! A Nava tournament's shape: its rounds and hands, and where each match is played.

use super::seating::table_counts;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// The rounds a Nava tournament may have.
pub const ROUNDS: RangeInclusive<usize> = 3..=5;
/// The hands a round may have.
pub const HANDS: RangeInclusive<usize> = 3..=5;

/// A Nava tournament's shape: rounds, and hands per round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavaSpec {
    /// Rounds (3 to 5); the field moves between rounds.
    pub rounds: usize,
    /// Hands per round (3 to 5): matches of the game at the same table.
    pub hands: usize,
}

impl Default for NavaSpec {
    /// Four rounds of four hands.
    fn default() -> Self {
        NavaSpec {
            rounds: 4,
            hands: 4,
        }
    }
}

/// Where one match of a Nava tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavaPlace {
    /// The round, from 0.
    pub round: usize,
    /// The hand within the round, from 0.
    pub hand: usize,
    /// The table, from 0.
    pub table: usize,
}

impl NavaSpec {
    /// Where match `id` of a field of `bots` is played.
    pub fn place(&self, bots: usize, id: u64) -> NavaPlace {
        let tables = table_counts(bots).0 as u64;
        let per_round = tables * self.hands as u64;
        NavaPlace {
            round: (id / per_round) as usize,
            hand: ((id / tables) % self.hands as u64) as usize,
            table: (id % tables) as usize,
        }
    }

    /// Matches in the whole tournament: rounds × tables × hands.
    pub fn matches(&self, bots: usize) -> u64 {
        (self.rounds * table_counts(bots).0 * self.hands) as u64
    }
}
