//! The sampled schedule: balanced random P-subsets, for fields too large for a round-robin.
//! Every bot plays nearly as often as every other and meets every other nearly equally often.

use super::{Format, ScheduleSpec, ScheduledMatch, feasible, rotated};
use engine::seed;
use rand::seq::SliceRandom;

/// Groups chosen one at a time: the bots with the fewest matches first, then those that met
/// the chosen ones least, random (from the tournament seed) among equals.
pub struct Sampled;

impl Format for Sampled {
    fn cycle_length(&self, spec: &ScheduleSpec) -> u64 {
        // As many groups as bots: each bot plays in about `players` groups.
        (spec.bots as u64).saturating_mul(spec.players as u64)
    }

    fn balanced_unit(&self, spec: &ScheduleSpec) -> u64 {
        // Every group seats each of its bots once in every seat.
        spec.players as u64
    }

    fn schedule(&self, spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
        if !feasible(spec) {
            return Vec::new();
        }
        let (n, p) = (spec.bots, spec.players);
        let mut rng = seed::rng(spec.seed, "schedule", 0);
        let mut played = vec![0u64; n];
        let mut met = vec![vec![0u64; n]; n];
        let groups = std::iter::repeat_with(move || {
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
        });
        rotated(spec, groups)
    }
}

/// Chooses the next group: bots with the fewest matches first, then those that met the chosen
/// ones least, random among equals.
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
