//! Ratings per version (interim: the matchmaking part replaces this file).

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// A new version's σ, and a first version's (μ, σ): Weng-Lin's defaults.
pub const START: (f64, f64) = (25.0, 25.0 / 3.0);

/// The seats' new (μ, σ) after a match they finished at `ranks`.
pub fn rate(before: &[(f64, f64)], ranks: &[u32]) -> Vec<(f64, f64)> {
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
