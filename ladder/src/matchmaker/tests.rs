//! The matchmaker's rules, as properties over random fields.

use super::{Candidate, PlannedMatch, RecentTable, Request, plan, sizes};
use crate::config::MatchmakingSettings;
use engine::PlayerCounts;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

const COUNTS: PlayerCounts = PlayerCounts {
    game: "test",
    min: 2,
    max: 6,
};

fn candidate(version: i64, owner: usize, mu: f64, sigma: f64, last: Option<i64>) -> Candidate {
    Candidate {
        version,
        owner: format!("owner{owner}"),
        mu,
        sigma,
        last_played: last,
        is_new: last.is_none(),
    }
}

fn field() -> impl Strategy<Value = Vec<Candidate>> {
    prop::collection::vec(
        (
            0usize..6,
            0.0f64..50.0,
            0.5f64..8.4,
            prop::option::of(0i64..100_000),
        ),
        0..10,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(|(i, (owner, mu, sigma, last))| candidate(i as i64 + 1, owner, mu, sigma, last))
            .collect()
    })
}

/// Tables of the field's versions played at times up to 100 s.
fn recent(n: usize) -> impl Strategy<Value = Vec<RecentTable>> {
    prop::collection::vec(
        (
            prop::collection::vec(1..=n.max(1) as i64, 2..=6),
            0i64..100_000,
        ),
        0..12,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .map(|(versions, at)| RecentTable {
                versions: versions
                    .into_iter()
                    .collect::<BTreeSet<i64>>()
                    .into_iter()
                    .collect(),
                at,
            })
            .collect()
    })
}

#[derive(Debug, Clone)]
struct Case {
    field: Vec<Candidate>,
    recent: Vec<RecentTable>,
    players: (usize, usize),
    settings: MatchmakingSettings,
    seed: u64,
    tables: usize,
}

fn case() -> impl Strategy<Value = Case> {
    field().prop_flat_map(|field| {
        let n = field.len();
        (
            Just(field),
            recent(n),
            (2usize..=4, 0usize..=3),
            any::<bool>(),
            0u64..=60,
            any::<u64>(),
            1usize..=4,
        )
            .prop_map(
                |(field, recent, (min, extra), duplicate, repeat_s, seed, tables)| Case {
                    field,
                    recent,
                    players: (min, min + extra),
                    settings: MatchmakingSettings {
                        queue: 8,
                        repeat_s,
                        duplicate,
                    },
                    seed,
                    tables,
                },
            )
    })
}

const NOW: i64 = 100_000;

fn run(case: &Case) -> Vec<PlannedMatch> {
    plan(&Request {
        candidates: &case.field,
        recent: &case.recent,
        now: NOW,
        players: case.players.0..=case.players.1,
        counts: COUNTS,
        settings: &case.settings,
        seed: case.seed,
        next_group: 7,
        tables: case.tables,
    })
}

/// The tables of a plan, each sorted, in order.
fn tables(planned: &[PlannedMatch]) -> Vec<Vec<i64>> {
    let mut by_group: BTreeMap<u64, Vec<i64>> = BTreeMap::new();
    for m in planned {
        let mut t = m.seats.clone();
        t.sort_unstable();
        by_group.entry(m.group).or_insert(t);
    }
    by_group.into_values().collect()
}

/// The recent tables within the repeat window, sorted.
fn in_window(case: &Case) -> BTreeSet<Vec<i64>> {
    let start = NOW - case.settings.repeat_s as i64 * 1000;
    case.recent
        .iter()
        .filter(|t| t.at > start)
        .map(|t| t.versions.clone())
        .collect()
}

fn owner_of(case: &Case, version: i64) -> &str {
    &case
        .field
        .iter()
        .find(|c| c.version == version)
        .unwrap()
        .owner
}

