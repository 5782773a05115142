//! Seating: table counts, the first round's draw, movement, and who meets whom.

use super::super::together::together_every_round;
use super::super::*;
use std::collections::{BTreeMap, BTreeSet};

/// The fields the tests seat: three tables (9–12), four (13), and a large one (41).
const FIELDS: [usize; 6] = [9, 10, 11, 12, 13, 41];

/// A seating written by hand: bot indices, `-1` for a BYE.
fn by_hand(rows: &[[i32; 4]]) -> Seating {
    let tables = rows
        .iter()
        .map(|row| row.map(|b| usize::try_from(b).ok()))
        .collect();
    Seating { tables }
}

/// Every bot of the field seated once, and the BYEs (as many as tables of 3) in West seats of
/// distinct tables.
fn assert_well_seated(s: &Seating, bots: usize) {
    let (count, threes) = table_counts(bots);
    assert_eq!(s.tables.len(), count, "{bots} bots");
    let mut seated: Vec<usize> = s.tables.iter().flatten().flatten().copied().collect();
    seated.sort_unstable();
    assert_eq!(seated, (0..bots).collect::<Vec<_>>(), "{bots} bots: {s:?}");
    for row in &s.tables {
        assert!(row[..3].iter().all(Option::is_some), "{bots} bots: {s:?}");
    }
    let byes = s.tables.iter().filter(|row| row[3].is_none()).count();
    assert_eq!(byes, threes, "{bots} bots: {s:?}");
}

/// The tables whose West seat is a BYE.
fn bye_tables(s: &Seating) -> Vec<usize> {
    (0..s.tables.len())
        .filter(|&t| s.tables[t][3].is_none())
        .collect()
}

#[test]
fn table_counts_are_tables_of_4_then_tables_of_3() {
    let counts: Vec<_> = FIELDS.iter().map(|&n| table_counts(n)).collect();
    assert_eq!(counts, [(3, 3), (3, 2), (3, 1), (3, 0), (4, 3), (11, 3)]);
    assert_eq!(table_counts(16), (4, 0));
    assert_eq!(table_counts(0), (0, 0));
    for n in MIN_BOTS..200 {
        let (t, b) = table_counts(n);
        assert_eq!(4 * (t - b) + 3 * b, n);
        assert!(b <= 3 && b <= t);
    }
}

#[test]
fn the_first_round_puts_the_byes_in_the_west_seats_of_the_last_tables() {
    for bots in FIELDS {
        for seed in [0, 1, 7, u64::MAX] {
            let s = Seating::initial(bots, seed);
            assert_well_seated(&s, bots);
            let (count, threes) = table_counts(bots);
            assert_eq!(bye_tables(&s), (count - threes..count).collect::<Vec<_>>());
        }
    }
}

#[test]
fn every_round_seats_every_bot_once_with_the_byes_in_west_seats() {
    for bots in FIELDS {
        for seed in [3, 4] {
            let rounds = seatings(bots, 6, seed);
            assert_eq!(rounds.len(), 6);
            for s in &rounds {
                assert_well_seated(s, bots);
            }
        }
    }
}

#[test]
fn ten_bots_move_as_computed_by_hand() {
    // T = 3: N +1, E +2, S −1 ≡ +2, W −2 ≡ +1. Table t of the next round takes its North and
    // West from table t − 1 and its East and South from table t + 1; after 3 rounds every seat
    // is back where it started.
    let first = [[0, 1, 2, 3], [4, 5, 6, -1], [7, 8, 9, -1]];
    let second = [[7, 5, 6, -1], [0, 8, 9, 3], [4, 1, 2, -1]];
    let third = [[4, 8, 9, -1], [7, 1, 2, -1], [0, 5, 6, 3]];
    let expected = [first, second, third, first, second, third];

    let mut s = by_hand(&first);
    for (r, rows) in expected.iter().enumerate() {
        assert_eq!(s, by_hand(rows), "round {}", r + 1);
        s = s.next();
    }

    // A drawn seating moves the same way: bot k of the table above is whoever the draw put in
    // that seat.
    let drawn = seatings(10, 6, 99);
    let at: Vec<usize> = (0..3).flat_map(|t| drawn[0].players(t)).collect();
    for (r, rows) in expected.iter().enumerate() {
        let tables = rows
            .iter()
            .map(|row| row.map(|k| usize::try_from(k).ok().map(|k| at[k])))
            .collect();
        assert_eq!(drawn[r], Seating { tables }, "round {}", r + 1);
    }
}

