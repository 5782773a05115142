//! A simulated ladder: a fixed field of versions with hidden strengths, matches decided by
//! those strengths with noise, the matchmaker choosing and the ratings per version updated;
//! then a new version enters, and the matches it needs until its σ is below 2 are counted.
//! `cargo test -p referee-ladder simulation -- --nocapture` prints the figures
//! (docs/ladder-matchmaking.md quotes them).

use super::{Candidate, Request, plan};
use crate::config::MatchmakingSettings;
use crate::ratings::{Rating, apply};
use engine::{PlayerCounts, seed};
use rand::RngExt;
use std::collections::BTreeMap;

/// Versions in the field before the newcomer.
const FIELD: usize = 20;
/// Tables played before the newcomer enters (every version has played many by then).
const WARM_UP: u64 = 400;
/// Tables queued per matchmaker call (the default `queue` of 8 matches is 2 duplicate groups
/// of 4 or so; the simulation plays without duplicate play, one match per table).
const TABLES_PER_CALL: usize = 4;

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut impl RngExt) -> f64 {
    let u: f64 = rng.random_range(f64::EPSILON..1.0);
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// The matches the newcomer (a new version of bot 0, starting from its μ when `successor`,
/// else a new bot at 25) plays until its σ < 2, in a field of `counts` tables.
fn matches_to_settle(run: u64, counts: PlayerCounts, successor: bool) -> u32 {
    let mut rng = seed::rng(run, "simulation", 0);
    // Hidden strengths spread over the rating scale; a match ranks the seats by strength plus
    // noise of Weng-Lin's β (25/6).
    let mut strength: Vec<f64> = (0..FIELD)
        .map(|i| 10.0 + 30.0 * i as f64 / FIELD as f64)
        .collect();
    let mut field: Vec<Candidate> = (0..FIELD)
        .map(|i| Candidate {
            version: i as i64,
            owner: format!("owner{i}"),
            mu: 25.0,
            sigma: 25.0 / 3.0,
            last_played: None,
            is_new: true,
        })
        .collect();
    let mut ratings: BTreeMap<i64, Rating> = BTreeMap::new();
    let settings = MatchmakingSettings {
        queue: 8,
        repeat_s: 30,
        duplicate: false,
    };
    let mut group = 0u64;
    let mut newcomer_matches = 0u32;
    for call in 0.. {
        let now = call * 10_000;
        if group >= WARM_UP && strength.len() == FIELD {
            // Bot 0's new version replaces its old one (same owner, a new version id).
            let predecessor = ratings[&0];
            let start = Rating::new_version(successor.then_some(predecessor));
            ratings.insert(FIELD as i64, start);
            strength.push(strength[FIELD / 2]);
            field.remove(0);
            field.push(Candidate {
                version: FIELD as i64,
                owner: "owner0".into(),
                mu: start.mu,
                sigma: start.sigma,
                last_played: None,
                is_new: true,
            });
        }
        let planned = plan(&Request {
            candidates: &field,
            recent: &[],
            now,
            players: counts.min..=counts.max,
            counts,
            settings: &settings,
            seed: run,
            next_group: group,
            tables: TABLES_PER_CALL,
        });
        group += TABLES_PER_CALL as u64;
        for m in planned {
            let perf: Vec<f64> = m
                .seats
                .iter()
                .map(|&v| strength[v as usize] + 25.0 / 6.0 * normal(&mut rng))
                .collect();
            let ranks: Vec<u32> = perf
                .iter()
                .map(|p| 1 + perf.iter().filter(|q| *q > p).count() as u32)
                .collect();
            apply(&mut ratings, &m.seats, &ranks);
            for c in field.iter_mut().filter(|c| m.seats.contains(&c.version)) {
                c.last_played = Some(now);
                c.is_new = false;
                (c.mu, c.sigma) = (ratings[&c.version].mu, ratings[&c.version].sigma);
            }
            if m.seats.contains(&(FIELD as i64)) {
                newcomer_matches += 1;
                if ratings[&(FIELD as i64)].sigma < 2.0 {
                    return newcomer_matches;
                }
            }
        }
    }
    unreachable!()
}

/// Mean, lowest and highest over `runs` runs.
fn figures(counts: PlayerCounts, successor: bool, runs: u64) -> (f64, u32, u32) {
    let all: Vec<u32> = (0..runs)
        .map(|r| matches_to_settle(r, counts, successor))
        .collect();
    let mean = f64::from(all.iter().sum::<u32>()) / all.len() as f64;
    (mean, *all.iter().min().unwrap(), *all.iter().max().unwrap())
}

#[test]
fn a_new_version_settles_below_sigma_2_within_200_matches() {
    for (game, min, max) in [("2 players", 2, 2), ("3 to 6 players", 3, 6)] {
        let counts = PlayerCounts {
            game: "sim",
            min,
            max,
        };
        for successor in [false, true] {
            let (mean, low, high) = figures(counts, successor, 20);
            println!(
                "{game}, {}: {mean:.1} matches until σ < 2 (from {low} to {high}, 20 runs)",
                if successor {
                    "a new version (its predecessor's μ)"
                } else {
                    "a new bot (μ 25)"
                }
            );
            assert!(high < 200, "{game}: {high} matches");
        }
    }
}
