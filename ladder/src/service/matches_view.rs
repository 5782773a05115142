//! A recorded match as a caller may see it: the seats, scores, ranks and faults for anyone;
//! the seed (which reveals the deal), the log and each seat's stderr only to those allowed
//! (a seat's stderr to its owner, everything to the admin).

use super::{Ladder, ServiceError};
use crate::match_seen::{Audience, seen_log};
use crate::spec::MatchSpec;
use crate::store::{Account, MatchRow, Role};
use referee::runner::{LogRecord, MatchRecord};
use serde::{Deserialize, Serialize};

/// One seat of a recorded match.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatView {
    /// The version's seat name.
    pub name: String,
    /// Its owner.
    pub owner: String,
    /// Its score.
    pub score: i64,
    /// Its rank (1 = best).
    pub rank: u32,
    /// Its faults.
    pub faults: usize,
}

/// A recorded match, as anyone sees it.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MatchView {
    /// Its id.
    pub id: i64,
    /// Whether it counted for the ratings.
    pub ranked: bool,
    /// A challenge's: the owner who asked for it.
    pub challenge: bool,
    /// The final tournament it is a match of, if any (unranked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_id: Option<i64>,
    /// The game.
    pub game: String,
    /// The referee version that played it.
    pub referee: String,
    /// The seats, in order.
    pub seats: Vec<SeatView>,
    /// When it was recorded (ms since the epoch).
    pub finished_ms: i64,
    /// Whether the match is void, the game itself having failed: a fixed text for anyone
    /// (the game's own message, which can name a seat's hidden action, is in the log, for the
    /// admin).
    pub internal_error: Option<String>,
}

pub(super) fn parsed(row: &MatchRow) -> Result<(MatchSpec, MatchRecord), ServiceError> {
    let corrupt = |what: &str, e: serde_json::Error| {
        ServiceError::Store(crate::store::StoreError::Corrupt(format!(
            "match {}'s {what} ({e})",
            row.id
        )))
    };
    let spec = serde_json::from_str(&row.spec).map_err(|e| corrupt("spec", e))?;
    let record = serde_json::from_str(&row.record).map_err(|e| corrupt("record", e))?;
    Ok((spec, record))
}

impl Ladder {
    async fn match_row_or_404(&self, id: i64) -> Result<MatchRow, ServiceError> {
        self.store
            .match_row(id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no match {id}")))
    }

    /// Match `id` as anyone sees it.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`].
    pub async fn match_view(&self, id: i64) -> Result<MatchView, ServiceError> {
        let row = self.match_row_or_404(id).await?;
        view_of(&row)
    }

    /// The last `limit` matches of bot `bot`'s versions (or of version `BOT.vN`), newest
    /// first: its history, head to head with whoever it met.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`].
    pub async fn matches_of(&self, name: &str, limit: i64) -> Result<Vec<MatchView>, ServiceError> {
        self.match_rows_of(name, limit)
            .await?
            .iter()
            .map(view_of)
            .collect()
    }

    /// The rows of [`Ladder::matches_of`].
    pub(super) async fn match_rows_of(
        &self,
        name: &str,
        limit: i64,
    ) -> Result<Vec<MatchRow>, ServiceError> {
        let versions = match crate::spec::parse_seat_name(name) {
            Some((bot, n)) => {
                let n = n.unwrap_or(0);
                self.store.version_of(bot, n).await?.into_iter().collect()
            }
            None => self.store.versions_of(name).await?,
        };
        if versions.is_empty() {
            return Err(ServiceError::NotFound(format!(
                "no bot or version '{name}'"
            )));
        }
        let mut rows = Vec::new();
        for v in &versions {
            rows.extend(self.store.matches_of(v.id, limit.clamp(1, 500)).await?);
        }
        rows.sort_by_key(|r| std::cmp::Reverse(r.id));
        rows.dedup_by_key(|r| r.id);
        rows.truncate(limit.clamp(1, 500) as usize);
        Ok(rows)
    }

    /// The last `limit` matches recorded (at most 500), newest first.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn latest_matches(&self, limit: i64) -> Result<Vec<MatchView>, ServiceError> {
        let rows = self.store.latest_matches(limit.clamp(1, 500)).await?;
        rows.iter().map(view_of).collect()
    }

    /// Seat `seat`'s stderr of match `id`: to the seat's owner and the admin only.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] (also for a seat the caller does not own: what exists is
    /// not told).
    pub async fn match_stderr(
        &self,
        caller: &Account,
        id: i64,
        seat: usize,
    ) -> Result<Vec<u8>, ServiceError> {
        let row = self.match_row_or_404(id).await?;
        let (spec, _) = parsed(&row)?;
        let missing = || ServiceError::NotFound(format!("no stderr of seat {seat} in match {id}"));
        let owner = spec
            .seats
            .get(seat)
            .map(|s| s.owner.as_str())
            .ok_or_else(missing)?;
        if caller.role != Role::Admin && caller.name != owner {
            return Err(missing());
        }
        let hashes: Vec<Option<String>> = serde_json::from_str(&row.stderr_hashes)
            .map_err(|e| crate::store::StoreError::Corrupt(format!("match {id}'s stderr ({e})")))?;
        let hash = hashes.get(seat).cloned().flatten().ok_or_else(missing)?;
        Ok(self.artifacts.read(&hash)?)
    }
}

