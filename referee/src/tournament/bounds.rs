//! What a results directory may hold: every number of `tournament.json` and `matches.jsonl` that
//! the referee allocates for, loops over or adds up is checked against a bound as the file is
//! read, so that a hand-made file is refused in milliseconds instead of being believed (a Nava
//! `rounds` of 10^15 once cost 4 GB). The bounds are stated once here and in
//! docs/security.md (files the referee reads back); each is far above what a tournament
//! plays, and the referee refuses to start a tournament beyond them too.

use super::format::ScheduleSpec;
use super::match_result::MatchResult;
use super::meta::TournamentMeta;
use engine::{Game, GameKind};
use std::collections::{BTreeMap, BTreeSet};

/// The most bots of a tournament (the head-to-head matrix holds bots² cells).
pub const MAX_BOTS: usize = 1000;
/// The longest bot name, in bytes (the referee's own names are at most 64; a name is shown
/// escaped wherever it is shown, so its characters are not bounded).
pub const MAX_NAME_BYTES: usize = 256;
/// The most matches of a tournament's schedule.
pub const MAX_MATCHES: u64 = 100_000_000;
/// The largest score (either sign) and the most decisions a seat of one result may have: the
/// leaderboard adds them up over every match, and [`MAX_MATCHES`] of them stay far inside 64
/// bits.
pub const MAX_COUNT: u64 = 10_000_000_000;

pub use super::out_of_bounds::OutOfBounds;
use super::out_of_bounds::out;

/// Checks the identity of a tournament against the bounds: a game this referee has, a field of
/// 1 to [`MAX_BOTS`] bots with distinct names of 1 to [`MAX_NAME_BYTES`], a player count the game allows, at most
/// [`MAX_MATCHES`] matches, and the format's own settings as it takes them
/// ([`FormatSpec::checked`](super::format::FormatSpec::checked), [`Format::check`](super::format::Format::check)).
///
/// # Errors
/// [`OutOfBounds`] naming the first field that is not.
pub fn check_meta(meta: &TournamentMeta) -> Result<(), OutOfBounds> {
    let kind = GameKind::from_name(&meta.game).map_err(|e| out("game", e.to_string()))?;
    let bots = meta.bots.len();
    if !(1..=MAX_BOTS).contains(&bots) {
        return Err(out(
            "bots",
            format!("{bots} bots; a tournament has 1 to {MAX_BOTS}"),
        ));
    }
    let mut names = BTreeMap::new();
    for (i, bot) in meta.bots.iter().enumerate() {
        if bot.name.is_empty() || bot.name.len() > MAX_NAME_BYTES {
            return Err(out(
                format!("bots[{i}].name"),
                format!(
                    "a name of {} bytes; a bot's name has 1 to {MAX_NAME_BYTES}",
                    bot.name.len()
                ),
            ));
        }
        if let Some(first) = names.insert(bot.name.as_str(), i) {
            return Err(out(
                format!("bots[{i}].name"),
                format!("'{}' is the name of bots[{first}] too", bot.name),
            ));
        }
    }
    let counts = engine::with_game!(kind, G => G::player_counts());
    if !counts.contains(&meta.players) || meta.players > bots {
        return Err(out(
            "players",
            format!(
                "{} players; {} is played by {} to {}, and by no more than the {bots} bots",
                meta.players,
                meta.game,
                counts.start(),
                counts.end()
            ),
        ));
    }
    if meta.matches > MAX_MATCHES {
        return Err(out(
            "matches",
            format!(
                "{} matches; a tournament has at most {MAX_MATCHES}",
                meta.matches
            ),
        ));
    }
    meta.format.checked()?.check(meta)
}

/// Why a result cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadResult {
    /// It does not belong to the tournament: a bot it does not have, or the wrong number of
    /// seats.
    Foreign(String),
    /// A number out of its bounds.
    OutOfBounds(String),
}

