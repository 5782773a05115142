//! Standings while a tournament runs: counts that do not depend on the order in which results
//! arrive (matches, wins, ranks, faults), kept up to date one result at a time. Ratings do
//! depend on that order, so they are computed once, in match-id order, at the end
//! ([`Format::leaderboard`](super::format::Format::leaderboard)).

use super::match_result::MatchResult;
use std::collections::BTreeMap;

/// One bot's provisional line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Provisional {
    /// The bot.
    pub bot: String,
    /// Matches played.
    pub matches: u64,
    /// Wins; a first place shared by k bots counts 1/k.
    pub wins: f64,
    /// Sum of finishing ranks (divide by `matches` for the mean).
    pub rank_sum: u64,
    /// Faults charged to it.
    pub faults: u64,
}

/// The standings so far: every bot, most wins first (ties in field order).
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Results counted.
    pub matches: u64,
    /// Best first.
    pub rows: Vec<Provisional>,
}

/// Provisional standings, updated result by result.
#[derive(Clone, Debug)]
pub struct Tally {
    rows: Vec<Provisional>,
    index: BTreeMap<String, usize>,
    matches: u64,
}

impl Tally {
    /// Empty standings of `bots`.
    pub fn new(bots: &[String]) -> Self {
        Tally {
            rows: bots
                .iter()
                .map(|bot| Provisional {
                    bot: bot.clone(),
                    ..Provisional::default()
                })
                .collect(),
            index: bots
                .iter()
                .enumerate()
                .map(|(i, b)| (b.clone(), i))
                .collect(),
            matches: 0,
        }
    }

    /// Counts one result (players not in the field are ignored).
    pub fn add(&mut self, result: &MatchResult) {
        let record = &result.record;
        let firsts = record.ranks.iter().filter(|&&r| r == 1).count().max(1) as f64;
        for (seat, name) in record.players.iter().enumerate() {
            let Some(&b) = self.index.get(name) else {
                continue;
            };
            let row = &mut self.rows[b];
            let rank = record.ranks[seat];
            row.matches += 1;
            row.rank_sum += u64::from(rank);
            if rank == 1 {
                row.wins += 1.0 / firsts;
            }
        }
        for fault in &record.faults {
            if let Some(&b) = record
                .players
                .get(fault.seat)
                .and_then(|p| self.index.get(p))
            {
                self.rows[b].faults += 1;
            }
        }
        self.matches += 1;
    }

    /// The standings now.
    pub fn snapshot(&self) -> Snapshot {
        let mut rows = self.rows.clone();
        rows.sort_by(|a, b| b.wins.total_cmp(&a.wins));
        Snapshot {
            matches: self.matches,
            rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{FaultRecord, MatchRecord, SeatStats};
    use protocol::FaultKind;

    fn result(id: u64, players: &[&str], ranks: &[u32]) -> MatchResult {
        MatchResult {
            id,
            group: id,
            record: MatchRecord {
                match_id: id.to_string(),
                game: "vabanque".into(),
                seed: 0,
                players: players.iter().map(|s| s.to_string()).collect(),
                scores: vec![0; players.len()],
                ranks: ranks.to_vec(),
                faults: vec![FaultRecord {
                    seat: 1,
                    decision: Some(0),
                    turn: None,
                    phase: None,
                    outside: None,
                    fault: FaultKind::Timeout,
                    message: String::new(),
                    line: None,
                }],
                stats: vec![SeatStats::default(); players.len()],
                duration_ms: 1.0,
                internal_error: None,
            },
            stderr: Vec::new(),
        }
    }

    #[test]
    fn shared_wins_ranks_and_faults_in_any_order() {
        let bots: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let results = [
            result(0, &["a", "b", "c"], &[1, 2, 3]),
            result(1, &["b", "c", "a"], &[1, 1, 3]),
        ];
        let mut forward = Tally::new(&bots);
        let mut backward = Tally::new(&bots);
        results.iter().for_each(|r| forward.add(r));
        results.iter().rev().for_each(|r| backward.add(r));
        let snapshot = forward.snapshot();
        assert_eq!(snapshot, backward.snapshot());
        assert_eq!(snapshot.matches, 2);
        let row = |name: &str| snapshot.rows.iter().find(|r| r.bot == name).unwrap();
        assert_eq!(row("a").wins, 1.0);
        assert_eq!(row("b").wins, 0.5);
        assert_eq!(row("c").wins, 0.5);
        assert_eq!(row("a").rank_sum, 4);
        assert_eq!((row("b").faults, row("c").faults), (1, 1));
        assert_eq!(snapshot.rows[0].bot, "a", "most wins first");
    }
}
