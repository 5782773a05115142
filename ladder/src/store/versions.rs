//! Bots and their versions. A version is immutable and named by the hash of its source; it is
//! built and checked (a build job), and the newest version of a bot that passed plays. Each
//! version has its own rating: a new one starts from its predecessor's μ with σ reset.

use super::{Store, StoreError};
use sqlx::Row;
use sqlx::any::AnyRow;

/// A bot: an owner's name for a series of versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bot {
    /// Its id.
    pub id: i64,
    /// Its name on the ladder.
    pub name: String,
    /// Its owner's account id.
    pub owner_id: i64,
    /// Its owner's name.
    pub owner: String,
    /// Its language (one of `new-bot`'s six, or `builtin`).
    pub lang: String,
    /// Whether the admin removed it (its versions no longer play).
    pub removed: bool,
    /// Its owner's class group, if the admin gave one.
    pub group: Option<String>,
}

/// Where a version is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionState {
    /// Waiting for its build job, or being built and checked.
    Building,
    /// Built and checked: it may play.
    Ready,
    /// Its build failed (the build log says why).
    BuildFailed,
    /// It built, but the check failed (the checklist says why).
    CheckFailed,
}

impl VersionState {
    /// Its name in the store and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            VersionState::Building => "building",
            VersionState::Ready => "ready",
            VersionState::BuildFailed => "build-failed",
            VersionState::CheckFailed => "check-failed",
        }
    }

    fn parse(name: &str) -> Option<VersionState> {
        [
            VersionState::Building,
            VersionState::Ready,
            VersionState::BuildFailed,
            VersionState::CheckFailed,
        ]
        .into_iter()
        .find(|s| s.as_str() == name)
    }
}

/// A version of a bot, with its rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Version {
    /// Its id.
    pub id: i64,
    /// Its bot.
    pub bot: Bot,
    /// Its number among its bot's versions (1, 2, …).
    pub number: i64,
    /// The sha256 of its source artifact.
    pub source_hash: String,
    /// Where it is in its life.
    pub state: VersionState,
    /// The sha256 of its built artifact, once built.
    pub artifact_hash: Option<String>,
    /// The command that runs it from its artifact (or `builtin:NAME`), once built.
    pub run_command: Option<String>,
    /// The sha256 of its build log, once built.
    pub build_log_hash: Option<String>,
    /// Its checklist (JSON), once checked.
    pub check_report: Option<String>,
    /// Its rating's mean.
    pub mu: f64,
    /// Its rating's uncertainty.
    pub sigma: f64,
    /// Ranked matches it finished.
    pub ranked_matches: i64,
    /// Ranked matches it finished first (ties shared).
    pub ranked_wins: i64,
    /// Faults it committed in its ranked matches.
    pub ranked_faults: i64,
    /// When its last ranked match finished.
    pub last_played: Option<i64>,
    /// When it was last seated in a match job.
    pub last_seated: Option<i64>,
    /// When it was submitted.
    pub created_ms: i64,
    /// Whether the admin removed this version (it plays no more; its bot plays its previous
    /// ready version).
    pub removed: bool,
    /// Its decision times over its matches (empty before its first).
    pub times: referee::runner::TimeHistogram,
}

impl Version {
    /// Its seat name in a match: `BOT.vN`.
    pub fn seat_name(&self) -> String {
        crate::spec::seat_name(&self.bot.name, self.number)
    }
}

/// How a build job ended, as the server records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildResult {
    /// What it became: ready, or failed at the build or at the check.
    pub state: VersionState,
    /// The sha256 of the built artifact (when it built).
    pub artifact_hash: Option<String>,
    /// The command that runs it from its artifact.
    pub run_command: Option<String>,
    /// The sha256 of the build log.
    pub build_log_hash: Option<String>,
    /// The checklist, as JSON (when it was checked).
    pub check_report: Option<String>,
}

pub(super) fn bot(row: &AnyRow) -> Result<Bot, StoreError> {
    Ok(Bot {
        id: row.try_get("bot_id")?,
        name: row.try_get("bot_name")?,
        owner_id: row.try_get("owner_id")?,
        owner: row.try_get("owner_name")?,
        lang: row.try_get("lang")?,
        removed: row.try_get::<i64, _>("removed")? != 0,
        group: row.try_get("owner_group")?,
    })
}

