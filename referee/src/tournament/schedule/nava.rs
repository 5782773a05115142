//! The Nava schedule: the multi-table format of the Machiavelli guide, for any game played by
//! 3 and 4. The field sits at tables of 4 (and 3, a table whose West seat is a BYE), plays a
//! few rounds of a few hands (a hand is one match of the game) at the same table, and moves
//! between rounds by the Nava movement ([`seating`](crate::tournament::nava::seating)). It is
//! scored in Victory Points ([`vp`](crate::tournament::nava::vp)).
//!
//! Matches are numbered round by round, hand by hand, table by table: match `id` is table
//! `id mod T` in hand `(id / T) mod H` of round `id / (T·H)`. Within a round the seats of a
//! table turn by one each hand (hand h seats the table's players from its h-th onwards), so
//! each sits first as often as the hands allow. With duplicate play, every table of a hand
//! deals the same cards: the hand is the duplicate group, the same seed at every table.

use super::{Schedule, ScheduleSpec, ScheduledMatch, scheduled};
use crate::tournament::nava::MIN_BOTS;
use crate::tournament::nava::seating::{Seating, seatings, table_counts};
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

/// The Nava schedule (its rounds and hands come from [`ScheduleSpec::nava`]).
pub struct Nava;

impl Schedule for Nava {
    fn cycle_length(&self, spec: &ScheduleSpec) -> u64 {
        spec.nava.map_or(0, |nava| nava.matches(spec.bots))
    }

    fn build(&self, spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
        let Some(nava) = spec.nava else {
            return Vec::new();
        };
        if spec.bots < MIN_BOTS {
            return Vec::new();
        }
        let mut schedule = Vec::new();
        for (round, seating) in seatings(spec.bots, nava.rounds, spec.seed)
            .iter()
            .enumerate()
        {
            for hand in 0..nava.hands {
                push_hand(spec, seating, round * nava.hands + hand, &mut schedule);
            }
        }
        schedule.truncate(spec.matches as usize);
        schedule
    }
}

/// Appends hand `group` (numbered over the whole tournament) of every table of `seating`.
fn push_hand(
    spec: &ScheduleSpec,
    seating: &Seating,
    group: usize,
    schedule: &mut Vec<ScheduledMatch>,
) {
    let hands = spec.nava.map_or(1, |n| n.hands);
    let turn = group % hands;
    for table in 0..seating.tables.len() {
        let players = seating.players(table);
        let seats = (0..players.len())
            .map(|s| players[(s + turn) % players.len()])
            .collect();
        let id = schedule.len() as u64;
        schedule.push(scheduled(spec, id, group as u64, seats));
    }
}
