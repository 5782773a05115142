//! How a standings table is scored: a [`Scoring`] turns a tournament's results into its
//! leaderboard. One module per scoring system; a schedule format names the one it is scored by
//! ([`Format::scoring`](super::Format::scoring)).

use super::results::{MatchResult, TournamentMeta};
use super::standings::{Leaderboard, compute};
use engine::{GameKind, UnknownGame};
use std::collections::BTreeMap;

/// What the leaderboard is about.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a> {
    /// The game.
    pub game: &'a str,
    /// What the game's score is called.
    pub score_name: &'a str,
    /// The bots, in field order.
    pub bots: &'a [String],
    /// Matches in the whole schedule.
    pub scheduled: u64,
}

/// A scoring system for a tournament's standings.
pub trait Scoring: Sync {
    /// The leaderboard of `field` from `results` (in any order; the result must not depend on
    /// it).
    fn leaderboard(&self, field: &Field<'_>, results: &[&MatchResult]) -> Leaderboard;
}

/// Weng-Lin (OpenSkill) ratings from each match's ranks, ordered by μ − 3σ, with win rates,
/// mean ranks, mean scores over duplicate groups and head-to-head counts (see
/// [`standings`](super::standings)).
pub struct WengLin;

impl Scoring for WengLin {
    fn leaderboard(&self, field: &Field<'_>, results: &[&MatchResult]) -> Leaderboard {
        compute(
            field.game,
            field.score_name,
            field.bots,
            results,
            field.scheduled,
        )
    }
}

/// The leaderboard of the tournament `meta` describes, from its `results`, scored as its
/// format is.
///
/// # Errors
/// [`UnknownGame`] when `meta` names a game this referee does not have.
pub fn leaderboard(
    meta: &TournamentMeta,
    results: &BTreeMap<u64, MatchResult>,
) -> Result<Leaderboard, UnknownGame> {
    use engine::Game;
    let kind = GameKind::from_name(&meta.game)?;
    let score_name = engine::with_game!(kind, G => G::SCORE_NAME);
    let bots: Vec<String> = meta.bots.iter().map(|b| b.name.clone()).collect();
    let refs: Vec<&MatchResult> = results.values().collect();
    let field = Field {
        game: &meta.game,
        score_name,
        bots: &bots,
        scheduled: meta.matches,
    };
    Ok(meta.format.scoring().leaderboard(&field, &refs))
}
