//! Nava seating: the tables of a field, the first round's draw, and the movement between rounds.
//!
//! A field of N bots sits at T = ⌈N/4⌉ tables; the b = 4T − N tables at the end are tables of 3,
//! whose West seat is a BYE. The BYE is an occupant like any other: it moves with its seat, and as
//! only West seats hold one in the first round, only West seats ever do.

use engine::seed;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

/// The fewest bots the format is played with (three tables, all of them tables of 3).
pub const MIN_BOTS: usize = 9;

/// A seat at a Nava table, in clockwise order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wind {
    /// Moves up 1 table after a round.
    North,
    /// Moves up 2 tables after a round.
    East,
    /// Moves down 1 table after a round.
    South,
    /// Moves down 2 tables after a round; the BYE of a table of 3.
    West,
}

impl Wind {
    /// The four seats in clockwise order: North, East, South, West.
    pub const ALL: [Wind; 4] = [Wind::North, Wind::East, Wind::South, Wind::West];

    /// Tables this seat moves after a round: +1, +2, −1, −2 (North, East, South, West).
    pub fn step(self) -> isize {
        match self {
            Wind::North => 1,
            Wind::East => 2,
            Wind::South => -1,
            Wind::West => -2,
        }
    }

    /// "N", "E", "S", "W".
    pub fn letter(self) -> &'static str {
        match self {
            Wind::North => "N",
            Wind::East => "E",
            Wind::South => "S",
            Wind::West => "W",
        }
    }

    /// The position of this seat in [`Wind::ALL`] and in a row of [`Seating::tables`].
    pub fn index(self) -> usize {
        match self {
            Wind::North => 0,
            Wind::East => 1,
            Wind::South => 2,
            Wind::West => 3,
        }
    }
}

/// Tables of a field of `bots`: (tables, tables of 3). E.g. 10 → (3, 2); 12 → (3, 0); 41 → (11, 3).
///
/// The second number is the count of BYEs, 4T − N = (4 − N mod 4) mod 4. It is the number of
/// tables of 3 for every field of [`MIN_BOTS`] or more; only the fields of 1, 2 and 5 bots have
/// more BYEs than tables (see [`Seating::initial`]).
pub fn table_counts(bots: usize) -> (usize, usize) {
    let tables = bots.div_ceil(4);
    (tables, tables * 4 - bots)
}

/// Who sits where in one round: `tables[t][w]` is the bot index (into the field) at table t (0-based) in seat `Wind::ALL[w]`, or None for a BYE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// One row per table, its seats in the order of [`Wind::ALL`]; None is a BYE.
    pub tables: Vec<[Option<usize>; 4]>,
}

impl Seating {
    /// The first round's seating of `bots` (≥ 1) drawn from `seed`: the West seats of the last b tables are the BYEs; the bots, shuffled with `engine::seed::rng(seed, "nava seating", 0)`, fill the other seats table by table in the order North, East, South, West.
    ///
    /// Below the format's [`MIN_BOTS`], the fields of 1, 2 and 5 bots have more BYEs than tables:
    /// there, once every West seat is a BYE, the South seats of the last tables are, then the
    /// East seats. No bots gives no tables.
    pub fn initial(bots: usize, seed: u64) -> Seating {
        let (count, byes) = table_counts(bots);
        let mut order: Vec<usize> = (0..bots).collect();
        order.shuffle(&mut seed::rng(seed, "nava seating", 0));
        let mut order = order.into_iter();
        let tables = (0..count)
            .map(|t| {
                let mut row = [None; 4];
                for (w, slot) in row.iter_mut().enumerate() {
                    if !is_bye(t, w, count, byes) {
                        *slot = order.next();
                    }
                }
                row
            })
            .collect();
        Seating { tables }
    }

    /// The seating of the next round: every occupant (BYEs too) of seat w at table t moves to the same seat at table (t + w.step()) mod T.
    pub fn next(&self) -> Seating {
        let count = self.tables.len();
        let mut tables = vec![[None; 4]; count];
        for (t, row) in self.tables.iter().enumerate() {
            for (wind, &occupant) in Wind::ALL.iter().zip(row) {
                tables[moved(t, wind.step(), count)][wind.index()] = occupant;
            }
        }
        Seating { tables }
    }

    /// The bots at table t in the order a match seats them: North, East, South, then West unless it is a BYE.
    ///
    /// A table past the last one has nobody.
    pub fn players(&self, table: usize) -> Vec<usize> {
        self.tables
            .get(table)
            .map(|row| row.iter().flatten().copied().collect())
            .unwrap_or_default()
    }

    /// Where `bot` sits: (table, seat), None if it is not seated.
    pub fn seat_of(&self, bot: usize) -> Option<(usize, Wind)> {
        self.tables.iter().enumerate().find_map(|(t, row)| {
            Wind::ALL
                .iter()
                .zip(row)
                .find(|(_, occupant)| **occupant == Some(bot))
                .map(|(&wind, _)| (t, wind))
        })
    }
}

/// The seatings of `rounds` rounds, the first drawn from `seed` and each next one moved from the one before.
pub fn seatings(bots: usize, rounds: usize, seed: u64) -> Vec<Seating> {
    std::iter::successors(Some(Seating::initial(bots, seed)), |s| Some(s.next()))
        .take(rounds)
        .collect()
}

/// Whether seat `w` of table `t` is a BYE in the first round, with `byes` BYEs over `count`
/// tables: the West seats of the last tables, then (only below [`MIN_BOTS`]) their South seats,
/// then their East seats.
fn is_bye(t: usize, w: usize, count: usize, byes: usize) -> bool {
    // BYE number k (0-based) sits k % count tables from the end, in the seat k / count places
    // anticlockwise from West (West, South, East; never North, as byes ≤ 3 × count).
    let from_end = count - 1 - t;
    let layer = 3 - w;
    layer < 3 && layer * count + from_end < byes
}

/// The table `step` tables on from `t`, wrapping around `count` tables.
fn moved(t: usize, step: isize, count: usize) -> usize {
    // Both fit in an isize: t < count, and count is the length of a Vec.
    let count = count as isize;
    (t as isize + step).rem_euclid(count) as usize
}
