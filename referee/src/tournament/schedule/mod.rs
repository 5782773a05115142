//! The schedule of a tournament: which bots play which seats of which match, with which seed.
//!
//! A format is a [`Schedule`]: one module per format, each building the whole list of matches
//! from a [`ScheduleSpec`]. The three formats here build *groups*: a set of P bots played P
//! times, rotated so that each sits in every seat once ([`rotated`]). The matches of a group
//! share one deal seed when duplicate play is on (the same chance, the bots rotated through the
//! seats), so that luck of the deal cancels out in the group's statistics. A match's id is its
//! position in the schedule; its seed is derived from the tournament seed and its group, so any
//! match can be replayed alone with `referee match`.

mod combinations;
mod gauntlet;
mod round_robin;
mod sampled;
#[cfg(test)]
mod tests;

use super::scoring::{Scoring, WengLin};
use engine::seed;
use serde::{Deserialize, Serialize};

pub use gauntlet::Gauntlet;
pub use round_robin::RoundRobin;
pub use sampled::Sampled;

/// How bots are put together: the name of a [`Schedule`], as written in `tournament.json`, the
/// TOML file and on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every P-subset of the bots, in turn, each rotated through the seats ([`RoundRobin`]).
    #[default]
    RoundRobin,
    /// Balanced random P-subsets ([`Sampled`]).
    Sampled,
    /// One candidate against every (P−1)-subset of the others, in turn ([`Gauntlet`]).
    Gauntlet,
}

impl Format {
    /// The schedule of this format.
    pub fn schedule(self) -> &'static dyn Schedule {
        match self {
            Format::RoundRobin => &RoundRobin,
            Format::Sampled => &Sampled,
            Format::Gauntlet => &Gauntlet,
        }
    }

    /// How a tournament of this format is ranked.
    pub fn scoring(self) -> &'static dyn Scoring {
        match self {
            Format::RoundRobin | Format::Sampled | Format::Gauntlet => &WengLin,
        }
    }
}

/// A tournament format: how the field is seated, match by match.
pub trait Schedule: Sync {
    /// Matches in one full cycle of the format (the default length of a tournament).
    fn cycle_length(&self, bots: usize, players: usize) -> u64;

    /// The matches a tournament's length should be a multiple of for every bot to sit equally
    /// often in every seat (a whole cycle unless the format says otherwise).
    fn balanced_unit(&self, bots: usize, players: usize) -> u64 {
        self.cycle_length(bots, players)
    }

    /// The first `spec.matches` matches of the schedule, ids from 0 in order. Deterministic:
    /// the same spec gives the same list on any machine.
    fn build(&self, spec: &ScheduleSpec) -> Vec<ScheduledMatch>;
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
    /// The gauntlet's candidate (a bot index; 0 for other formats).
    pub candidate: usize,
}

/// Builds the schedule of `spec.format`.
pub fn build(spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
    spec.format.schedule().build(spec)
}

/// Matches in a full cycle of `format` (a round-robin or gauntlet is fairest in whole cycles).
pub fn cycle_length(format: Format, bots: usize, players: usize) -> u64 {
    format.schedule().cycle_length(bots, players)
}

/// The first `spec.matches` matches made of `groups`: each group (bot indices, sorted) played
/// P times, rotated so that each of its bots sits once in every seat; the seed is the group's
/// with duplicate play, the match's own without.
pub fn rotated(
    spec: &ScheduleSpec,
    groups: impl Iterator<Item = Vec<usize>>,
) -> Vec<ScheduledMatch> {
    let p = spec.players;
    let groups_needed = spec.matches.div_ceil(p as u64) as usize;
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

/// `n` choose `k`, exact while it fits in a `u64`, saturating beyond (a cycle no tournament
/// could play anyway).
fn binomial(n: usize, k: usize) -> u64 {
    (0..k)
        .try_fold(1u128, |acc, i| {
            Some(acc.checked_mul((n - i) as u128)? / (i as u128 + 1))
        })
        .map_or(u64::MAX, |b| b.min(u128::from(u64::MAX)) as u64)
}

/// Whether `spec` can be scheduled at all (at least one player, no more than the bots).
fn feasible(spec: &ScheduleSpec) -> bool {
    spec.players > 0 && spec.players <= spec.bots
}
