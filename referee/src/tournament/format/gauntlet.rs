//! The gauntlet: one candidate against every (P−1)-subset of the others, in turn.

use super::candidate::ranked;
use super::combinations::Combinations;
use super::{Format, ScheduleSpec, ScheduledMatch, binomial, feasible, rotated};
use crate::tournament::match_result::MatchResult;
use crate::tournament::meta::TournamentMeta;
use crate::tournament::out_of_bounds::{OutOfBounds, out};
use crate::tournament::standings::{Field, Leaderboard, compute};

/// The candidate (`spec.candidate`) in every match, the others as in a round-robin of P−1.
pub struct Gauntlet;

impl Format for Gauntlet {
    fn has_candidate(&self) -> bool {
        true
    }

    /// The candidate is one of the bots.
    fn check(&self, meta: &TournamentMeta) -> Result<(), OutOfBounds> {
        if meta
            .candidate
            .as_ref()
            .is_some_and(|c| meta.bots.iter().any(|b| &b.name == c))
        {
            Ok(())
        } else {
            Err(out(
                "candidate",
                "a gauntlet's candidate must be one of its bots",
            ))
        }
    }

    fn cycle_length(&self, spec: &ScheduleSpec) -> u64 {
        binomial(spec.bots - 1, spec.players - 1).saturating_mul(spec.players as u64)
    }

    fn schedule(&self, spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
        if !feasible(spec) {
            return Vec::new();
        }
        let (n, p) = (spec.bots, spec.players);
        // Built with bot 0 as the candidate, then bot 0 and the candidate swap places: the
        // candidate meets the others in the same order whichever bot it is.
        let groups = std::iter::repeat_with(move || Combinations::new(n - 1, p - 1))
            .flatten()
            .map(|others| {
                std::iter::once(0)
                    .chain(others.into_iter().map(|b| b + 1))
                    .collect()
            });
        let mut schedule = rotated(spec, groups);
        let swap = |b: usize| match b {
            0 => spec.candidate,
            b if b == spec.candidate => 0,
            b => b,
        };
        for m in &mut schedule {
            for b in &mut m.seats {
                *b = swap(*b);
            }
        }
        schedule
    }

    /// The ratings, the candidate ranked among the others by μ − 3σ at their σ
    /// ([`ranked`]): it plays every match, so its own σ is smaller than theirs.
    fn leaderboard(&self, field: &Field<'_>, results: &[&MatchResult]) -> Leaderboard {
        let board = compute(field, results);
        match field.candidate {
            Some(candidate) => ranked(board, candidate),
            None => board,
        }
    }
}
