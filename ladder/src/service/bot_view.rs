//! A bot as its page shows it: its versions (their build logs and checklists to its owner and
//! the admin only), its rating after each ranked match, how it fared against every bot it met,
//! its recent matches, and its faults summed up by kind.

use super::matches_view::{parsed, view_of};
use super::{Ladder, MatchView, ServiceError, VersionStatus};
use crate::store::{Account, Role};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Points of the rating history kept at most (the last ones).
pub const HISTORY_POINTS: i64 = 2000;

/// Recent matches shown, and looked at for the faults.
pub const RECENT_MATCHES: i64 = 200;

/// A bot's page's data (`GET /api/v1/bots/{bot}`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BotView {
    /// The bot.
    pub bot: String,
    /// Its owner.
    pub owner: String,
    /// Its language.
    pub lang: String,
    /// Whether the admin removed it (its history stays).
    pub removed: bool,
    /// Its versions, newest first.
    pub versions: Vec<VersionStatus>,
    /// Its rating after each of its last ranked matches, oldest first.
    pub history: Vec<RatingPointView>,
    /// How it fared against every bot it sat with.
    pub meetings: Vec<MeetingsView>,
    /// Its last matches, newest first.
    pub recent: Vec<MatchView>,
    /// Its faults in those matches, by kind.
    pub faults: Vec<FaultKindView>,
}

/// The bot's rating after one ranked match.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RatingPointView {
    /// The match.
    pub match_id: i64,
    /// When it was recorded (ms since the epoch).
    pub finished_ms: i64,
    /// The version that played it.
    pub version: i64,
    /// μ after it.
    pub mu: f64,
    /// σ after it.
    pub sigma: f64,
}

/// The bot against one other.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MeetingsView {
    /// The other bot.
    pub opponent: String,
    /// Its owner.
    pub owner: String,
    /// Matches together.
    pub matches: i64,
    /// Those it finished ahead of the other.
    pub ahead: i64,
    /// Those it finished behind.
    pub behind: i64,
}

/// One kind of fault of the bot in its recent matches.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FaultKindView {
    /// The kind (`timeout`, `illegal_action`…, docs/protocol.md#faults).
    pub kind: String,
    /// How many.
    pub count: usize,
    /// The match of the first of them (the oldest of the recent matches).
    pub first_match: i64,
    /// Its message (its owner and the admin only: a message can quote the bot's stderr).
    pub first_message: Option<String>,
}

impl Ladder {
    /// Bot `bot` as `viewer` (signed in or anyone) sees it.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`].
    pub async fn bot_view(
        &self,
        viewer: Option<&Account>,
        bot: &str,
    ) -> Result<BotView, ServiceError> {
        let found = self
            .store
            .bot(bot)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no bot '{bot}'")))?;
        let private = viewer.is_some_and(|c| c.role == Role::Admin || c.id == found.owner_id);
        let mut versions = Vec::new();
        for v in self.store.versions_of(bot).await?.iter().rev() {
            versions.push(self.version_status(viewer, bot, v.number).await?);
        }
        let history = self
            .store
            .rating_history(bot, HISTORY_POINTS)
            .await?
            .into_iter()
            .map(|p| RatingPointView {
                match_id: p.match_id,
                finished_ms: p.finished_ms,
                version: p.version,
                mu: p.mu,
                sigma: p.sigma,
            })
            .collect();
        let meetings = self
            .store
            .meetings(bot)
            .await?
            .into_iter()
            .map(|m| MeetingsView {
                opponent: m.opponent,
                owner: m.owner,
                matches: m.matches,
                ahead: m.ahead,
                behind: m.behind,
            })
            .collect();
        let rows = self.match_rows_of(bot, RECENT_MATCHES).await?;
        let mut faults: BTreeMap<String, FaultKindView> = BTreeMap::new();
        // Oldest first: the first occurrence is the oldest.
        for row in rows.iter().rev() {
            let (spec, record) = parsed(row)?;
            let ours = |seat: usize| {
                spec.seats
                    .get(seat)
                    .is_some_and(|s| crate::spec::bot_of_seat(&s.bot.name) == Some(bot))
            };
            for fault in record.faults.iter().filter(|f| ours(f.seat)) {
                faults
                    .entry(fault.fault.as_str().to_owned())
                    .and_modify(|k| k.count += 1)
                    .or_insert_with(|| FaultKindView {
                        kind: fault.fault.as_str().to_owned(),
                        count: 1,
                        first_match: row.id,
                        first_message: private.then(|| fault.message.clone()),
                    });
            }
        }
        Ok(BotView {
            bot: found.name.clone(),
            owner: found.owner.clone(),
            lang: found.lang.clone(),
            removed: found.removed,
            versions,
            history,
            meetings,
            recent: rows.iter().map(view_of).collect::<Result<_, _>>()?,
            faults: faults.into_values().collect(),
        })
    }
}
