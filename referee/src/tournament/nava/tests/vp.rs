//! Victory Points: a table's round, the difference bands, and the tournament order.

use super::super::*;

/// An entry that played every hand.
fn played(bot: usize, mp: i64) -> TableEntry {
    TableEntry {
        bot,
        mp,
        forfeited: false,
    }
}

/// An entry that forfeited a hand.
fn forfeited(bot: usize, mp: i64) -> TableEntry {
    TableEntry {
        bot,
        mp,
        forfeited: true,
    }
}

/// (bot, place, ranking VP, difference, difference VP, total VP) of each entry, in order.
fn summary(vps: &[TableVp]) -> Vec<(usize, usize, u32, i64, u32, u32)> {
    vps.iter()
        .map(|v| {
            assert_eq!(v.total_vp, v.ranking_vp + v.difference_vp);
            (
                v.bot,
                v.place,
                v.ranking_vp,
                v.difference,
                v.difference_vp,
                v.total_vp,
            )
        })
        .collect()
}

#[test]
fn a_table_of_four_without_ties() {
    // Lower is better, 4 hands: places 10 (bot 0), 25 (bot 1), 70 (bot 2), 150 (bot 3).
    // Bot 0: (25 − 10) + (70 − 10) + (150 − 10) = 15 + 60 + 140 = 215 > 200 → 12; 8 + 12 = 20.
    // Bot 1: (70 − 25) + (150 − 25) = 45 + 125 = 170, in 161–200 → 10; 6 + 10 = 16.
    // Bot 2: 150 − 70 = 80, in 61–90 → 4; 4 + 4 = 8.
    // Bot 3: nobody below → 0; 2 + 0 = 2.
    let entries = [played(2, 70), played(0, 10), played(3, 150), played(1, 25)];
    let vps = table_vp(&entries, 4, false);
    assert_eq!(
        summary(&vps),
        [
            (2, 3, 4, 80, 4, 8),
            (0, 1, 8, 215, 12, 20),
            (3, 4, 2, 0, 0, 2),
            (1, 2, 6, 170, 10, 16),
        ]
    );
    let mps: Vec<i64> = vps.iter().map(|v| v.mp).collect();
    assert_eq!(mps, [70, 10, 150, 25]);
}

#[test]
fn a_tie_for_first_shares_eight_and_six() {
    // Bots 0 and 1 on 20 share places 1–2: (8 + 6) / 2 = 7; neither is below the other, so
    // each has (50 − 20) + (100 − 20) = 110 → 6.
    let vps = table_vp(
        &[played(0, 20), played(1, 20), played(2, 50), played(3, 100)],
        4,
        false,
    );
    assert_eq!(
        summary(&vps),
        [
            (0, 1, 7, 110, 6, 13),
            (1, 1, 7, 110, 6, 13),
            (2, 3, 4, 50, 2, 6),
            (3, 4, 2, 0, 0, 2),
        ]
    );
}

#[test]
fn a_tie_for_second_and_third_shares_six_and_four() {
    // 3 hands. Bot 0: 40 + 40 + 41 = 121 → 8. Bots 1 and 2 share (6 + 4) / 2 = 5, each 1
    // ahead of bot 3 → 0.
    let vps = table_vp(
        &[played(0, 0), played(1, 40), played(2, 40), played(3, 41)],
        3,
        false,
    );
    assert_eq!(
        summary(&vps),
        [
            (0, 1, 8, 121, 8, 16),
            (1, 2, 5, 1, 0, 5),
            (2, 2, 5, 1, 0, 5),
            (3, 4, 2, 0, 0, 2),
        ]
    );
}

#[test]
fn three_way_ties_share_three_places() {
    // First to third: (8 + 6 + 4) / 3 = 6 each, and 90 − 30 = 60 → 2.
    let top = table_vp(
        &[played(0, 30), played(1, 30), played(2, 30), played(3, 90)],
        4,
        false,
    );
    assert_eq!(
        summary(&top),
        [
            (0, 1, 6, 60, 2, 8),
            (1, 1, 6, 60, 2, 8),
            (2, 1, 6, 60, 2, 8),
            (3, 4, 2, 0, 0, 2),
        ]
    );
    // Second to fourth: (6 + 4 + 2) / 3 = 4 each; bot 0 has 3 × 50 = 150 → 8.
    let bottom = table_vp(
        &[played(0, 10), played(1, 60), played(2, 60), played(3, 60)],
        4,
        false,
    );
    assert_eq!(
        summary(&bottom),
        [
            (0, 1, 8, 150, 8, 16),
            (1, 2, 4, 0, 0, 4),
            (2, 2, 4, 0, 0, 4),
            (3, 2, 4, 0, 0, 4),
        ]
    );
}

#[test]
fn four_tied_share_everything() {
    // (8 + 6 + 4 + 2) / 4 = 5, nobody below anybody.
    let vps = table_vp(
        &[played(3, 45), played(1, 45), played(0, 45), played(2, 45)],
        5,
        false,
    );
    assert_eq!(
        summary(&vps),
        [
            (3, 1, 5, 0, 0, 5),
            (1, 1, 5, 0, 0, 5),
            (0, 1, 5, 0, 0, 5),
            (2, 1, 5, 0, 0, 5),
        ]
    );
}