pub(super) fn version(row: &AnyRow) -> Result<Version, StoreError> {
    let state: String = row.try_get("state")?;
    Ok(Version {
        id: row.try_get("id")?,
        bot: bot(row)?,
        number: row.try_get("number")?,
        source_hash: row.try_get("source_hash")?,
        state: VersionState::parse(&state)
            .ok_or_else(|| StoreError::Corrupt(format!("the version state {state:?}")))?,
        artifact_hash: row.try_get("artifact_hash")?,
        run_command: row.try_get("run_command")?,
        build_log_hash: row.try_get("build_log_hash")?,
        check_report: row.try_get("check_report")?,
        mu: row.try_get("mu")?,
        sigma: row.try_get("sigma")?,
        ranked_matches: row.try_get("ranked_matches")?,
        ranked_wins: row.try_get("ranked_wins")?,
        ranked_faults: row.try_get("ranked_faults")?,
        last_played: row.try_get("last_played")?,
        last_seated: row.try_get("last_seated")?,
        created_ms: row.try_get("created_ms")?,
        removed: row.try_get::<i64, _>("version_removed")? != 0,
        times: match row.try_get::<Option<String>, _>("times")? {
            Some(json) => serde_json::from_str(&json)
                .map_err(|e| StoreError::Corrupt(format!("a version's times: {e}")))?,
            None => referee::runner::TimeHistogram::default(),
        },
    })
}

/// The columns [`version`] reads, from `versions v` joined with `bots b` and `accounts a`.
macro_rules! version_select {
    ($($rest:literal)*) => {
        concat!(
            "SELECT v.id, v.number, v.source_hash, v.state, v.artifact_hash, v.run_command, \
             v.build_log_hash, v.check_report, v.mu, v.sigma, v.ranked_matches, v.ranked_wins, \
             v.ranked_faults, v.last_played, v.last_seated, v.created_ms, \
             v.removed AS version_removed, v.times, b.id AS bot_id, \
             b.name AS bot_name, b.lang, b.removed, \
             a.id AS owner_id, a.name AS owner_name, a.grp AS owner_group \
             FROM versions v JOIN bots b ON b.id = v.bot_id JOIN accounts a ON a.id = b.owner_id ",
            $($rest),*
        )
    };
}

impl Store {
    /// The bot named `name`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn bot(&self, name: &str) -> Result<Option<Bot>, StoreError> {
        let row = sqlx::query(
            "SELECT b.id AS bot_id, b.name AS bot_name, b.lang, b.removed, \
             a.id AS owner_id, a.name AS owner_name, a.grp AS owner_group \
             FROM bots b JOIN accounts a ON a.id = b.owner_id WHERE b.name = $1",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(bot).transpose()
    }

