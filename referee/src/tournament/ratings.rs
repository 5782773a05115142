//! Weng-Lin (OpenSkill) ratings from match ranks: the one place they are computed, for the
//! leaderboard ([`standings`](super::standings)) and for their course over a tournament
//! ([`history`]). Matches are applied in match-id order, so that the ratings do not depend on
//! which match finished first; each seat is a team of one, finishing at its rank (tied ranks
//! are equal outcomes).

use super::match_result::MatchResult;
use serde::Serialize;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use std::collections::BTreeMap;

/// Every bot's rating, updated one match at a time.
pub struct Ratings {
    ratings: Vec<WengLinRating>,
    config: WengLinConfig,
}

impl Ratings {
    /// `bots` bots at the starting rating (μ = 25, σ = 25/3).
    pub fn new(bots: usize) -> Self {
        Ratings {
            ratings: vec![WengLinRating::new(); bots],
            config: WengLinConfig::new(),
        }
    }

    /// Applies one match: the bots at `seats` (indices) finished at `ranks`.
    pub fn apply(&mut self, seats: &[usize], ranks: &[u32]) {
        let teams: Vec<[WengLinRating; 1]> = seats.iter().map(|&b| [self.ratings[b]]).collect();
        let outcome: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(ranks)
            .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank as usize)))
            .collect();
        let updated = weng_lin_multi_team(&outcome, &self.config);
        for (&b, team) in seats.iter().zip(updated) {
            self.ratings[b] = team[0];
        }
    }

    /// Bot `bot`'s rating now: (μ, σ).
    pub fn of(&self, bot: usize) -> (f64, f64) {
        let r = self.ratings[bot];
        (r.rating, r.uncertainty)
    }
}

/// `results` in match-id order, the order ratings are applied in.
pub fn in_id_order<'a>(results: &[&'a MatchResult]) -> Vec<&'a MatchResult> {
    let mut ordered = results.to_vec();
    ordered.sort_by_key(|r| r.id);
    ordered
}

/// The bots (indices into `bots`) at each seat of `result`.
pub fn seats_of(index: &BTreeMap<&str, usize>, result: &MatchResult) -> Vec<usize> {
    result
        .record
        .players
        .iter()
        .map(|p| index[p.as_str()])
        .collect()
}

/// A bot's rating after one of its matches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    /// How many matches of the tournament had been applied (this one included), from 1.
    pub after: u64,
    /// The match.
    pub id: u64,
    /// μ after it.
    pub mu: f64,
    /// σ after it.
    pub sigma: f64,
}

/// One bot's ratings over the tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotHistory {
    /// The bot.
    pub bot: String,
    /// Its rating after each match it played, in match-id order (the last is the leaderboard's).
    pub points: Vec<RatingPoint>,
}

/// Every bot's rating after each match it played, applying `results` (any order) as the
/// leaderboard does; in the order of `bots`.
pub fn history(bots: &[String], results: &[&MatchResult]) -> Vec<BotHistory> {
    let index: BTreeMap<&str, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let mut ratings = Ratings::new(bots.len());
    let mut histories: Vec<BotHistory> = bots
        .iter()
        .map(|bot| BotHistory {
            bot: bot.clone(),
            points: Vec::new(),
        })
        .collect();
    for (k, result) in in_id_order(results).into_iter().enumerate() {
        let seats = seats_of(&index, result);
        ratings.apply(&seats, &result.record.ranks);
        for &b in &seats {
            let (mu, sigma) = ratings.of(b);
            histories[b].points.push(RatingPoint {
                after: k as u64 + 1,
                id: result.id,
                mu,
                sigma,
            });
        }
    }
    histories
}
