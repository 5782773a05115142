//! How a standings table is scored: a [`Scoring`] turns a tournament's results into its
//! leaderboard. One module per scoring system; a schedule format names the one it is scored by
//! ([`ScheduleKind::scoring`](super::ScheduleKind::scoring)).

use super::nava_standings::nava_standings;
use super::results::{MatchResult, TournamentMeta};
use super::schedule::NavaSpec;
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
    /// The tournament seed.
    pub seed: u64,
    /// Whether a higher score is better ([`Game::HIGHER_IS_BETTER`](engine::Game::HIGHER_IS_BETTER)).
    pub higher_is_better: bool,
    /// A Nava tournament's rounds and hands.
    pub nava: Option<NavaSpec>,
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
        compute(field, results)
    }
}

/// Victory Points by table and round, summed; ties broken by difference VP, then by match
/// points ([`nava_standings`]). The usual columns (matches, faults, decision times, ratings)
/// stay, in the VP order.
pub struct NavaVp;

impl Scoring for NavaVp {
    fn leaderboard(&self, field: &Field<'_>, results: &[&MatchResult]) -> Leaderboard {
        let board = WengLin.leaderboard(field, results);
        let Some(nava) = field.nava else {
            return board;
        };
        let vp = nava_standings(
            field.bots,
            field.seed,
            nava,
            field.higher_is_better,
            results,
        );
        let order: Vec<usize> = vp
            .rows
            .iter()
            .map(|row| {
                board
                    .standings
                    .iter()
                    .position(|s| s.bot == row.bot)
                    .expect("every bot has a standing")
            })
            .collect();
        let ranks: Vec<usize> = vp.rows.iter().map(|row| row.rank).collect();
        let mut board = board.reordered(&order, &ranks);
        board.nava = Some(vp);
        board
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
    let (score_name, higher_is_better) =
        engine::with_game!(kind, G => (G::SCORE_NAME, G::HIGHER_IS_BETTER));
    let bots: Vec<String> = meta.bots.iter().map(|b| b.name.clone()).collect();
    let refs: Vec<&MatchResult> = results.values().collect();
    let field = Field {
        game: &meta.game,
        score_name,
        bots: &bots,
        scheduled: meta.matches,
        seed: meta.seed,
        higher_is_better,
        nava: meta.nava,
    };
    Ok(meta.schedule.scoring().leaderboard(&field, &refs))
}