#[test]
fn thirteen_bots_move_as_computed_by_hand() {
    // T = 4: N +1, E +2, S −1 ≡ +3, W −2 ≡ +2. Tables of rounds 1–6 of some bots, and the
    // seat each keeps.
    let s = by_hand(&[[0, 1, 2, 3], [4, 5, 6, -1], [7, 8, 9, -1], [10, 11, 12, -1]]);
    let trips: [(usize, Wind, [usize; 6]); 7] = [
        (0, Wind::North, [0, 1, 2, 3, 0, 1]),
        (1, Wind::East, [0, 2, 0, 2, 0, 2]),
        (2, Wind::South, [0, 3, 2, 1, 0, 3]),
        (3, Wind::West, [0, 2, 0, 2, 0, 2]),
        (6, Wind::South, [1, 0, 3, 2, 1, 0]),
        (10, Wind::North, [3, 0, 1, 2, 3, 0]),
        (11, Wind::East, [3, 1, 3, 1, 3, 1]),
    ];
    let rounds: Vec<Seating> = std::iter::successors(Some(s), |s| Some(s.next()))
        .take(6)
        .collect();
    for (bot, wind, tables) in trips {
        let seen: Vec<_> = rounds.iter().map(|s| s.seat_of(bot)).collect();
        let expected: Vec<_> = tables.iter().map(|&t| Some((t, wind))).collect();
        assert_eq!(seen, expected, "bot {bot}");
    }
}

#[test]
fn the_bye_moves_with_its_west_seat() {
    // 13 bots: BYEs at tables 1, 2, 3; West moves −2 ≡ +2 of 4 tables, so 3, 0, 1, and back.
    let thirteen: Vec<_> = seatings(13, 6, 5).iter().map(bye_tables).collect();
    let (odd, even) = (vec![1, 2, 3], vec![0, 1, 3]);
    assert_eq!(
        thirteen,
        [&odd, &even, &odd, &even, &odd, &even].map(Clone::clone)
    );
    // 41 bots: BYEs at tables 8, 9, 10, two tables down each round, wrapping at 11.
    let forty_one: Vec<_> = seatings(41, 6, 5).iter().map(bye_tables).collect();
    let expected: [Vec<usize>; 6] = [
        vec![8, 9, 10],
        vec![6, 7, 8],
        vec![4, 5, 6],
        vec![2, 3, 4],
        vec![0, 1, 2],
        vec![0, 9, 10],
    ];
    assert_eq!(forty_one, expected);
}

#[test]
fn the_draw_depends_on_the_seed_only() {
    for bots in FIELDS {
        assert_eq!(seatings(bots, 5, 11), seatings(bots, 5, 11));
    }
    assert_ne!(Seating::initial(41, 11), Seating::initial(41, 12));
}

#[test]
fn players_are_north_east_south_west_without_the_bye() {
    let s = by_hand(&[[5, 2, 9, 0], [1, 7, 3, -1], [8, 4, 6, -1]]);
    assert_eq!(s.players(0), [5, 2, 9, 0]);
    assert_eq!(s.players(1), [1, 7, 3]);
    assert_eq!(s.players(2), [8, 4, 6]);
    assert!(s.players(3).is_empty());
    assert_eq!(s.seat_of(9), Some((0, Wind::South)));
    assert_eq!(s.seat_of(7), Some((1, Wind::East)));
    assert_eq!(s.seat_of(10), None);
}

#[test]
fn winds_step_letter_and_index_agree() {
    let steps: Vec<_> = Wind::ALL.iter().map(|w| w.step()).collect();
    assert_eq!(steps, [1, 2, -1, -2]);
    let letters: Vec<_> = Wind::ALL.iter().map(|w| w.letter()).collect();
    assert_eq!(letters, ["N", "E", "S", "W"]);
    for (i, w) in Wind::ALL.iter().enumerate() {
        assert_eq!(w.index(), i);
    }
    let json = serde_json::to_string(&Wind::ALL).expect("serializes");
    assert_eq!(json, r#"["north","east","south","west"]"#);
    let back: [Wind; 4] = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back, Wind::ALL);
}

#[test]
fn fields_below_the_minimum_are_seated_without_panicking() {
    for bots in 1..MIN_BOTS {
        for s in seatings(bots, 4, 1) {
            let mut seated: Vec<usize> = s.tables.iter().flatten().flatten().copied().collect();
            seated.sort_unstable();
            assert_eq!(seated, (0..bots).collect::<Vec<_>>(), "{bots} bots");
            assert!(s.tables.iter().all(|row| row[0].is_some()), "{bots} bots");
        }
    }
    let none = Seating::initial(0, 1);
    assert!(none.tables.is_empty());
    assert_eq!(none.next(), none);
}

