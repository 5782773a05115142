//! Tournament formats: who plays which match, how the standings are scored, and what table of
//! its own a format adds to the leaderboard — one [`Format`] per format, one module each
//! (round robin, sampled, gauntlet and the ladder's read-back here; Nava in
//! [`nava`](super::nava)). The rest of the
//! tournament (the coordinator, the results file, the leaderboard and its renderings) holds a
//! [`FormatSpec`] and asks its [`Format`] ([`FormatSpec::format`]), never naming one.
//!
//! The round-robin, sampled and gauntlet formats build *groups*: a set of P bots played P
//! times, rotated so that each sits in every seat once ([`rotated`]). The matches of a group
//! share one deal seed when duplicate play is on (the same chance, the bots rotated through the
//! seats), so that luck of the deal cancels out in the group's statistics. A match's id is its
//! position in the schedule; its seed is derived from the tournament seed and its group, so any
//! match can be replayed alone with `referee match`.

pub mod candidate;
pub mod combinations;
mod gauntlet;
mod ladder;
pub mod own_standings;
mod registry;
mod round_robin;
mod sampled;
pub mod spec;
#[cfg(test)]
mod tests;

use super::board_cells::{RoundTotals, StandingsTable};
use super::match_result::MatchResult;
use super::meta::TournamentMeta;
use super::out_of_bounds::OutOfBounds;
use super::standings::{Field, Leaderboard, compute};
use engine::seed;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

pub use combinations::Combinations;
pub use gauntlet::Gauntlet;
pub use ladder::Ladder;
pub use own_standings::FormatStandings;
pub use round_robin::RoundRobin;
pub use sampled::Sampled;
pub use spec::{FormatSettings, FormatSpec, ScheduleKind};

/// A tournament format: who plays which match (the schedule), how the standings are scored,
/// and what table of its own the leaderboard shows. Every method but the schedule and its
/// cycle has a default: that of a format of a fixed player count, scored by ratings alone.
///
/// Every format but the ladder fixes its whole schedule before the first match
/// ([`Format::schedule`]). The ladder ([`Ladder`]) schedules nothing: its matches are chosen
/// as results arrive, for weeks, by the ladder's matchmaker (`referee_ladder::matchmaker`),
/// which its server calls with what only the ladder's store knows (owners, when each version
/// last played, the tables of the repeat window, versions coming and going) rather than a
/// method here handed a leaderboard; a window of its matches is read back as a tournament of
/// this format, scored by the ratings (the default), with no table of its own.
pub trait Format: Send + Sync {
    /// Its settings as `tournament.json` records them (none for a format without any).
    fn settings(&self) -> Option<FormatSettings> {
        None
    }

    /// The player count this format seats once it has checked that the game and the field
    /// allow it, or `None` to leave the count to the settings (`--players`, else the field's).
    ///
    /// # Errors
    /// What the format cannot play, in one line for the user.
    fn players(&self, _setup: &Setup) -> Result<Option<usize>, String> {
        Ok(None)
    }

    /// Whether the game's [event defaults](engine::Game::event_option_defaults) fill in the
    /// options the settings leave out (the rules of an event, rather than of a casual game).
    fn event_options(&self) -> bool {
        false
    }

    /// Whether the format plays one candidate against the field (`candidate` in the settings
    /// and in `tournament.json`).
    fn has_candidate(&self) -> bool {
        false
    }

    /// Checks what a results directory's identity says of this format against its bounds (the
    /// general ones are checked first: [`check_meta`](super::bounds::check_meta)).
    ///
    /// # Errors
    /// [`OutOfBounds`] naming the first field that is not.
    fn check(&self, _meta: &TournamentMeta) -> Result<(), OutOfBounds> {
        Ok(())
    }

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
    fn schedule(&self, spec: &ScheduleSpec) -> Vec<ScheduledMatch>;

    /// The seats of each match, by id, for a format whose matches do not all seat
    /// `spec.players` (`None`: they all do). A result read back is checked against it.
    fn seats(&self, _spec: &ScheduleSpec) -> Option<BTreeMap<u64, usize>> {
        None
    }

    /// The seats any one result may have, for a format whose tables vary in size without a
    /// schedule saying which (the ladder's: from the game's `smallest` to the recorded
    /// `players`); `None` when each match seats what [`Format::seats`] or the player count
    /// says.
    fn seat_range(&self, _smallest: usize, _players: usize) -> Option<RangeInclusive<usize>> {
        None
    }

    /// How the field is seated, in words, for the line a run starts with.
    fn seating(&self, _bots: usize, players: usize) -> String {
        format!("{players} per match")
    }

    /// The leaderboard of `field` from `results` (in any order; the result must not depend on
    /// it): by default Weng-Lin ratings ([`compute`]).
    fn leaderboard(&self, field: &Field<'_>, results: &[&MatchResult]) -> Leaderboard {
        compute(field, results)
    }

    /// The format's own table of `board`'s standings, shown instead of the ratings' in the
    /// terminal, Markdown and the report; `None` for the ratings' table.
    fn table(&self, _board: &Leaderboard) -> Option<StandingsTable> {
        None
    }

    /// The format's own standings of `board` as CSV rows (a header, then a row per bot, every
    /// text cell escaped for CSV); `None` for the ratings' CSV.
    fn csv(&self, _board: &Leaderboard) -> Option<Vec<Vec<String>>> {
        None
    }

    /// Each bot's points added up round by round, for a format played in rounds (the report
    /// draws them); `None` for the others.
    fn round_totals(&self, _board: &Leaderboard) -> Option<Vec<RoundTotals>> {
        None
    }
}

/// What a format is told to settle its player count ([`Format::players`]).
#[derive(Clone, Debug)]
pub struct Setup {
    /// The game's name.
    pub game: &'static str,
    /// The player counts the game allows.
    pub counts: RangeInclusive<usize>,
    /// Bots in the field.
    pub bots: usize,
    /// The player count asked for, if any.
    pub players: Option<usize>,
    /// The match count asked for, if any.
    pub matches: Option<u64>,
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

/// What a schedule is made from (the format's own settings are the format's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleSpec {
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
pub(crate) fn scheduled(
    spec: &ScheduleSpec,
    id: u64,
    group: u64,
    seats: Vec<usize>,
) -> ScheduledMatch {
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
