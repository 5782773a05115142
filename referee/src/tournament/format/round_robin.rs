//! The round-robin: every P-subset of the bots, in turn, each rotated through the seats; the
//! cycle starts again when the subsets run out.

use super::combinations::Combinations;
use super::{Format, ScheduleSpec, ScheduledMatch, binomial, feasible, rotated};

/// Every P-subset of the bots in lexicographic order, each played P times.
pub struct RoundRobin;

impl Format for RoundRobin {
    fn cycle_length(&self, spec: &ScheduleSpec) -> u64 {
        binomial(spec.bots, spec.players).saturating_mul(spec.players as u64)
    }

    fn schedule(&self, spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
        if !feasible(spec) {
            return Vec::new();
        }
        let (n, p) = (spec.bots, spec.players);
        rotated(
            spec,
            std::iter::repeat_with(move || Combinations::new(n, p)).flatten(),
        )
    }
}