    /// Removes version `number` of bot `bot` from play, or puts it back; whether it exists.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_version_removed(
        &self,
        bot: &str,
        number: i64,
        removed: bool,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE versions SET removed = $1 WHERE number = $2 \
             AND bot_id = (SELECT id FROM bots WHERE name = $3)",
        )
        .bind(i64::from(removed))
        .bind(number)
        .bind(bot)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Adds bot `name` of owner `owner_id` in language `lang`.
    ///
    /// # Errors
    /// [`StoreError::Taken`] when the name is.
    pub async fn add_bot(
        &self,
        owner_id: i64,
        name: &str,
        lang: &str,
        now: i64,
    ) -> Result<Bot, StoreError> {
        sqlx::query("INSERT INTO bots (owner_id, name, lang, created_ms) VALUES ($1, $2, $3, $4)")
            .bind(owner_id)
            .bind(name)
            .bind(lang)
            .bind(now)
            .execute(&self.pool)
            .await
            .map_err(|e| StoreError::or_taken(e, name))?;
        self.bot(name)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("no bot '{name}' just after adding it")))
    }

    /// Marks bot `name` removed (its versions stop playing) or back; whether it exists.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_removed(&self, name: &str, removed: bool) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE bots SET removed = $1 WHERE name = $2")
            .bind(i64::from(removed))
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Adds a version of `bot` whose source hashes to `source_hash`, to be built; or, when the
    /// bot has a version of that source already, returns it (`false`: nothing was added). A
    /// new version's μ is that of the bot's newest version that played or is ready (else
    /// `start.0`) and its σ is `start.1`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn add_version(
        &self,
        bot: &Bot,
        source_hash: &str,
        start: (f64, f64),
        now: i64,
    ) -> Result<(Version, bool), StoreError> {
        let mut tx = self.write().await?;
        let existing: Option<(i64,)> =
            sqlx::query_as("SELECT id FROM versions WHERE bot_id = $1 AND source_hash = $2")
                .bind(bot.id)
                .bind(source_hash)
                .fetch_optional(&mut *tx)
                .await?;
        let added = if let Some((id,)) = existing {
            tx.rollback().await?;
            return Ok((self.version_or_corrupt(id).await?, false));
        } else {
            let predecessor: Option<(f64,)> = sqlx::query_as(
                "SELECT mu FROM versions WHERE bot_id = $1 AND state = 'ready' \
                 ORDER BY number DESC LIMIT 1",
            )
            .bind(bot.id)
            .fetch_optional(&mut *tx)
            .await?;
            let mu = predecessor.map_or(start.0, |(mu,)| mu);
            let (id,): (i64,) = sqlx::query_as(
                "INSERT INTO versions (bot_id, number, source_hash, state, mu, sigma, created_ms) \
                 SELECT $1, COALESCE(MAX(number), 0) + 1, $2, 'building', $3, $4, $5 \
                 FROM versions WHERE bot_id = $1 RETURNING id",
            )
            .bind(bot.id)
            .bind(source_hash)
            .bind(mu)
            .bind(start.1)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            id
        };
        tx.commit().await?;
        Ok((self.version_or_corrupt(added).await?, true))
    }

    async fn version_or_corrupt(&self, id: i64) -> Result<Version, StoreError> {
        self.version(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("no version {id} just after writing it")))
    }

    /// Version `id`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn version(&self, id: i64) -> Result<Option<Version>, StoreError> {
        let row = sqlx::query(version_select!("WHERE v.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(version).transpose()
    }

    /// Version `number` of bot `bot`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn version_of(&self, bot: &str, number: i64) -> Result<Option<Version>, StoreError> {
        let row = sqlx::query(version_select!("WHERE b.name = $1 AND v.number = $2"))
            .bind(bot)
            .bind(number)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(version).transpose()
    }

    /// Every version of bot `bot`, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn versions_of(&self, bot: &str) -> Result<Vec<Version>, StoreError> {
        let rows = sqlx::query(version_select!("WHERE b.name = $1 ORDER BY v.number"))
            .bind(bot)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(version).collect()
    }

    /// The versions that play: the newest ready version not removed of each bot not removed,
    /// by id.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn playable(&self) -> Result<Vec<Version>, StoreError> {
        let rows = sqlx::query(version_select!(
            "WHERE v.state = 'ready' AND v.removed = 0 AND b.removed = 0 AND a.disabled = 0 \
             AND v.number = (SELECT MAX(w.number) FROM versions w \
             WHERE w.bot_id = v.bot_id AND w.state = 'ready' AND w.removed = 0) \
             ORDER BY v.id"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(version).collect()
    }

    /// Every version not removed that played a ranked match or is ready, by id (the board's
    /// rows).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn rated(&self) -> Result<Vec<Version>, StoreError> {
        let rows = sqlx::query(version_select!(
            "WHERE v.removed = 0 AND (v.state = 'ready' OR v.ranked_matches > 0) ORDER BY v.id"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(version).collect()
    }
}

impl Store {
    /// Whether account `owner` owns a version whose source or build is `hash`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn owns_artifact(&self, owner: i64, hash: &str) -> Result<bool, StoreError> {
        let (count,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM versions v JOIN bots b ON b.id = v.bot_id \
             WHERE b.owner_id = $1 AND (v.source_hash = $2 OR v.artifact_hash = $2)",
        )
        .bind(owner)
        .bind(hash)
        .fetch_one(&self.pool)
        .await?;
        Ok(count > 0)
    }
}
