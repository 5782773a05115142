//! The standings of a Nava tournament: each table's Victory Points in each round, from the
//! results of its hands, summed per bot and ranked ([`vp`](super::vp) computes, this file
//! only finds each table's hands in the results). A table's round counts once all its hands
//! are played; until then its line shows where the bot sits and nothing more.

use super::seating::{Wind, seatings};
use super::spec::NavaSpec;
use super::together::together_every_round;
use super::vp::{TableEntry, Totals, order, table_vp};
use crate::tournament::match_result::MatchResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// A Nava tournament's standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NavaStandings {
    /// Rounds.
    pub rounds: usize,
    /// Hands per round.
    pub hands: usize,
    /// Tables (of 4 and of 3).
    pub tables: usize,
    /// Whether more match points are better (the game's way; the second tie-break follows it).
    pub higher_is_better: bool,
    /// One line per bot, best first.
    pub rows: Vec<NavaRow>,
    /// The pairs of bots the movement keeps at one table in every round (by name, in field
    /// order), whose head-to-head therefore says little.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub together: Vec<[String; 2]>,
}

/// One bot's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NavaRow {
    /// Its place (bots equal on VP, difference VP and match points share it).
    pub rank: usize,
    /// The bot.
    pub bot: String,
    /// Total Victory Points of its finished rounds.
    pub vp: u32,
    /// Of which difference VP (the first tie-break).
    pub difference_vp: u32,
    /// Total match points of its finished rounds (the second tie-break).
    pub mp: i64,
    /// Each round: where it sat, and what it scored once the round is finished.
    pub rounds: Vec<NavaRound>,
}

/// One bot's round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NavaRound {
    /// The round, from 1.
    pub round: usize,
    /// Its table, from 1.
    pub table: usize,
    /// Its seat there.
    pub seat: Wind,
    /// Players at the table (4, or 3 where West is a BYE).
    pub players: usize,
    /// The round at that table, once every hand of it is played.
    pub result: Option<RoundResult>,
}

/// What a bot scored at its table in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RoundResult {
    /// Its place at the table (tied bots share the best place they cover).
    pub place: usize,
    /// Its match points: the sum of its scores over the round's hands.
    pub mp: i64,
    /// Ranking VP (8, 6, 4, 2 by place, shared by ties).
    pub ranking_vp: u32,
    /// The sum of its margins over the players placed below it.
    pub difference: i64,
    /// Difference VP, from the difference by the guide's table.
    pub difference_vp: u32,
    /// Ranking VP + difference VP.
    pub vp: u32,
}

/// The standings of the Nava tournament of `bots` (field order) played with `seed` and shaped
/// by `nava`, from `results` (any order, any subset of the schedule).
pub fn nava_standings(
    bots: &[String],
    seed: u64,
    nava: NavaSpec,
    higher_is_better: bool,
    results: &[&MatchResult],
) -> NavaStandings {
    let by_id: BTreeMap<u64, &MatchResult> = results.iter().map(|r| (r.id, *r)).collect();
    let rounds = seatings(bots.len(), nava.rounds, seed);
    let tables = rounds.first().map_or(0, |s| s.tables.len());
    let mut lines: Vec<Vec<NavaRound>> = vec![Vec::new(); bots.len()];
    let mut totals: Vec<Totals> = (0..bots.len())
        .map(|bot| Totals {
            bot,
            vp: 0,
            difference_vp: 0,
            mp: 0,
        })
        .collect();
    for (round, seating) in rounds.iter().enumerate() {
        for table in 0..tables {
            let players = seating.players(table);
            let ids =
                (0..nava.hands).map(|hand| ((round * nava.hands + hand) * tables + table) as u64);
            let played: Option<Vec<&MatchResult>> = ids.map(|id| by_id.get(&id).copied()).collect();
            let scored = played.map(|played| {
                let entries: Vec<TableEntry> = players
                    .iter()
                    .map(|&bot| entry(bot, &bots[bot], &played))
                    .collect();
                table_vp(&entries, nava.hands as u32, higher_is_better)
            });
            for (i, &bot) in players.iter().enumerate() {
                let (_, seat) = seating.seat_of(bot).expect("a seated bot");
                let result = scored.as_ref().map(|vps| {
                    let v = vps[i];
                    RoundResult {
                        place: v.place,
                        mp: v.mp,
                        ranking_vp: v.ranking_vp,
                        difference: v.difference,
                        difference_vp: v.difference_vp,
                        vp: v.total_vp,
                    }
                });
                if let Some(r) = result {
                    totals[bot].vp += r.vp;
                    totals[bot].difference_vp += r.difference_vp;
                    totals[bot].mp += r.mp;
                }
                lines[bot].push(NavaRound {
                    round: round + 1,
                    table: table + 1,
                    seat,
                    players: players.len(),
                    result,
                });
            }
        }
    }
    let rows = order(&totals, higher_is_better)
        .into_iter()
        .map(|(rank, t)| NavaRow {
            rank,
            bot: bots[t.bot].clone(),
            vp: t.vp,
            difference_vp: t.difference_vp,
            mp: t.mp,
            rounds: std::mem::take(&mut lines[t.bot]),
        })
        .collect();
    NavaStandings {
        rounds: nava.rounds,
        hands: nava.hands,
        tables,
        higher_is_better,
        rows,
        together: together_every_round(&rounds)
            .into_iter()
            .map(|(a, b)| [bots[a].clone(), bots[b].clone()])
            .collect(),
    }
}

/// Bot `bot` (named `name`) over the hands of its table: its summed scores, and whether it
/// forfeited any of them.
fn entry(bot: usize, name: &str, hands: &[&MatchResult]) -> TableEntry {
    let mut mp = 0;
    let mut forfeited = false;
    for hand in hands {
        let record = &hand.record;
        if let Some(seat) = record.players.iter().position(|p| p == name) {
            mp += record.scores[seat];
            forfeited |= record.stats[seat].forfeited;
        }
    }
    TableEntry { bot, mp, forfeited }
}
