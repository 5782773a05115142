//! Ratings per version: Weng-Lin's (μ, σ), updated by every ranked match with the very code the
//! tournament's leaderboard rates bots with ([`referee::tournament::ratings::updated`]). A
//! version starts from its predecessor's μ with σ reset to the default (what it is worth is
//! guessed from the bot's last version, with the uncertainty of a bot never seen); the board
//! ranks versions by the conservative μ − 3σ and shows the interval μ ± 3σ.

use referee::tournament::ratings::{initial, updated};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A version's rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Its estimated skill.
    pub mu: f64,
    /// The uncertainty of that estimate.
    pub sigma: f64,
}

impl Rating {
    /// The rating a new version starts from: its predecessor's μ (a new bot's: 25) and the
    /// default σ (25/3).
    pub fn new_version(predecessor: Option<Rating>) -> Rating {
        let (mu, sigma) = initial();
        Rating {
            mu: predecessor.map_or(mu, |p| p.mu),
            sigma,
        }
    }

    /// The rating as the board shows it.
    pub fn shown(self) -> Shown {
        Shown {
            mu: self.mu,
            sigma: self.sigma,
            conservative: self.mu - 3.0 * self.sigma,
            low: self.mu - 3.0 * self.sigma,
            high: self.mu + 3.0 * self.sigma,
        }
    }
}

/// A rating as the board shows it: ranked by `conservative`, with its interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    /// μ.
    pub mu: f64,
    /// σ.
    pub sigma: f64,
    /// μ − 3σ, what the board ranks by (the leaderboard's `conservative`).
    pub conservative: f64,
    /// The interval's low end, μ − 3σ.
    pub low: f64,
    /// The interval's high end, μ + 3σ.
    pub high: f64,
}

/// The ratings of one match's seats after it, from theirs before (by seat) and the ranks they
/// finished at (1 = best, ties shared).
pub fn after(before: &[Rating], ranks: &[u32]) -> Vec<Rating> {
    let pairs: Vec<(f64, f64)> = before.iter().map(|r| (r.mu, r.sigma)).collect();
    updated(&pairs, ranks)
        .into_iter()
        .map(|(mu, sigma)| Rating { mu, sigma })
        .collect()
}

/// Applies one finished ranked match to `ratings` (by version): the versions at `seats`
/// finished at `ranks`. A version without a rating yet starts as a new bot's
/// ([`Rating::new_version`]`(None)`); give a new version of a bot its predecessor's first.
pub fn apply(ratings: &mut BTreeMap<i64, Rating>, seats: &[i64], ranks: &[u32]) {
    let before: Vec<Rating> = seats
        .iter()
        .map(|v| {
            *ratings
                .entry(*v)
                .or_insert_with(|| Rating::new_version(None))
        })
        .collect();
    for (v, rating) in seats.iter().zip(after(&before, ranks)) {
        ratings.insert(*v, rating);
    }
}

/// The board: every version with its rating as shown, best first (highest μ − 3σ, then the
/// lower version id).
pub fn board(ratings: &BTreeMap<i64, Rating>) -> Vec<(i64, Shown)> {
    let mut rows: Vec<(i64, Shown)> = ratings.iter().map(|(&v, r)| (v, r.shown())).collect();
    rows.sort_by(|(a, x), (b, y)| y.conservative.total_cmp(&x.conservative).then(a.cmp(b)));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_version_keeps_its_predecessors_mu_with_sigma_reset() {
        let fresh = Rating::new_version(None);
        assert_eq!((fresh.mu, fresh.sigma), (25.0, 25.0 / 3.0));
        let next = Rating::new_version(Some(Rating {
            mu: 31.5,
            sigma: 1.2,
        }));
        assert_eq!((next.mu, next.sigma), (31.5, 25.0 / 3.0));
    }

    #[test]
    fn a_match_moves_the_winner_up_and_every_sigma_down_as_the_leaderboard_does() {
        let mut ratings = BTreeMap::new();
        apply(&mut ratings, &[7, 3, 9], &[2, 1, 3]);
        let mut tournament = referee::tournament::ratings::Ratings::new(3);
        tournament.apply(&[0, 1, 2], &[2, 1, 3]);
        for (i, v) in [7, 3, 9].into_iter().enumerate() {
            let (mu, sigma) = tournament.of(i);
            assert_eq!((ratings[&v].mu, ratings[&v].sigma), (mu, sigma));
            assert!(sigma < 25.0 / 3.0);
        }
        assert!(ratings[&3].mu > 25.0 && ratings[&9].mu < 25.0);
        let board = board(&ratings);
        assert_eq!(board.iter().map(|(v, _)| *v).collect::<Vec<_>>(), [3, 7, 9]);
        let top = board[0].1;
        assert_eq!(top.conservative, top.mu - 3.0 * top.sigma);
        assert_eq!(
            (top.low, top.high),
            (top.mu - 3.0 * top.sigma, top.mu + 3.0 * top.sigma)
        );
    }
}
