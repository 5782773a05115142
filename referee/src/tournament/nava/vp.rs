//! Nava Victory Points: a table's round scored into ranking VP and difference VP, and the
//! tournament order of the totals.
//!
//! A table ranks its entries by match points (MP) summed over the round's hands, an entry that
//! forfeited a hand below every entry that did not. Ranking VP share out 8, 6, 4, 2 by place, tied
//! entries sharing the points of the places they cover; difference VP convert the sum of an
//! entry's margins over the entries ranked below it. A BYE is not an entry: a table of 3 gives
//! 8, 6, 4 and its margins leave the BYE out.

use serde::Serialize;
use std::cmp::Reverse;

/// Ranking VP of places 1 to 4.
pub const RANKING_VP: [u32; 4] = [8, 6, 4, 2];

/// Upper bounds of the difference bands worth 0, 2, … 10 VP over a round of 3–4 hands (more is 12).
const BANDS_SHORT: [i64; 6] = [30, 60, 90, 120, 160, 200];

/// Upper bounds of the difference bands worth 0, 2, … 10 VP over a round of 5 hands or more.
const BANDS_LONG: [i64; 6] = [40, 80, 130, 190, 250, 300];

/// VP gained for each band a difference passes.
const VP_PER_BAND: u32 = 2;

/// One player's result at one table in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableEntry {
    /// The bot's index in the field.
    pub bot: usize,
    /// Its match points summed over the round's hands.
    pub mp: i64,
    /// Whether it forfeited a hand of the round (it then ranks below those that did not).
    pub forfeited: bool,
}

/// One player's Victory Points at one table in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TableVp {
    /// The bot's index in the field.
    pub bot: usize,
    /// 1-based place; tied entries share the best place they cover
    pub place: usize,
    /// Its match points summed over the round's hands.
    pub mp: i64,
    /// VP of its place (for a tie, the mean VP of the places it covers).
    pub ranking_vp: u32,
    /// the sum of margins (0 when negative)
    pub difference: i64,
    /// VP of `difference` ([`difference_vp`]).
    pub difference_vp: u32,
    /// `ranking_vp + difference_vp`.
    pub total_vp: u32,
}

/// VP at one table: entries in any order, returned in the same order as given.
///
/// Places past the 4th (a table never has more than 4 entries) earn no ranking VP.
pub fn table_vp(entries: &[TableEntry], hands: u32, higher_is_better: bool) -> Vec<TableVp> {
    let key = |e: &TableEntry| (e.forfeited, mp_key(e.mp, higher_is_better));
    entries
        .iter()
        .map(|e| {
            let ahead = entries.iter().filter(|o| key(o) < key(e)).count();
            let tied = entries.iter().filter(|o| key(o) == key(e)).count();
            let covered: u32 = (ahead..ahead + tied)
                .map(|p| RANKING_VP.get(p).copied().unwrap_or(0))
                .sum();
            // `tied` ≥ 1: the entry ties with itself.
            let ranking_vp = covered / tied as u32;
            let difference = entries
                .iter()
                .filter(|o| key(o) > key(e))
                .map(|o| margin(e.mp, o.mp, higher_is_better))
                .fold(0i64, i64::saturating_add)
                .max(0);
            let difference_vp = difference_vp(difference, hands);
            TableVp {
                bot: e.bot,
                place: ahead + 1,
                mp: e.mp,
                ranking_vp,
                difference,
                difference_vp,
                total_vp: ranking_vp + difference_vp,
            }
        })
        .collect()
}

/// Difference VP for a margin sum `difference` over a round of `hands` hands (3–4 use the first table, 5 or more the second; fewer than 3 the first).
///
/// The first table: 0–30 → 0, 31–60 → 2, 61–90 → 4, 91–120 → 6, 121–160 → 8, 161–200 → 10,
/// more → 12. The second: 0–40, 41–80, 81–130, 131–190, 191–250, 251–300, more. A negative
/// difference is worth 0.
pub fn difference_vp(difference: i64, hands: u32) -> u32 {
    let bands = if hands >= 5 {
        &BANDS_LONG
    } else {
        &BANDS_SHORT
    };
    let passed = bands.iter().filter(|&&top| difference > top).count();
    // At most 6 bands.
    VP_PER_BAND * passed as u32
}

/// One bot's tournament totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    /// The bot's index in the field.
    pub bot: usize,
    /// Total VP over the rounds.
    pub vp: u32,
    /// Difference VP over the rounds (the first tie-break).
    pub difference_vp: u32,
    /// Match points over the rounds (the second tie-break).
    pub mp: i64,
}

/// The tournament order: (rank, totals) best first, ranked as described above.
///
/// By total VP (most first), then difference VP (most first), then MP (fewest first, or most
/// when `higher_is_better`); totals equal on all three share the rank (1, 1, 3) and are listed
/// by bot index.
pub fn order(totals: &[Totals], higher_is_better: bool) -> Vec<(usize, Totals)> {
    let key = |t: &Totals| {
        (
            Reverse(t.vp),
            Reverse(t.difference_vp),
            mp_key(t.mp, higher_is_better),
        )
    };
    let mut sorted = totals.to_vec();
    sorted.sort_by(|a, b| key(a).cmp(&key(b)).then(a.bot.cmp(&b.bot)));
    let mut ranked: Vec<(usize, Totals)> = Vec::with_capacity(sorted.len());
    for (i, t) in sorted.into_iter().enumerate() {
        let rank = match ranked.last() {
            Some((rank, prev)) if key(prev) == key(&t) => *rank,
            _ => i + 1,
        };
        ranked.push((rank, t));
    }
    ranked
}

/// A sort key of match points, best first: the lowest first, or the highest when
/// `higher_is_better` (widened so that negating never overflows).
fn mp_key(mp: i64, higher_is_better: bool) -> i128 {
    if higher_is_better {
        -i128::from(mp)
    } else {
        i128::from(mp)
    }
}

/// How far `mp` is ahead of `below`'s MP: positive when it is better.
fn margin(mp: i64, below: i64, higher_is_better: bool) -> i64 {
    if higher_is_better {
        mp.saturating_sub(below)
    } else {
        below.saturating_sub(mp)
    }
}
