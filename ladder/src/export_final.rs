//! A final tournament of the ladder as a tournament results directory: the schedule it was
//! played by (round robin or sampled, its seed, its length, duplicate or not) and its field,
//! in the order the schedule numbers the bots, so that `referee leaderboard`, `report` (with
//! its grade sheet) and `rerun` read it as the tournament it is. Its standings are the
//! tournament's own code ([`referee::tournament::leaderboard`]).

use crate::export::{
    ExportError, Exported, ExportedMatch, in_order, results_of, same_settings, write_results,
};
use referee::tournament::bounds::check_meta;
use referee::tournament::meta::MetaBot;
use referee::tournament::results::{MatchResult, TournamentMeta};
use referee::tournament::{FormatSpec, Leaderboard, ScheduleKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// What a final tournament is: its schedule and its field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalIdentity {
    /// Its format.
    pub schedule: ScheduleKind,
    /// Players per match.
    pub players: usize,
    /// Matches in its schedule.
    pub matches: u64,
    /// Its seed.
    pub seed: u64,
    /// Whether the matches of a group share their deal.
    pub duplicate: bool,
    /// The versions that play, in the schedule's order (its bot indices), as seated.
    pub field: Vec<MetaBot>,
}

/// The identity of the final `identity` whose matches so far are `ordered` (in id order).
fn meta(
    ordered: &[&ExportedMatch],
    identity: &FinalIdentity,
) -> Result<TournamentMeta, ExportError> {
    let first = ordered.first().ok_or(ExportError::Empty)?;
    let field: BTreeMap<&str, &MetaBot> = identity
        .field
        .iter()
        .map(|b| (b.name.as_str(), b))
        .collect();
    let mut previous: Option<u64> = None;
    for m in ordered {
        if previous == Some(m.id) {
            return Err(ExportError::TwiceGiven(m.id));
        }
        previous = Some(m.id);
        if m.id >= identity.matches || m.spec.seats.len() != identity.players {
            return Err(ExportError::Beyond(m.id));
        }
        same_settings(first, m)?;
        for seat in &m.spec.seats {
            if field.get(seat.bot.name.as_str()) != Some(&&seat.bot) {
                return Err(ExportError::TwoBots(seat.bot.name.clone()));
            }
        }
    }
    let meta = TournamentMeta {
        game: first.spec.game.clone(),
        options: first.spec.options.clone(),
        bots: identity.field.clone(),
        players: identity.players,
        format: FormatSpec::from(identity.schedule),
        candidate: None,
        matches: identity.matches,
        seed: identity.seed,
        duplicate: identity.duplicate,
        max_faults: first.spec.max_faults,
        policy: first.spec.policy,
    };
    check_meta(&meta)
        .map_err(|bad| ExportError::Identity(format!("{}: {}", bad.field, bad.message)))?;
    Ok(meta)
}

/// The identity and the checked results of the final `identity` whose matches so far are
/// `matches` (any order; ids are the schedule's).
///
/// # Errors
/// [`ExportError`] for no match, or a match that is not of this final.
pub fn final_results(
    matches: &[ExportedMatch],
    identity: &FinalIdentity,
) -> Result<(TournamentMeta, Vec<MatchResult>), ExportError> {
    let ordered = in_order(matches);
    let meta = meta(&ordered, identity)?;
    let results = results_of(&meta, &ordered)?;
    Ok((meta, results))
}

/// The leaderboard of the final `identity` from its matches so far, as `referee leaderboard`
/// computes it.
///
/// # Errors
/// [`ExportError`] as [`final_results`].
pub fn final_board(
    matches: &[ExportedMatch],
    identity: &FinalIdentity,
) -> Result<Leaderboard, ExportError> {
    let (meta, results) = final_results(matches, identity)?;
    let by_id: BTreeMap<u64, MatchResult> = results.into_iter().map(|r| (r.id, r)).collect();
    referee::tournament::leaderboard(&meta, &by_id)
        .map_err(|e| ExportError::Identity(e.to_string()))
}

/// Writes the final `identity`'s matches so far as a tournament results directory at `out`
/// (made if missing, private; refused if it already holds results).
///
/// # Errors
/// [`ExportError`] as [`final_results`], or a directory that cannot be written.
pub fn export_final(
    matches: &[ExportedMatch],
    identity: &FinalIdentity,
    out: &Path,
) -> Result<Exported, ExportError> {
    let ordered = in_order(matches);
    let meta = meta(&ordered, identity)?;
    write_results(&meta, &ordered, out)
}
