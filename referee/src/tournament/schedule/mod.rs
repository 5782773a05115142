//! The schedule of a tournament: which bots play which seats of which match, with which seed.
//!
//! A format is a [`Schedule`]: one module per format, each building the whole list of matches
//! from a [`ScheduleSpec`]. The round-robin, sampled and gauntlet formats build *groups*: a
//! set of P bots played P times, rotated so that each sits in every seat once ([`rotated`]).
//! The matches of a group share one deal seed when duplicate play is on (the same chance, the
//! bots rotated through the seats), so that luck of the deal cancels out in the group's
//! statistics. The Nava format ([`nava`]) seats the field at tables instead; its group is a
//! hand, played with the same deal at every table. A match's id is its
//! position in the schedule; its seed is derived from the tournament seed and its group, so any
//! match can be replayed alone with `referee match`.

mod combinations;
mod gauntlet;
pub mod nava;
mod round_robin;
mod sampled;
#[cfg(test)]
mod tests;

use super::scoring::{NavaVp, Scoring, WengLin};
use engine::seed;
use serde::{Deserialize, Serialize};

pub use gauntlet::Gauntlet;
pub use nava::{Nava, NavaPlace, NavaSpec};
pub use round_robin::RoundRobin;
pub use sampled::Sampled;

/// How bots are put together: the name of a [`Schedule`], as written in `tournament.json`, the
/// TOML file and on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScheduleKind {
    /// Every P-subset of the bots, in turn, each rotated through the seats ([`RoundRobin`]).
    #[default]
    RoundRobin,
    /// Balanced random P-subsets ([`Sampled`]).
    Sampled,
    /// One candidate against every (P−1)-subset of the others, in turn ([`Gauntlet`]).
    Gauntlet,
    /// Tables of 4 and 3, rounds of hands, the Nava movement between rounds ([`Nava`]),
    /// scored in Victory Points.
    Nava,
}

impl ScheduleKind {
    /// The schedule of this format.
    pub fn schedule(self) -> &'static dyn Schedule {
        match self {
            ScheduleKind::RoundRobin => &RoundRobin,
            ScheduleKind::Sampled => &Sampled,
            ScheduleKind::Gauntlet => &Gauntlet,
            ScheduleKind::Nava => &Nava,
        }
    }

    /// How a tournament of this format is ranked.
    pub fn scoring(self) -> &'static dyn Scoring {
        match self {
            ScheduleKind::RoundRobin | ScheduleKind::Sampled | ScheduleKind::Gauntlet => &WengLin,
            ScheduleKind::Nava => &NavaVp,
        }
    }
}

/// A tournament format: how the field is seated, match by match.
pub trait Schedule: Sync {
    /// Matches in one full cycle of the format (the default length of a tournament; `spec`'s
    /// own `matches` is not read).
    fn cycle_length(&self, spec: &ScheduleSpec) -> u64;

    /// The matches a tournament's length should be a multiple of for every bot to sit equally
    /// often in every seat (a whole cycle unless the format says otherwise).
    fn balanced_unit(&self, spec: &ScheduleSpec) -> u64 {
        self.cycle_length(spec)
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
    pub kind: ScheduleKind,
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
    /// The Nava schedule's rounds and hands (`None` for other formats).
    pub nava: Option<NavaSpec>,
}

/// Builds the schedule of `spec.kind`.
pub fn build(spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
    spec.kind.schedule().build(spec)
}

/// Matches in a full cycle of `spec`'s schedule (a round-robin or gauntlet is fairest in whole
/// cycles; a Nava tournament is one cycle).
pub fn cycle_length(spec: &ScheduleSpec) -> u64 {
    spec.kind.schedule().cycle_length(spec)
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
            schedule.push(scheduled(spec, id, g as u64, seats));
        }
    }
    schedule
}

/// Match `id` of duplicate group `group`, seating `seats`: its seed is the group's with
/// duplicate play, the match's own without.
fn scheduled(spec: &ScheduleSpec, id: u64, group: u64, seats: Vec<usize>) -> ScheduledMatch {
    let seed = if spec.duplicate {
        seed::derive(spec.seed, "group", group)
    } else {
        seed::derive(spec.seed, "match", id)
    };
    ScheduledMatch {
        id,
        group,
        seats,
        seed,
    }
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