pub(super) fn view_of(row: &MatchRow) -> Result<MatchView, ServiceError> {
    let (spec, record) = parsed(row)?;
    Ok(MatchView {
        id: row.id,
        ranked: row.ranked,
        challenge: row.requested_by.is_some(),
        final_id: row.final_id,
        game: spec.game.clone(),
        referee: spec.referee.clone(),
        seats: spec
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView {
                name: s.bot.name.clone(),
                owner: s.owner.clone(),
                score: record.scores.get(i).copied().unwrap_or_default(),
                rank: record.ranks.get(i).copied().unwrap_or_default(),
                faults: record.fault_count(i),
            })
            .collect(),
        finished_ms: row.finished_ms,
        // Anyone's: the game's message can name a seat's hidden action (its log has it, for
        // the admin).
        internal_error: record
            .internal_error
            .as_ref()
            .map(|_| crate::match_seen::VOID_MESSAGE.to_owned()),
    })
}

impl Ladder {
    /// What `caller` gets to reproduce match `id` ([`visible_bundle`]): the admin everything;
    /// an owner only a match it sat in, once its whole duplicate group has finished (the seed
    /// gives the deal away), with stand-ins for the others' seats.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`], [`ServiceError::Forbidden`] with the reason.
    ///
    /// [`visible_bundle`]: crate::reproduce::visible_bundle
    pub async fn match_bundle(
        &self,
        caller: &Account,
        id: i64,
    ) -> Result<crate::reproduce::Bundle, ServiceError> {
        use crate::reproduce::{Caller, visible_bundle};
        let row = self.match_row_or_404(id).await?;
        let (spec, record) = parsed(&row)?;
        let who = match caller.role {
            Role::Admin => Caller::Admin,
            Role::Owner => Caller::Owner(&caller.name),
            Role::Worker => {
                return Err(ServiceError::Forbidden(
                    "a worker's token does not reproduce matches".into(),
                ));
            }
        };
        let log = self.log_of(&row)?;
        let in_play = self.store.deal_in_play(spec.group as i64).await?;
        visible_bundle(&spec, &record, &log, who, in_play)
            .map_err(|refusal| ServiceError::Forbidden(refusal.to_string()))
    }
}

/// A recorded match as one viewer sees it ([`crate::match_seen`]): its summary, who the viewer
/// is to it, and its log as that viewer may see it.
#[derive(Clone, Debug)]
pub struct SeenMatch {
    /// The summary anyone sees.
    pub view: MatchView,
    /// Who the viewer is to the match.
    pub audience: Audience,
    /// The log as the viewer may see it, header first; empty while it is withheld.
    pub log: Vec<LogRecord>,
    /// Whether its play is withheld from the viewer (not the admin) because a match of its deal
    /// is still to be played or being played: its public view would give the deal away.
    pub withheld: bool,
}

impl Ladder {
    /// Match `id`'s log (from the artifacts), its records in order.
    fn log_of(&self, row: &MatchRow) -> Result<Vec<LogRecord>, ServiceError> {
        let text = self.artifacts.read(&row.log_hash)?;
        let log = String::from_utf8_lossy(&text)
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(serde_json::from_str)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                crate::store::StoreError::Corrupt(format!("match {}'s log ({e})", row.id))
            })?;
        Ok(log)
    }

    /// Match `id` as `viewer` (signed in, or anyone) sees it: the admin the truth, an owner
    /// with a seat at the table that seat's view, anyone else the public view; but for the
    /// admin, nothing of its play while a match of its deal is still to be played.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`].
    pub async fn match_seen(
        &self,
        viewer: Option<&Account>,
        id: i64,
    ) -> Result<SeenMatch, ServiceError> {
        let row = self.match_row_or_404(id).await?;
        let (spec, _) = parsed(&row)?;
        let audience = match viewer {
            Some(account) if account.role == Role::Admin => Audience::Truth,
            Some(account) => spec
                .seats
                .iter()
                .position(|seat| seat.owner == account.name)
                .map_or(Audience::Public, Audience::Seat),
            None => Audience::Public,
        };
        let withheld =
            audience != Audience::Truth && self.store.deal_in_play(spec.group as i64).await?;
        let log = if withheld {
            Vec::new()
        } else {
            seen_log(&self.log_of(&row)?, audience)
        };
        Ok(SeenMatch {
            view: view_of(&row)?,
            audience,
            log,
            withheld,
        })
    }
}
