//! A gauntlet's leaderboard: the candidate plays every match and each other bot a share of
//! them, so the candidate's σ shrinks faster than theirs, and by its own μ − 3σ it could rank
//! above a bot with a higher μ only for having been measured more. So the candidate is ranked
//! among the others by μ − 3σ taken with *their* σ (the median of the others'): its μ
//! compared at the others' uncertainty, like with like. The others keep their own μ − 3σ
//! (they play about as many matches each). [`CandidateStanding`] records what the candidate
//! was ranked by, for every rendering to show it ([`legend::candidate_note`](crate::tournament::legend::candidate_note)).

use crate::tournament::format::own_standings::FormatStandings;
use crate::tournament::standings::Leaderboard;
use serde::Serialize;

/// How a gauntlet's candidate is ranked among the others.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CandidateStanding {
    /// The candidate.
    pub bot: String,
    /// Matches it played (all of them).
    pub matches: u64,
    /// The fewest matches another bot played.
    pub others_matches_min: u64,
    /// The most matches another bot played.
    pub others_matches_max: u64,
    /// Its μ.
    pub mu: f64,
    /// Its own σ.
    pub sigma: f64,
    /// The others' σ it is ranked with: their median.
    pub others_sigma: f64,
    /// What it is ranked by: μ − 3 × the others' σ.
    pub rank_rating: f64,
    /// Its own μ − 3σ, which it is not ranked by.
    pub own_rating: f64,
}

/// `board` (ranked by each bot's own μ − 3σ) with its candidate `candidate` ranked by μ − 3σ
/// at the others' σ, and that recorded as its format's standings; unchanged while the
/// candidate or no other bot has played.
pub fn ranked(board: Leaderboard, candidate: &str) -> Leaderboard {
    let standings = &board.standings;
    let Some(at) = standings
        .iter()
        .position(|s| s.bot == candidate && s.matches > 0)
    else {
        return board;
    };
    let others: Vec<_> = standings
        .iter()
        .enumerate()
        .filter(|&(i, s)| i != at && s.matches > 0)
        .map(|(_, s)| s)
        .collect();
    let mut sigmas: Vec<f64> = others.iter().map(|s| s.sigma).collect();
    let Some(others_sigma) = median(&mut sigmas) else {
        return board;
    };
    let c = &standings[at];
    let standing = CandidateStanding {
        bot: c.bot.clone(),
        matches: c.matches,
        others_matches_min: others.iter().map(|s| s.matches).min().unwrap_or(0),
        others_matches_max: others.iter().map(|s| s.matches).max().unwrap_or(0),
        mu: c.mu,
        sigma: c.sigma,
        others_sigma,
        rank_rating: c.mu - 3.0 * others_sigma,
        own_rating: c.conservative,
    };
    let key = |i: usize| match i == at {
        true => standing.rank_rating,
        false => standings[i].conservative,
    };
    let mut order: Vec<usize> = (0..standings.len()).collect();
    // Bots that have not played stay last; equal ratings keep the board's order.
    order.sort_by(|&a, &b| {
        (standings[b].matches > 0)
            .cmp(&(standings[a].matches > 0))
            .then(key(b).total_cmp(&key(a)))
            .then(a.cmp(&b))
    });
    let ranks: Vec<usize> = (1..=order.len()).collect();
    let mut board = board.reordered(&order, &ranks);
    board.format_standings = Some(FormatStandings::Gauntlet(Box::new(standing)));
    board
}

/// The median of `values` (sorted in place), `None` for none.
fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some((values[n / 2 - 1] + values[n / 2]) / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::standings::{HeadToHead, Standing};
    use std::collections::BTreeMap;

    fn standing(bot: &str, mu: f64, sigma: f64, matches: u64) -> Standing {
        Standing {
            rank: 0,
            bot: bot.into(),
            mu,
            sigma,
            conservative: mu - 3.0 * sigma,
            matches,
            wins: 0.0,
            win_rate: None,
            mean_rank: None,
            mean_score: None,
            score_ci95: None,
            faults: BTreeMap::new(),
            forfeits: 0,
            mean_ms: None,
            p99_ms: None,
        }
    }

    fn board(standings: Vec<Standing>) -> Leaderboard {
        let n = standings.len();
        Leaderboard {
            game: "vabanque".into(),
            score_name: "money".into(),
            higher_is_better: true,
            matches: 224,
            scheduled: 224,
            standings,
            head_to_head: vec![vec![HeadToHead::default(); n]; n],
            format: Default::default(),
            format_standings: None,
        }
    }

    #[test]
    fn a_narrow_interval_does_not_rank_the_candidate_above_a_higher_mu() {
        // The figures: the candidate's own μ − 3σ (26.78) is above the strong bot's
        // (22.32), its μ (30.29) below.
        let given = board(vec![
            standing("cand", 30.29, 1.17, 224),
            standing("strong", 31.05, 2.91, 84),
            standing("weak", 20.0, 2.95, 84),
            standing("mid", 26.0, 2.90, 84),
        ]);
        let ranked = ranked(given, "cand");
        let order: Vec<&str> = ranked.standings.iter().map(|s| s.bot.as_str()).collect();
        assert_eq!(order, ["strong", "cand", "mid", "weak"]);
        assert_eq!(
            ranked.standings.iter().map(|s| s.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        let Some(FormatStandings::Gauntlet(c)) = &ranked.format_standings else {
            panic!("the candidate's standing is recorded");
        };
        assert_eq!(c.others_sigma, 2.91, "the median of 2.90, 2.91, 2.95");
        assert!((c.rank_rating - (30.29 - 3.0 * 2.91)).abs() < 1e-9);
        assert!((c.own_rating - (30.29 - 3.0 * 1.17)).abs() < 1e-9);
        assert_eq!((c.others_matches_min, c.others_matches_max), (84, 84));
    }

    #[test]
    fn nothing_changes_before_the_candidate_and_another_bot_have_played() {
        let unplayed = board(vec![
            standing("a", 25.0, 8.33, 0),
            standing("cand", 25.0, 8.33, 0),
        ]);
        assert_eq!(ranked(unplayed.clone(), "cand"), unplayed);
        let alone = board(vec![
            standing("cand", 27.0, 5.0, 3),
            standing("a", 25.0, 8.33, 0),
        ]);
        assert_eq!(ranked(alone.clone(), "cand"), alone);
    }

    #[test]
    fn medians() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), Some(2.5));
    }
}
