//! The schedule of a tournament: which bots play which seats of which match, with which seed.
//!
//! Every format builds *groups*: a set of P bots played P times, rotated so that each sits in
//! every seat once. The matches of a group share one deal seed when duplicate play is on (the
//! same chance, the bots rotated through the seats), so that luck of the deal cancels out in the
//! group's statistics. A match's id is its position in the schedule; its seed is derived from the
//! tournament seed and its group, so any match can be replayed alone with `referee match`.

use engine::seed;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

/// How bots are put together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every P-subset of the bots, in turn, each rotated through the seats.
    #[default]
    RoundRobin,
    /// Balanced random P-subsets: every bot plays nearly as often as every other and meets every
    /// other nearly equally often. For fields too large for a round-robin.
    Sampled,
    /// One candidate (the first bot) against every (P−1)-subset of the others, in turn.
    Gauntlet,
}

/// One scheduled match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledMatch {
    /// Position in the schedule, from 0.
    pub id: u64,
    /// The duplicate group (matches of one group share a deal seed when duplicate play is on).
    pub group: u64,
    /// Bot indices by seat.
    pub seats: Vec<usize>,
    /// The match seed.
    pub seed: u64,
}

/// What a schedule is made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleSpec {
    /// The format.
    pub format: Format,
    /// Number of bots.
    pub bots: usize,
    /// Players per match.
    pub players: usize,
    /// Number of matches.
    pub matches: u64,
    /// The tournament seed.
    pub seed: u64,
    /// Whether the matches of a group share their seed.
    pub duplicate: bool,
}

/// The `k`-subsets of `0..n` in lexicographic order, made one at a time (a cycle can be far
/// longer than the tournament).
struct Combinations {
    n: usize,
    next: Option<Vec<usize>>,
}

impl Combinations {
    fn new(n: usize, k: usize) -> Self {
        Combinations {
            n,
            next: (k > 0 && k <= n).then(|| (0..k).collect()),
        }
    }
}

impl Iterator for Combinations {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let current = self.next.take()?;
        let k = current.len();
        if let Some(i) = (0..k).rev().find(|&i| current[i] < self.n - k + i) {
            let mut following = current.clone();
            following[i] += 1;
            for j in i + 1..k {
                following[j] = following[j - 1] + 1;
            }
            self.next = Some(following);
        }
        Some(current)
    }
}

/// Chooses the next group of a sampled schedule: bots with the fewest matches first, then those
/// that met the chosen ones least, random among equals.
fn balanced_group(
    players: usize,
    played: &[u64],
    met: &[Vec<u64>],
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..played.len()).collect();
    order.shuffle(rng);
    let mut group: Vec<usize> = Vec::with_capacity(players);
    while group.len() < players {
        let next = order
            .iter()
            .copied()
            .filter(|b| !group.contains(b))
            .min_by_key(|&b| (played[b], group.iter().map(|&g| met[b][g]).sum::<u64>()))
            .expect("players ≤ bots");
        group.push(next);
    }
    group.sort_unstable();
    group
}

/// Builds the schedule.
pub fn build(spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
    let (n, p) = (spec.bots, spec.players);
    if p == 0 || p > n {
        return Vec::new();
    }
    let groups_needed = spec.matches.div_ceil(p as u64) as usize;
    let groups: Box<dyn Iterator<Item = Vec<usize>>> = match spec.format {
        Format::RoundRobin => {
            Box::new(std::iter::repeat_with(move || Combinations::new(n, p)).flatten())
        }
        Format::Gauntlet => Box::new(
            std::iter::repeat_with(move || Combinations::new(n - 1, p - 1))
                .flatten()
                .map(|others| {
                    std::iter::once(0)
                        .chain(others.into_iter().map(|b| b + 1))
                        .collect()
                }),
        ),
        Format::Sampled => {
            let mut rng = seed::rng(spec.seed, "schedule", 0);
            let mut played = vec![0u64; n];
            let mut met = vec![vec![0u64; n]; n];
            Box::new(std::iter::repeat_with(move || {
                let group = balanced_group(p, &played, &met, &mut rng);
                for &a in &group {
                    played[a] += 1;
                    for &b in &group {
                        if a != b {
                            met[a][b] += 1;
                        }
                    }
                }
                group
            }))
        }
    };
    let mut schedule = Vec::with_capacity(spec.matches as usize);
    for (g, group) in groups.take(groups_needed).enumerate() {
        for rotation in 0..p {
            let id = schedule.len() as u64;
            if id == spec.matches {
                break;
            }
            let seats = (0..p).map(|s| group[(s + rotation) % p]).collect();
            let seed = if spec.duplicate {
                seed::derive(spec.seed, "group", g as u64)
            } else {
                seed::derive(spec.seed, "match", id)
            };
            schedule.push(ScheduledMatch {
                id,
                group: g as u64,
                seats,
                seed,
            });
        }
    }
    schedule
}

