//! The leaderboard of a results directory: its identity says the game and the format, and the
//! format scores the results ([`Format::leaderboard`](super::format::Format::leaderboard)).

use super::match_result::MatchResult;
use super::meta::TournamentMeta;
use super::standings::{Field, Leaderboard};
use engine::{GameKind, UnknownGame};
use std::collections::BTreeMap;

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
        format: meta.format,
        candidate: meta.candidate.as_deref(),
    };
    Ok(meta.format.format().leaderboard(&field, &refs))
}
