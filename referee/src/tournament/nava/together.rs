//! The pairs of bots the Nava movement keeps at one table in every round. With 3 tables North
//! and West move alike, and so do East and South; with 4, East and West (docs/tournament.md
//! §11): such a pair meets in every match either plays, so their head-to-head says little.
//! The leaderboard says so under its table ([`legend::together_note`](crate::tournament::legend::together_note)).

use super::seating::Seating;
use std::collections::BTreeSet;

/// The pairs of bots (indices, the smaller first, in order) that share a table in every round
/// of `rounds`; none for fewer than two rounds.
pub fn together_every_round(rounds: &[Seating]) -> Vec<(usize, usize)> {
    if rounds.len() < 2 {
        return Vec::new();
    }
    let mut common: Option<BTreeSet<(usize, usize)>> = None;
    for seating in rounds {
        let pairs = table_pairs(seating);
        common = Some(match common {
            None => pairs,
            Some(before) => before.intersection(&pairs).copied().collect(),
        });
    }
    common.unwrap_or_default().into_iter().collect()
}

/// Every pair of bots at one table of `seating`.
fn table_pairs(seating: &Seating) -> BTreeSet<(usize, usize)> {
    let mut pairs = BTreeSet::new();
    for table in 0..seating.tables.len() {
        let players = seating.players(table);
        for (i, &a) in players.iter().enumerate() {
            for &b in &players[i + 1..] {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
    }
    pairs
}
