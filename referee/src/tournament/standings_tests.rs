//! Unit tests of the leaderboard's numbers.

use super::*;
use crate::runner::{MatchRecord, SeatStats};

/// A Vabanque field of `bots` with `scheduled` matches.
pub(super) fn vabanque(bots: &[String], scheduled: u64) -> Field<'_> {
    Field {
        game: "vabanque",
        score_name: "money",
        bots,
        scheduled,
        seed: 0,
        higher_is_better: true,
        format: FormatSpec::default(),
        candidate: None,
    }
}

fn result(id: u64, group: u64, players: &[&str], scores: &[i64], ranks: &[u32]) -> MatchResult {
    MatchResult {
        id,
        group,
        record: MatchRecord {
            match_id: id.to_string(),
            game: "vabanque".into(),
            seed: 0,
            players: players.iter().map(|s| s.to_string()).collect(),
            scores: scores.to_vec(),
            ranks: ranks.to_vec(),
            faults: Vec::new(),
            stats: vec![SeatStats::default(); players.len()],
            duration_ms: 1.0,
            internal_error: None,
        },
        stderr: Vec::new(),
    }
}

#[test]
fn wins_shared_places_head_to_head_and_order_independence() {
    let bots: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let r = [
        result(0, 0, &["a", "b", "c"], &[30, 20, 10], &[1, 2, 3]),
        result(1, 0, &["b", "c", "a"], &[20, 20, 5], &[1, 1, 3]),
        result(2, 1, &["c", "a", "b"], &[0, 40, 10], &[3, 1, 2]),
    ];
    let refs: Vec<&MatchResult> = r.iter().collect();
    let board = compute(&vabanque(&bots, 3), &refs);
    let a = board.standings.iter().find(|s| s.bot == "a").unwrap();
    assert_eq!(a.wins, 2.0);
    let b = board.standings.iter().find(|s| s.bot == "b").unwrap();
    assert_eq!(b.wins, 0.5, "a first place shared by two counts one half");
    assert_eq!(b.matches, 3);
    assert!((b.mean_rank.unwrap() - 5.0 / 3.0).abs() < 1e-9);
    // b's groups: 0 (scores 20, 20) and 1 (score 10): group means 20 and 10.
    assert_eq!(b.mean_score, Some(15.0));
    assert!(
        (b.score_ci95.unwrap() - 12.706 * 5.0).abs() < 1e-9,
        "t with 1 degree of freedom"
    );
    // Reversed input order: the same leaderboard.
    let reversed: Vec<&MatchResult> = r.iter().rev().collect();
    assert_eq!(compute(&vabanque(&bots, 3), &reversed), board);
    // a above b in 2 of 3 meetings.
    let ia = board.standings.iter().position(|s| s.bot == "a").unwrap();
    let ib = board.standings.iter().position(|s| s.bot == "b").unwrap();
    assert_eq!(board.head_to_head[ia][ib].met, 3);
    assert!((board.head_to_head[ia][ib].above - 2.0 / 3.0).abs() < 1e-9);
    // b and c tied once: half a point each way.
    let ic = board.standings.iter().position(|s| s.bot == "c").unwrap();
    assert!((board.head_to_head[ib][ic].above - 2.5 / 3.0).abs() < 1e-9);
    // Ordered by μ − 3σ.
    assert!(
        board
            .standings
            .windows(2)
            .all(|w| w[0].conservative >= w[1].conservative)
    );
}

mod edge_cases {
    use super::super::*;

    #[test]
    fn no_interval_without_two_groups_and_no_means_without_matches() {
        assert_eq!(mean_and_ci(&[]), (None, None));
        assert_eq!(mean_and_ci(&[4.0]), (Some(4.0), None));
        let (mean, ci) = mean_and_ci(&[1.0, 3.0]);
        assert_eq!(mean, Some(2.0));
        assert!((ci.unwrap() - 12.706).abs() < 1e-9);
        assert!((t95(1000) - 1.9625).abs() < 1e-3);
        let bots = ["a".to_string()];
        let board = compute(&super::vabanque(&bots, 0), &[]);
        assert_eq!(board.standings[0].mean_rank, None);
    }
}