/// Whether any table at all (any size allowed, any versions) breaks no rule.
fn any_allowed(case: &Case) -> bool {
    let n = case.field.len();
    let allowed = sizes(&(case.players.0..=case.players.1), &COUNTS);
    let window = in_window(case);
    (0u32..1 << n).any(|mask| {
        let table: Vec<&Candidate> = (0..n)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| &case.field[i])
            .collect();
        let owners: BTreeSet<&str> = table.iter().map(|c| c.owner.as_str()).collect();
        let versions: Vec<i64> = table.iter().map(|c| c.version).collect();
        allowed.contains(&table.len()) && owners.len() == table.len() && !window.contains(&versions)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn tables_have_one_version_per_owner_and_an_allowed_size(case in case()) {
        let allowed = sizes(&(case.players.0..=case.players.1), &COUNTS);
        for m in run(&case) {
            prop_assert!(allowed.contains(&m.seats.len()), "{:?}", m.seats);
            let owners: BTreeSet<&str> = m.seats.iter().map(|&v| owner_of(&case, v)).collect();
            prop_assert_eq!(owners.len(), m.seats.len(), "{:?}", m.seats);
        }
    }

    #[test]
    fn no_table_repeats_within_the_window_while_another_may_be_seated(case in case()) {
        let planned = run(&case);
        let window = in_window(&case);
        let tables = tables(&planned);
        if any_allowed(&case) {
            prop_assert!(!window.contains(&tables[0]), "{:?} repeats a recent table", tables[0]);
        }
        // The window yields, the owner rule does not: a table is seated whenever one of
        // distinct owners and an allowed size exists.
        let any_table = any_allowed(&Case { recent: Vec::new(), ..case.clone() });
        prop_assert_eq!(planned.is_empty(), !any_table);
    }

    #[test]
    fn a_new_version_is_seated_first(mut case in case()) {
        case.recent.clear();
        let planned = run(&case);
        let first_new = case.field.iter().filter(|c| c.is_new).map(|c| c.version).min();
        if let (Some(first), Some(m)) = (first_new, planned.first()) {
            prop_assert!(m.seats.contains(&first), "{first} not in {:?}", m.seats);
        }
    }

    #[test]
    fn duplicate_groups_rotate_one_deal_through_the_seats(case in case()) {
        let planned = run(&case);
        let mut groups: BTreeMap<u64, Vec<&PlannedMatch>> = BTreeMap::new();
        for m in &planned {
            groups.entry(m.group).or_default().push(m);
        }
        for (group, matches) in groups {
            prop_assert!((7..7 + case.tables as u64).contains(&group));
            let p = matches[0].seats.len();
            let expected = if case.settings.duplicate { p } else { 1 };
            prop_assert_eq!(matches.len(), expected);
            if case.settings.duplicate {
                prop_assert!(matches.iter().all(|m| m.seed == matches[0].seed));
                for seat in 0..p {
                    let at: BTreeSet<i64> = matches.iter().map(|m| m.seats[seat]).collect();
                    prop_assert_eq!(at.len(), p);
                }
            }
        }
    }

    #[test]
    fn over_many_rounds_every_version_plays_a_far_apart_one_too(seed in any::<u64>(), n in 4usize..16) {
        // One version far above the rest and certain of it: match quality alone never seats it.
        let mut field: Vec<Candidate> = (0..n)
            .map(|i| candidate(i as i64 + 1, i, 20.0 + i as f64 * 0.1, 1.0, Some(0)))
            .collect();
        field[0].mu = 60.0;
        let settings = MatchmakingSettings { queue: 8, repeat_s: 0, duplicate: false };
        let mut played = BTreeSet::new();
        for round in 0..3 * n as u64 {
            let now = 1000 * (round as i64 + 1);
            let planned = plan(&Request {
                candidates: &field,
                recent: &[],
                now,
                players: 2..=3,
                counts: COUNTS,
                settings: &settings,
                seed,
                next_group: round,
                tables: 1,
            });
            for m in &planned {
                for &v in &m.seats {
                    played.insert(v);
                    field[v as usize - 1].last_played = Some(now);
                }
            }
        }
        prop_assert_eq!(played.len(), n);
    }
}

#[test]
fn fewer_versions_than_the_smallest_table_get_nothing() {
    let field = vec![
        candidate(1, 0, 25.0, 8.0, None),
        candidate(2, 1, 25.0, 8.0, None),
    ];
    let settings = MatchmakingSettings::default();
    let request = Request {
        candidates: &field,
        recent: &[],
        now: 0,
        players: 3..=4,
        counts: COUNTS,
        settings: &settings,
        seed: 1,
        next_group: 0,
        tables: 4,
    };
    assert!(plan(&request).is_empty());
}

#[test]
fn two_versions_of_one_owner_are_not_a_table() {
    let field = vec![
        candidate(1, 0, 25.0, 8.0, None),
        candidate(2, 0, 25.0, 8.0, None),
    ];
    let settings = MatchmakingSettings::default();
    let request = Request {
        candidates: &field,
        recent: &[],
        now: 0,
        players: 2..=2,
        counts: COUNTS,
        settings: &settings,
        seed: 1,
        next_group: 0,
        tables: 1,
    };
    assert!(plan(&request).is_empty());
}

#[test]
fn versions_of_small_sigma_are_not_seated_far_more_than_the_others() {
    // Six settled versions (σ 1) among 24 unsettled ones (σ 6), all at one μ: by match quality
    // alone the settled ones are every table's best-matched opponents.
    let mut field: Vec<Candidate> = (0..30)
        .map(|i| {
            let sigma = if i < 6 { 1.0 } else { 6.0 };
            candidate(i as i64 + 1, i, 25.0, sigma, Some(0))
        })
        .collect();
    let settings = MatchmakingSettings {
        queue: 8,
        repeat_s: 0,
        duplicate: false,
    };
    let mut seats = vec![0u32; field.len()];
    for round in 0..150u64 {
        let now = 1000 * (round as i64 + 1);
        let planned = plan(&Request {
            candidates: &field,
            recent: &[],
            now,
            players: 3..=5,
            counts: COUNTS,
            settings: &settings,
            seed: 29,
            next_group: round,
            tables: 1,
        });
        for m in &planned {
            for &v in &m.seats {
                seats[v as usize - 1] += 1;
                field[v as usize - 1].last_played = Some(now);
            }
        }
    }
    let total: u32 = seats.iter().sum();
    let mean = f64::from(total) / seats.len() as f64;
    let most = f64::from(*seats.iter().max().unwrap());
    let least = f64::from(*seats.iter().min().unwrap());
    assert!(most <= 2.0 * mean, "{seats:?}");
    assert!(least >= mean / 2.0, "{seats:?}");
}