/// What each result of a tournament is checked against ([`ResultCheck::check`]): its field's
/// names, and how many seats each match has — the player count, or as the format seats each
/// match ([`Format::seats`](super::format::Format::seats)).
pub struct ResultCheck<'a> {
    meta: &'a TournamentMeta,
    field: BTreeSet<&'a str>,
    seats_by_id: Option<BTreeMap<u64, usize>>,
    /// The seats any result may have, for a format of tables of varying size.
    seat_range: Option<std::ops::RangeInclusive<usize>>,
}

impl<'a> ResultCheck<'a> {
    /// The check of the results of the tournament `meta` describes (checked by [`check_meta`]).
    pub fn new(meta: &'a TournamentMeta) -> Self {
        let format = meta.format.format();
        let smallest = GameKind::from_name(&meta.game).map_or(1, |kind| {
            *engine::with_game!(kind, G => G::player_counts()).start()
        });
        let seats_by_id = format.seats(&ScheduleSpec {
            bots: meta.bots.len(),
            players: meta.players,
            matches: meta.matches,
            seed: meta.seed,
            duplicate: meta.duplicate,
            candidate: 0,
        });
        ResultCheck {
            meta,
            field: meta.bots.iter().map(|b| b.name.as_str()).collect(),
            seats_by_id,
            seat_range: format.seat_range(smallest, meta.players),
        }
    }

    /// The seats of match `id`.
    fn seats(&self, id: u64) -> usize {
        self.seats_by_id
            .as_ref()
            .and_then(|by_id| by_id.get(&id).copied())
            .unwrap_or(self.meta.players)
    }

    /// Checks one result: a match id of the schedule, players of the field in the match's
    /// number of seats, and one score, rank, statistics and stderr range per seat, each within
    /// its bounds.
    ///
    /// # Errors
    /// [`BadResult`] saying the first thing that is wrong.
    pub fn check(&self, result: &MatchResult) -> Result<(), BadResult> {
        let foreign = |message: String| Err(BadResult::Foreign(message));
        let bounds = |message: String| Err(BadResult::OutOfBounds(message));
        let r = &result.record;
        if result.id >= self.meta.matches {
            return bounds(format!(
                "match id {} is beyond the schedule's {} matches",
                result.id, self.meta.matches
            ));
        }
        if let Some(unknown) = r.players.iter().find(|p| !self.field.contains(p.as_str())) {
            return foreign(format!("no bot is named '{unknown}'"));
        }
        let n = r.players.len();
        let expected = match &self.seat_range {
            Some(range) if range.contains(&n) => n,
            _ => self.seats(result.id),
        };
        if n != expected
            || r.scores.len() != n
            || r.ranks.len() != n
            || r.stats.len() != n
            || !(result.stderr.is_empty() || result.stderr.len() == n)
        {
            return foreign(format!(
                "{n} players, scores, ranks, stats or stderr ranges where {expected} seats are played"
            ));
        }
        if r.faults.iter().any(|f| f.seat >= n) {
            return foreign("a fault of a seat that does not exist".into());
        }
        if let Some(score) = r.scores.iter().find(|s| s.unsigned_abs() > MAX_COUNT) {
            return bounds(format!("a score of {score}, beyond ±{MAX_COUNT}"));
        }
        if let Some(rank) = r.ranks.iter().find(|&&rank| rank == 0 || rank as usize > n) {
            return bounds(format!("a rank of {rank} in a match of {n} seats"));
        }
        for (seat, stats) in r.stats.iter().enumerate() {
            let times = stats.times.count();
            if stats.decisions > MAX_COUNT
                || stats.substituted > stats.decisions
                || times > stats.decisions
            {
                return bounds(format!(
                    "seat {seat}: {} decisions ({} substituted, {times} timed); at most {MAX_COUNT}, and no more substituted or timed than taken",
                    stats.decisions, stats.substituted
                ));
            }
        }
        for range in result.stderr.iter().flatten() {
            if !crate::safe_fs::is_plain_name(&range.file) || range.from > range.to {
                return bounds(format!(
                    "a stderr range {:?} bytes {} to {}: a file name of stderr/ and a range from a byte to a later one",
                    range.file, range.from, range.to
                ));
            }
        }
        Ok(())
    }
}