/// Matches in a full cycle of the format (a round-robin or gauntlet is fairest in whole cycles).
pub fn cycle_length(format: Format, bots: usize, players: usize) -> u64 {
    // Exact while it fits; saturates for fields whose cycle no tournament could play anyway.
    let binomial = |n: usize, k: usize| -> u64 {
        (0..k)
            .try_fold(1u128, |acc, i| {
                Some(acc.checked_mul((n - i) as u128)? / (i as u128 + 1))
            })
            .map_or(u64::MAX, |b| b.min(u128::from(u64::MAX)) as u64)
    };
    match format {
        Format::RoundRobin => binomial(bots, players).saturating_mul(players as u64),
        Format::Gauntlet => binomial(bots - 1, players - 1).saturating_mul(players as u64),
        // As many groups as bots: each bot plays in about `players` groups.
        Format::Sampled => (bots as u64).saturating_mul(players as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(format: Format, bots: usize, players: usize, matches: u64) -> ScheduleSpec {
        ScheduleSpec {
            format,
            bots,
            players,
            matches,
            seed: 7,
            duplicate: true,
        }
    }

    fn seat_counts(schedule: &[ScheduledMatch], bots: usize, players: usize) -> Vec<Vec<u64>> {
        let mut counts = vec![vec![0; players]; bots];
        for m in schedule {
            for (seat, &b) in m.seats.iter().enumerate() {
                counts[b][seat] += 1;
            }
        }
        counts
    }

    #[test]
    fn round_robin_plays_every_subset_with_every_bot_in_every_seat_equally() {
        let s = build(&spec(Format::RoundRobin, 5, 4, 1000));
        assert_eq!(s.len(), 1000);
        assert_eq!(cycle_length(Format::RoundRobin, 5, 4), 20);
        for counts in seat_counts(&s, 5, 4) {
            assert_eq!(counts, vec![200; 4]);
        }
        let ids: Vec<u64> = s.iter().map(|m| m.id).collect();
        assert_eq!(ids, (0..1000).collect::<Vec<_>>());
        // Duplicate: the 4 rotations of a group share the seed; groups differ.
        assert!(s[..4].iter().all(|m| m.seed == s[0].seed && m.group == 0));
        assert_ne!(s[4].seed, s[0].seed);
        assert_eq!(
            build(&spec(Format::RoundRobin, 5, 4, 1000)),
            s,
            "deterministic"
        );
    }

    #[test]
    fn sampled_balances_matches_and_meetings() {
        let s = build(&spec(Format::Sampled, 11, 4, 4 * 220));
        let mut played = [0u64; 11];
        let mut met = [[0u64; 11]; 11];
        for m in s.iter().filter(|m| m.id % 4 == 0) {
            for &a in &m.seats {
                played[a] += 1;
                for &b in &m.seats {
                    if a != b {
                        met[a][b] += 1;
                    }
                }
            }
        }
        let (lo, hi) = (played.iter().min().unwrap(), played.iter().max().unwrap());
        assert!(hi - lo <= 1, "groups per bot {played:?}");
        let pairs: Vec<u64> = (0..11)
            .flat_map(|a| (0..11).filter(move |&b| b != a).map(move |b| (a, b)))
            .map(|(a, b)| met[a][b])
            .collect();
        let (lo, hi) = (pairs.iter().min().unwrap(), pairs.iter().max().unwrap());
        assert!(hi - lo <= 3, "meetings per pair range from {lo} to {hi}");
        for counts in seat_counts(&s, 11, 4) {
            assert!(
                counts.iter().all(|&c| c == counts[0]),
                "every seat equally: {counts:?}"
            );
        }
    }

    #[test]
    fn gauntlet_puts_the_candidate_in_every_match() {
        let s = build(&spec(Format::Gauntlet, 6, 3, 60));
        assert_eq!(cycle_length(Format::Gauntlet, 6, 3), 30);
        assert!(s.iter().all(|m| m.seats.contains(&0)));
        assert_eq!(seat_counts(&s, 6, 3)[0], vec![20; 3]);
    }

    #[test]
    fn without_duplicate_every_match_has_its_own_seed() {
        let mut sp = spec(Format::RoundRobin, 4, 3, 12);
        sp.duplicate = false;
        let s = build(&sp);
        let seeds: std::collections::BTreeSet<u64> = s.iter().map(|m| m.seed).collect();
        assert_eq!(seeds.len(), 12);
    }
}

#[cfg(test)]
mod large_fields {
    use super::*;

    #[test]
    fn a_short_tournament_of_a_large_field_builds_only_what_it_plays() {
        let spec = ScheduleSpec {
            format: Format::RoundRobin,
            bots: 60,
            players: 6,
            matches: 12,
            seed: 1,
            duplicate: true,
        };
        let s = build(&spec);
        assert_eq!(s.len(), 12);
        assert_eq!(s[0].seats, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(cycle_length(Format::RoundRobin, 60, 6), 50_063_860 * 6);
        assert_eq!(cycle_length(Format::RoundRobin, 2000, 40), u64::MAX);
    }
}
