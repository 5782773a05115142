//! The matchmaker: which versions play next. Pure and deterministic: the same [`Request`]
//! gives the same tables on any machine (its randomness is drawn from the ladder's seed and the
//! caller's group counter with [`engine::seed`]).
//!
//! The rules, table by table ([`plan`]):
//! - the first seat goes to the version that played least recently, versions that never
//!   played first (the *anchor*); a version seated by this call goes behind every other;
//! - the table's size is drawn at random among the sizes the settings and the game allow and
//!   the field can fill (as many distinct owners as seats);
//! - three tables in four, the anchor's opponents are those that give the best
//!   [match quality](referee::tournament::ratings::match_quality) with it, looked for among its
//!   [`WINDOW`] best-matched versions first (the least recently seated of them first), then
//!   the whole field; one table in four
//!   ([`EXPLORE`]) draws them from the whole field in a random order, so that far-apart
//!   versions meet too;
//! - never two versions of one owner at a table, and never a table (the same versions) played
//!   within the last `repeat_s` seconds: when every table the anchor could sit at breaks one
//!   of these, the next version in line is the anchor. When no table at all avoids the repeat
//!   window (a field too small for it), the window yields — the anchor order still rotates
//!   the tables — so that a small ladder keeps playing; the owner rule never yields;
//! - a table is one match, its seats in a random order; with duplicate play (`duplicate`,
//!   for every game, as `referee tournament` does) it is a group of P matches sharing one deal
//!   seed, the versions rotated through the seats
//!   ([`rotated`](referee::tournament::format::rotated)).

mod choose;
#[cfg(test)]
mod simulation;
#[cfg(test)]
mod tests;

use crate::config::MatchmakingSettings;
use engine::{PlayerCounts, seed};
use rand::seq::SliceRandom;
use referee::tournament::format::{ScheduleSpec, rotated};
use std::ops::RangeInclusive;

/// Share of tables whose opponents are drawn from the whole field rather than by match
/// quality.
pub const EXPLORE: f64 = 0.25;
/// How many of the anchor's best-matched versions its opponents are looked for among first,
/// per opponent seat (at least [`MIN_WINDOW`] in all).
pub const WINDOW: usize = 3;
/// The fewest versions the quality window holds.
pub const MIN_WINDOW: usize = 8;

/// A version that may play: it built, passed its check, and is its bot's newest.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Its id in the store.
    pub version: i64,
    /// Its owner's name (two versions of one owner never sit at one table).
    pub owner: String,
    /// Its rating's μ.
    pub mu: f64,
    /// Its rating's σ.
    pub sigma: f64,
    /// When it last played (milliseconds, or any number that grows with time), if ever.
    pub last_played: Option<i64>,
    /// Whether it has never played a ranked match (seated before every other).
    pub is_new: bool,
}

/// A table played (or queued) lately: its versions, sorted, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecentTable {
    /// The versions, sorted.
    pub versions: Vec<i64>,
    /// When it was played or queued, in the unit of [`Request::now`].
    pub at: i64,
}

/// What the matchmaker chooses from.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// The versions that may play.
    pub candidates: &'a [Candidate],
    /// Tables played or queued lately (older ones than the repeat window are ignored).
    pub recent: &'a [RecentTable],
    /// Now, in milliseconds (the unit of [`Candidate::last_played`] and [`RecentTable::at`]).
    pub now: i64,
    /// The ladder's table sizes (`min_players..=max_players`).
    pub players: RangeInclusive<usize>,
    /// The player counts the game allows.
    pub counts: PlayerCounts,
    /// The matchmaking settings.
    pub settings: &'a MatchmakingSettings,
    /// The ladder's seed.
    pub seed: u64,
    /// The group number of the first table (the caller's counter: every table takes the next).
    pub next_group: u64,
    /// How many tables to plan (with duplicate play a table is a group of P matches: ask for
    /// as many as fill the queue's free places, e.g. their number divided by the smallest
    /// table, rounded up).
    pub tables: usize,
}

/// One match to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedMatch {
    /// The versions by seat.
    pub seats: Vec<i64>,
    /// Its table's group (every match of a duplicate group shares it, and its seed).
    pub group: u64,
    /// The match seed.
    pub seed: u64,
}

/// The table sizes a request allows: those of the settings that the game allows.
pub fn sizes(players: &RangeInclusive<usize>, counts: &PlayerCounts) -> RangeInclusive<usize> {
    (*players.start()).max(counts.min).max(1)..=(*players.end()).min(counts.max)
}

/// The next `request.tables` tables, as matches (a table is a duplicate group of P matches
/// with duplicate play, else one match), groups numbered from `request.next_group`. Fewer
/// tables (none at all) when the field cannot fill more without breaking a rule.
pub fn plan(request: &Request<'_>) -> Vec<PlannedMatch> {
    let tables = choose::tables(request);
    let duplicate = request.settings.duplicate;
    let mut planned = Vec::new();
    for (k, mut table) in tables.into_iter().enumerate() {
        let group = request.next_group + k as u64;
        let p = table.len();
        let spec = ScheduleSpec {
            bots: p,
            players: p,
            matches: if duplicate { p as u64 } else { 1 },
            seed: seed::derive(request.seed, "ladder-table", group),
            duplicate,
            candidate: 0,
        };
        if duplicate {
            table.sort_unstable();
        } else {
            table.shuffle(&mut seed::rng(request.seed, "ladder-seats", group));
        }
        for scheduled in rotated(&spec, std::iter::once((0..p).collect())) {
            planned.push(PlannedMatch {
                seats: scheduled.seats.iter().map(|&i| table[i]).collect(),
                group,
                seed: scheduled.seed,
            });
        }
    }
    planned
}