#[test]
fn a_table_of_three_gives_eight_six_four() {
    // The BYE is no entry. 5 hands: bot 4 has 28 + 88 = 116, in 81–130 → 4; bot 7 has 60, in
    // 41–80 → 2.
    let vps = table_vp(&[played(7, 40), played(9, 100), played(4, 12)], 5, false);
    assert_eq!(
        summary(&vps),
        [
            (7, 2, 6, 60, 2, 8),
            (9, 3, 4, 0, 0, 4),
            (4, 1, 8, 116, 4, 12),
        ]
    );
}

#[test]
fn higher_is_better_ranks_the_highest_first() {
    // Bot 0: (100 − 60) + (100 − 60) + (100 − (−10)) = 40 + 40 + 110 = 190 → 10. Bots 1 and 2
    // share (6 + 4) / 2 = 5 with 60 − (−10) = 70 → 4.
    let vps = table_vp(
        &[played(3, -10), played(2, 60), played(1, 60), played(0, 100)],
        4,
        true,
    );
    assert_eq!(
        summary(&vps),
        [
            (3, 4, 2, 0, 0, 2),
            (2, 2, 5, 70, 4, 9),
            (1, 2, 5, 70, 4, 9),
            (0, 1, 8, 190, 10, 18),
        ]
    );
}

#[test]
fn a_forfeit_ranks_last_and_a_negative_difference_counts_as_zero() {
    // Bot 2 forfeited with the best MP: it ranks 4th. Bot 0: 30 + 70 + (10 − 50) = 60 → 2.
    // Bot 1: 40 + (10 − 80) = −30 → 0. Bot 3: 10 − 120 = −110 → 0.
    let vps = table_vp(
        &[
            played(0, 50),
            played(1, 80),
            forfeited(2, 10),
            played(3, 120),
        ],
        4,
        false,
    );
    assert_eq!(
        summary(&vps),
        [
            (0, 1, 8, 60, 2, 10),
            (1, 2, 6, 0, 0, 6),
            (2, 4, 2, 0, 0, 2),
            (3, 3, 4, 0, 0, 4),
        ]
    );
    // Two forfeits on equal MP tie with each other, not with a player on the same MP.
    let vps = table_vp(
        &[
            played(0, 10),
            forfeited(1, 10),
            forfeited(2, 10),
            played(3, 80),
        ],
        4,
        false,
    );
    assert_eq!(
        summary(&vps),
        [
            (0, 1, 8, 70, 4, 12),
            (1, 3, 3, 0, 0, 3),
            (2, 3, 3, 0, 0, 3),
            (3, 2, 6, 0, 0, 6),
        ]
    );
}

#[test]
fn no_entries_score_nothing() {
    assert!(table_vp(&[], 4, false).is_empty());
}

#[test]
fn difference_bands_of_three_and_four_hands() {
    let bands = [
        (0, 0),
        (30, 0),
        (31, 2),
        (60, 2),
        (61, 4),
        (90, 4),
        (91, 6),
        (120, 6),
        (121, 8),
        (160, 8),
        (161, 10),
        (200, 10),
        (201, 12),
        (i64::MAX, 12),
        (-1, 0),
        (i64::MIN, 0),
    ];
    for hands in [0, 1, 2, 3, 4] {
        for (difference, vp) in bands {
            assert_eq!(
                difference_vp(difference, hands),
                vp,
                "{difference}, {hands}"
            );
        }
    }
}

#[test]
fn difference_bands_of_five_hands() {
    let bands = [
        (0, 0),
        (40, 0),
        (41, 2),
        (80, 2),
        (81, 4),
        (130, 4),
        (131, 6),
        (190, 6),
        (191, 8),
        (250, 8),
        (251, 10),
        (300, 10),
        (301, 12),
        (-25, 0),
    ];
    for hands in [5, 6, u32::MAX] {
        for (difference, vp) in bands {
            assert_eq!(
                difference_vp(difference, hands),
                vp,
                "{difference}, {hands}"
            );
        }
    }
}

fn totals(bot: usize, vp: u32, difference_vp: u32, mp: i64) -> Totals {
    Totals {
        bot,
        vp,
        difference_vp,
        mp,
    }
}

/// (rank, bot) of an order.
fn ranks(order: &[(usize, Totals)]) -> Vec<(usize, usize)> {
    order.iter().map(|&(rank, t)| (rank, t.bot)).collect()
}

#[test]
fn order_is_by_vp_then_difference_vp_then_mp_with_shared_ranks() {
    // Bot 2 has the most VP; bot 1 leads the 30s on difference VP; bots 4, 0, 3 are then
    // apart by MP only, bots 0 and 3 equal on all three.
    let field = [
        totals(3, 30, 10, 100),
        totals(5, 10, 0, 0),
        totals(0, 30, 10, 100),
        totals(4, 30, 10, 90),
        totals(1, 30, 12, 300),
        totals(2, 34, 0, 500),
    ];
    let lower = order(&field, false);
    assert_eq!(
        ranks(&lower),
        [(1, 2), (2, 1), (3, 4), (4, 0), (4, 3), (6, 5)]
    );
    let higher = order(&field, true);
    assert_eq!(
        ranks(&higher),
        [(1, 2), (2, 1), (3, 0), (3, 3), (5, 4), (6, 5)]
    );
    assert_eq!(lower[0].1, field[5], "the totals come back whole");
}

#[test]
fn everybody_equal_shares_first_place_in_bot_order() {
    let field = [
        totals(2, 8, 2, 40),
        totals(0, 8, 2, 40),
        totals(1, 8, 2, 40),
    ];
    assert_eq!(ranks(&order(&field, false)), [(1, 0), (1, 1), (1, 2)]);
    assert!(order(&[], true).is_empty());
}
