//! What callers read: the standings, a version's status (its build log and checklist for its
//! owner and the admin only).

use super::{Ladder, ServiceError};
use crate::store::{Account, Role};
use serde::{Deserialize, Serialize};

/// One row of the standings.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StandingRow {
    /// Its place, 1 first.
    pub rank: usize,
    /// The version's seat name (`BOT.vN`).
    pub name: String,
    /// Its bot.
    pub bot: String,
    /// Its owner.
    pub owner: String,
    /// Its owner's class group, if the admin gave one.
    pub group: Option<String>,
    /// Its rating's mean.
    pub mu: f64,
    /// Its rating's uncertainty.
    pub sigma: f64,
    /// μ − 3σ: what the board ranks by.
    pub conservative: f64,
    /// μ + 3σ: the top of its interval.
    pub high: f64,
    /// Ranked matches it played.
    pub matches: i64,
    /// Ranked matches it finished first (ties shared).
    pub wins: i64,
    /// Faults it committed in its ranked matches.
    pub faults: i64,
    /// When its last ranked match was recorded (milliseconds since the Unix epoch).
    pub last_played_ms: Option<i64>,
    /// 99% of its decisions in its ranked matches took at most this long, in milliseconds
    /// (the upper edge of a bucket about 9% wide); `null` before its first decision.
    pub p99_ms: Option<f64>,
}

/// The rows of `rows` whose owner is in class group `group` (all of them when `None`), their
/// ranks as they were.
pub fn in_group(mut rows: Vec<StandingRow>, group: Option<&str>) -> Vec<StandingRow> {
    if let Some(group) = group {
        rows.retain(|row| row.group.as_deref() == Some(group));
    }
    rows
}

/// The class groups of the owners in `rows`, each once, in order.
pub fn groups(rows: &[StandingRow]) -> Vec<&str> {
    let groups: std::collections::BTreeSet<&str> =
        rows.iter().filter_map(|row| row.group.as_deref()).collect();
    groups.into_iter().collect()
}

/// A version as its owner (or the admin) sees it.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct VersionStatus {
    /// Its seat name.
    pub name: String,
    /// Where it is: `building`, `ready`, `build-failed`, `check-failed`.
    pub state: String,
    /// The sha256 of its source.
    pub source: String,
    /// The sha256 of its built artifact.
    pub artifact: Option<String>,
    /// Its build log (its owner and the admin only).
    pub build_log: Option<String>,
    /// Its checklist (its owner and the admin only).
    pub check: Option<serde_json::Value>,
    /// Its rating's mean.
    pub mu: f64,
    /// Its rating's uncertainty.
    pub sigma: f64,
    /// Ranked matches it played.
    pub matches: i64,
    /// Ranked matches it finished first (ties shared).
    pub wins: i64,
    /// Faults it committed in its ranked matches.
    pub faults: i64,
    /// When its last ranked match was recorded (milliseconds since the Unix epoch).
    pub last_played_ms: Option<i64>,
}

impl Ladder {
    /// The standings: the versions that play, by μ − 3σ; only those whose owner is in class
    /// group `group` when one is given, each keeping its rank on the whole ladder.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn standings(&self, group: Option<&str>) -> Result<Vec<StandingRow>, ServiceError> {
        Ok(in_group(self.all_standings().await?, group))
    }

    /// The standings of every version that plays, by μ − 3σ.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn all_standings(&self) -> Result<Vec<StandingRow>, ServiceError> {
        let mut rows: Vec<StandingRow> = self
            .store
            .playable()
            .await?
            .into_iter()
            .map(|v| StandingRow {
                rank: 0,
                name: v.seat_name(),
                bot: v.bot.name.clone(),
                owner: v.bot.owner.clone(),
                group: v.bot.group.clone(),
                mu: v.mu,
                sigma: v.sigma,
                conservative: v.mu - 3.0 * v.sigma,
                high: v.mu + 3.0 * v.sigma,
                matches: v.ranked_matches,
                wins: v.ranked_wins,
                faults: v.ranked_faults,
                last_played_ms: v.last_played,
                p99_ms: v.times.quantile_ms(0.99),
            })
            .collect();
        rows.sort_by(|a, b| {
            b.conservative
                .total_cmp(&a.conservative)
                .then_with(|| a.name.cmp(&b.name))
        });
        for (i, row) in rows.iter_mut().enumerate() {
            row.rank = i + 1;
        }
        Ok(rows)
    }

    /// Version `number` of bot `bot`, with its build log and checklist when `caller` owns it
    /// or is the admin.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`].
    pub async fn version_status(
        &self,
        caller: Option<&Account>,
        bot: &str,
        number: i64,
    ) -> Result<VersionStatus, ServiceError> {
        let v = self
            .store
            .version_of(bot, number)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no version {number} of '{bot}'")))?;
        let private = caller.is_some_and(|c| c.role == Role::Admin || c.id == v.bot.owner_id);
        let build_log = match (&v.build_log_hash, private) {
            (Some(hash), true) => {
                Some(String::from_utf8_lossy(&self.artifacts.read(hash)?).into_owned())
            }
            _ => None,
        };
        let check = match (&v.check_report, private) {
            (Some(json), true) => serde_json::from_str(json).ok(),
            _ => None,
        };
        Ok(VersionStatus {
            name: v.seat_name(),
            state: v.state.as_str().to_owned(),
            source: v.source_hash.clone(),
            artifact: v.artifact_hash.clone(),
            build_log,
            check,
            mu: v.mu,
            sigma: v.sigma,
            matches: v.ranked_matches,
            wins: v.ranked_wins,
            faults: v.ranked_faults,
            last_played_ms: v.last_played,
        })
    }
}

impl Ladder {
    /// The artifact `hash`: any of them for a worker or the admin; for an owner, only the
    /// sources and builds of its own versions.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] (also for another owner's artifact: what exists is not told).
    pub async fn artifact(&self, caller: &Account, hash: &str) -> Result<Vec<u8>, ServiceError> {
        let allowed = match caller.role {
            Role::Worker | Role::Admin => true,
            Role::Owner => self.store.owns_artifact(caller.id, hash).await?,
        };
        if !allowed {
            return Err(ServiceError::NotFound(format!("no artifact {hash:.64}")));
        }
        Ok(self.artifacts.read(hash)?)
    }
}