/// How many rounds each pair of bots shares a table, over `rounds`.
fn meetings(rounds: &[Seating]) -> BTreeMap<(usize, usize), usize> {
    let mut met = BTreeMap::new();
    for s in rounds {
        for t in 0..s.tables.len() {
            let p = s.players(t);
            for (i, &a) in p.iter().enumerate() {
                for &b in &p[i + 1..] {
                    *met.entry((a.min(b), a.max(b))).or_insert(0) += 1;
                }
            }
        }
    }
    met
}

/// The pairs of bots in seats `a` and `b` of a table in round 1.
fn seat_pairs(s: &Seating, a: Wind, b: Wind) -> BTreeSet<(usize, usize)> {
    s.tables
        .iter()
        .filter_map(|row| Some((row[a.index()]?, row[b.index()]?)))
        .map(|(x, y)| (x.min(y), x.max(y)))
        .collect()
}

/// Pairs meeting more than once over 5 rounds.
fn repeats(bots: usize, seed: u64) -> usize {
    meetings(&seatings(bots, 5, seed))
        .values()
        .filter(|&&n| n > 1)
        .count()
}

#[test]
fn with_three_tables_north_meets_west_and_east_meets_south_every_round() {
    // T = 3: North +1 and West −2 ≡ +1 move together, as do East +2 and South −1 ≡ +2. Any
    // other two seats meet once every 3 rounds (their steps differ by 1 or 2 of 3 tables).
    for bots in 9..=12 {
        for seed in [1, 2] {
            let rounds = seatings(bots, 5, seed);
            let always: BTreeSet<_> = meetings(&rounds)
                .into_iter()
                .filter(|&(_, n)| n == 5)
                .map(|(pair, _)| pair)
                .collect();
            let first = &rounds[0];
            let together: BTreeSet<_> = seat_pairs(first, Wind::North, Wind::West)
                .union(&seat_pairs(first, Wind::East, Wind::South))
                .copied()
                .collect();
            assert_eq!(always, together, "{bots} bots");
            let found: BTreeSet<_> = together_every_round(&rounds).into_iter().collect();
            assert_eq!(found, always, "{bots} bots: the leaderboard's note");
            // One East–South pair a table, one North–West pair a table of 4.
            assert_eq!(always.len(), bots - 6, "{bots} bots");
        }
    }
    let found: Vec<_> = (9..=12).map(|bots| repeats(bots, 1)).collect();
    assert_eq!(found, [15, 20, 25, 30]);
}

#[test]
fn with_four_tables_east_meets_west_every_round() {
    // T = 4: East +2 and West −2 ≡ +2 move together; North +1 and South −1 ≡ +3 share a table
    // every other round (3 times in 5 rounds if they do in the first, else twice); any other two
    // seats' steps differ by 1 mod 4, so they meet once every 4 rounds, twice in 5 rounds if they
    // meet in the first. Two bots in the same seat never meet.
    for bots in 13..=16 {
        for seed in [1, 2] {
            let rounds = seatings(bots, 5, seed);
            let always: BTreeSet<_> = meetings(&rounds)
                .into_iter()
                .filter(|&(_, n)| n == 5)
                .map(|(pair, _)| pair)
                .collect();
            assert_eq!(
                always,
                seat_pairs(&rounds[0], Wind::East, Wind::West),
                "{bots} bots"
            );
            let found: BTreeSet<_> = together_every_round(&rounds).into_iter().collect();
            assert_eq!(found, always, "{bots} bots: the leaderboard's note");
        }
    }
    let found: Vec<_> = (13..=16)
        .map(|bots| (repeats(bots, 1), repeats(bots, 2)))
        .collect();
    assert_eq!(found, [(19, 19), (22, 22), (25, 25), (28, 28)]);
}

#[test]
fn forty_one_bots_never_meet_twice_in_five_rounds() {
    // T = 11 is prime and no two steps are equal mod 11: two seats meet at most once in 11
    // rounds, and two bots of the same seat never meet again.
    assert_eq!(repeats(41, 1), 0);
    assert!(together_every_round(&seatings(41, 5, 1)).is_empty());
    assert_eq!(repeats(41, 2), 0);
}
