//! The ladder as a format: the matches of a ladder (`referee-ladder`) chosen by its matchmaker
//! as results arrive, read back from a window the ladder exported. It schedules nothing itself
//! (its matches were chosen and played by the ladder's server), seats tables of any size from
//! the game's smallest to `players` (the ladder's largest), is scored by the ratings (the
//! default) and has no table of its own.
//!
//! The matchmaker is not a method of this format: it chooses from what a ladder's store knows
//! and a tournament's leaderboard does not (each version's owner, when it last played, the
//! tables played within the repeat window, versions entering and leaving), so it is a module
//! of the ladder's crate that its server calls (`referee_ladder::matchmaker`).

use super::{Format, ScheduleSpec, ScheduledMatch, Setup};
use std::ops::RangeInclusive;

/// The ladder's format (see the module documentation).
pub struct Ladder;

impl Format for Ladder {
    /// Refused: a ladder is played by its server, not by `referee tournament`.
    fn players(&self, _setup: &Setup) -> Result<Option<usize>, String> {
        Err(
            "the ladder schedule is what `referee ladder` exports; a tournament cannot play it (choose round-robin, sampled, gauntlet or nava)"
                .into(),
        )
    }

    fn cycle_length(&self, _spec: &ScheduleSpec) -> u64 {
        0
    }

    fn schedule(&self, _spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
        Vec::new()
    }

    fn seat_range(&self, smallest: usize, players: usize) -> Option<RangeInclusive<usize>> {
        Some(smallest..=players)
    }

    fn seating(&self, _bots: usize, players: usize) -> String {
        format!("up to {players} per match, as the ladder's matchmaker chose")
    }
}
