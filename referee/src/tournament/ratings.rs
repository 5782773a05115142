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
}

impl Ratings {
    /// `bots` bots at the starting rating (μ = 25, σ = 25/3).
    pub fn new(bots: usize) -> Self {
        Ratings {
            ratings: vec![WengLinRating::new(); bots],
        }
    }

    /// Applies one match: the bots at `seats` (indices) finished at `ranks`.
    pub fn apply(&mut self, seats: &[usize], ranks: &[u32]) {
        let before: Vec<(f64, f64)> = seats.iter().map(|&b| self.of(b)).collect();
        for (&b, (mu, sigma)) in seats.iter().zip(updated(&before, ranks)) {
            self.ratings[b] = WengLinRating {
                rating: mu,
                uncertainty: sigma,
            };
        }
    }

    /// Bot `bot`'s rating now: (μ, σ).
    pub fn of(&self, bot: usize) -> (f64, f64) {
        let r = self.ratings[bot];
        (r.rating, r.uncertainty)
    }
}

/// The starting rating of a player that has played nothing: (μ, σ) = (25, 25/3).
pub fn initial() -> (f64, f64) {
    let r = WengLinRating::new();
    (r.rating, r.uncertainty)
}

/// The ratings (μ, σ) of one match's seats after it, from theirs before (`before`, by seat)
/// and the ranks they finished at (1 = best, ties shared): each seat a team of one, Weng-Lin
/// with its default configuration. The ladder rates its versions with this too.
pub fn updated(before: &[(f64, f64)], ranks: &[u32]) -> Vec<(f64, f64)> {
    let teams: Vec<[WengLinRating; 1]> = before
        .iter()
        .map(|&(rating, uncertainty)| {
            [WengLinRating {
                rating,
                uncertainty,
            }]
        })
        .collect();
    let outcome: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(ranks)
        .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank as usize)))
        .collect();
    weng_lin_multi_team(&outcome, &WengLinConfig::new())
        .into_iter()
        .map(|team| (team[0].rating, team[0].uncertainty))
        .collect()
}

/// How even a table of players rated `ratings` (μ, σ) is, from 0 to 1: the mean, over its
/// pairs, of the two-player match quality of TrueSkill (Herbrich et al. 2007, eq. 4.1) with
/// Weng-Lin's β — the likelihood of a draw relative to that of two equal, certain players:
/// `sqrt(2β² / c²) · exp(−(μa − μb)² / 2c²)`, `c² = 2β² + σa² + σb²`. skillratings has no
/// match quality of its own. 1 for fewer than two players.
pub fn match_quality(ratings: &[(f64, f64)]) -> f64 {
    let beta2 = WengLinConfig::new().beta.powi(2);
    let mut sum = 0.0;
    let mut pairs = 0u32;
    for (i, &(mu_a, sigma_a)) in ratings.iter().enumerate() {
        for &(mu_b, sigma_b) in &ratings[i + 1..] {
            let c2 = 2.0 * beta2 + sigma_a.powi(2) + sigma_b.powi(2);
            sum += (2.0 * beta2 / c2).sqrt() * (-(mu_a - mu_b).powi(2) / (2.0 * c2)).exp();
            pairs += 1;
        }
    }
    if pairs == 0 {
        1.0
    } else {
        sum / f64::from(pairs)
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
