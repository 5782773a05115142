//! Matches: what a worker reported for a match job, once the server checked it, and the
//! ratings it moved, written together in one transaction.

use super::{Backend, Finish, Store, StoreError};
use referee::runner::TimeHistogram;
use sqlx::Row;
use sqlx::any::AnyRow;
use std::collections::BTreeMap;

/// One seat's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatResult {
    /// The version at the seat.
    pub version: i64,
    /// Its score.
    pub score: i64,
    /// Its rank (1 = best, ties shared).
    pub rank: u32,
    /// The faults it committed.
    pub faults: i64,
    /// Its decisions' times (the record's `stats[seat].times`): a ranked match adds them to
    /// its version's.
    pub times: TimeHistogram,
}

/// A checked match result to record.
#[derive(Clone, Debug, PartialEq)]
pub struct NewMatch {
    /// Whether it counts for the ratings.
    pub ranked: bool,
    /// Its spec ([`MatchSpec`](crate::spec::MatchSpec) as JSON).
    pub spec: String,
    /// Its record (`MatchRecord` as JSON).
    pub record: String,
    /// The sha256 of its log.
    pub log_hash: String,
    /// The sha256 of each seat's stderr, by seat (JSON list; `null` for none).
    pub stderr_hashes: String,
    /// Each seat's result, in seat order.
    pub seats: Vec<SeatResult>,
}

/// A recorded match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRow {
    /// Its id.
    pub id: i64,
    /// The job that played it.
    pub job_id: i64,
    /// Whether it counts for the ratings.
    pub ranked: bool,
    /// Its spec as JSON.
    pub spec: String,
    /// Its record as JSON.
    pub record: String,
    /// The sha256 of its log.
    pub log_hash: String,
    /// The sha256 of each seat's stderr (JSON list).
    pub stderr_hashes: String,
    /// The account that asked for it (a challenge's owner), if any.
    pub requested_by: Option<i64>,
    /// When it was recorded.
    pub finished_ms: i64,
    /// The final tournament it is a match of, if any.
    pub final_id: Option<i64>,
}

pub(super) fn match_row(row: &AnyRow) -> Result<MatchRow, StoreError> {
    Ok(MatchRow {
        id: row.try_get("id")?,
        job_id: row.try_get("job_id")?,
        ranked: row.try_get::<i64, _>("ranked")? != 0,
        spec: row.try_get("spec")?,
        record: row.try_get("record")?,
        log_hash: row.try_get("log_hash")?,
        stderr_hashes: row.try_get("stderr_hashes")?,
        requested_by: row.try_get("requested_by")?,
        finished_ms: row.try_get("finished_ms")?,
        final_id: row.try_get("final_id")?,
    })
}

macro_rules! match_select {
    ($rest:literal) => {
        concat!(
            "SELECT m.id, m.job_id, m.ranked, m.spec, m.record, m.log_hash, m.stderr_hashes, \
             j.requested_by, m.finished_ms, j.final_id \
             FROM matches m JOIN jobs j ON j.id = m.job_id ",
            $rest
        )
    };
}

/// The new ratings of a ranked match's seats: given each seat's (μ, σ) and rank, in seat
/// order, returns the updated (μ, σ) in the same order.
pub type Rate<'a> = &'a (dyn Fn(&[(f64, f64)], &[u32]) -> Vec<(f64, f64)> + Sync);

impl Store {
    /// Records match job `job`'s result under lease `lease` if that lease is current: the
    /// match, its seats and, for a ranked match, the seats' new ratings (`rate`), in one
    /// transaction; a result sent twice with the same lease counts once. A ranked match also
    /// adds each seat's decision times to its version's.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn finish_match(
        &self,
        job: i64,
        lease: &str,
        worker: i64,
        now: i64,
        result: &NewMatch,
        rate: Rate<'_>,
    ) -> Result<Finish, StoreError> {
        let mut tx = self.write().await?;
        let finish = Self::complete(&mut tx, job, lease, now).await?;
        if finish != Finish::Counted(None) {
            tx.rollback().await?;
            return Ok(finish);
        }
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO matches (job_id, ranked, spec, record, log_hash, stderr_hashes, \
             worker_id, finished_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(job)
        .bind(i64::from(result.ranked))
        .bind(&result.spec)
        .bind(&result.record)
        .bind(&result.log_hash)
        .bind(&result.stderr_hashes)
        .bind(worker)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        // The seats' versions, locked in id order: two reports sharing versions then wait
        // for one another instead of deadlocking, and neither rates from a stale (μ, σ) nor
        // adds its times to stale ones. SQLite's transaction is the only writer already.
        let lock = match self.backend {
            Backend::Postgres => {
                "SELECT mu, sigma, times FROM versions WHERE id = $1 FOR NO KEY UPDATE"
            }
            Backend::Sqlite => "SELECT mu, sigma, times FROM versions WHERE id = $1",
        };
        let mut ratings = BTreeMap::new();
        let mut times = BTreeMap::new();
        for version in in_id_order(result.seats.iter().map(|s| s.version)) {
            let (mu, sigma, before): (f64, f64, Option<String>) = sqlx::query_as(lock)
                .bind(version)
                .fetch_one(&mut *tx)
                .await?;
            ratings.insert(version, (mu, sigma));
            times.insert(version, before);
        }
        if result.ranked {
            let before: Vec<(f64, f64)> =
                result.seats.iter().map(|s| ratings[&s.version]).collect();
            let ranks: Vec<u32> = result.seats.iter().map(|s| s.rank).collect();
            // In id order, as the versions were locked.
            let after: BTreeMap<i64, (&SeatResult, (f64, f64))> = result
                .seats
                .iter()
                .zip(rate(&before, &ranks))
                .map(|(s, rating)| (s.version, (s, rating)))
                .collect();
            for (n, s) in result.seats.iter().enumerate() {
                let (mu, sigma) = after[&s.version].1;
                insert_seat(&mut tx, id, n, s, Some((mu, sigma))).await?;
            }
            for (version, (seat, (mu, sigma))) in after {
                let times = added_times(times[&version].as_deref(), version, &result.seats)?;
                sqlx::query(
                    "UPDATE versions SET mu = $1, sigma = $2, ranked_matches = ranked_matches + 1, \
                     ranked_wins = ranked_wins + $3, ranked_faults = ranked_faults + $4, \
                     last_played = $5, times = $6 WHERE id = $7",
                )
                .bind(mu)
                .bind(sigma)
                .bind(i64::from(seat.rank == 1))
                .bind(seat.faults)
                .bind(now)
                .bind(times)
                .bind(version)
                .execute(&mut *tx)
                .await?;
            }
        } else {
            for (n, s) in result.seats.iter().enumerate() {
                insert_seat(&mut tx, id, n, s, None).await?;
            }
        }
        tx.commit().await?;
        Ok(Finish::Counted(Some(id)))
    }

    /// Match `id`.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn match_row(&self, id: i64) -> Result<Option<MatchRow>, StoreError> {
        let row = sqlx::query(match_select!("WHERE m.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(match_row).transpose()
    }

    /// The matches recorded from `from` to `to` (milliseconds, both included), by id.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn matches_between(&self, from: i64, to: i64) -> Result<Vec<MatchRow>, StoreError> {
        let rows = sqlx::query(match_select!(
            "WHERE m.finished_ms >= $1 AND m.finished_ms <= $2 ORDER BY m.id"
        ))
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(match_row).collect()
    }

    /// The last `limit` matches version `version` played, newest first.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn matches_of(&self, version: i64, limit: i64) -> Result<Vec<MatchRow>, StoreError> {
        let rows = sqlx::query(match_select!(
            "WHERE m.id IN (SELECT match_id FROM match_seats WHERE version_id = $1) \
             ORDER BY m.id DESC LIMIT $2"
        ))
        .bind(version)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(match_row).collect()
    }

    /// The last `limit` matches recorded, newest first.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn latest_matches(&self, limit: i64) -> Result<Vec<MatchRow>, StoreError> {
        let rows = sqlx::query(match_select!("ORDER BY m.id DESC LIMIT $1"))
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(match_row).collect()
    }

    /// The last `limit` matches account `account` asked for (its challenges), newest first.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn challenge_matches(
        &self,
        account: i64,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        let rows = sqlx::query(match_select!(
            "WHERE j.requested_by = $1 ORDER BY m.id DESC LIMIT $2"
        ))
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(match_row).collect()
    }

    /// How many matches account `account` asked for are still to be played.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn pending_challenges(&self, account: i64) -> Result<i64, StoreError> {
        let (count,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM jobs WHERE requested_by = $1 AND state IN ('queued', 'leased')",
        )
        .bind(account)
        .fetch_one(&self.pool)
        .await?;
        Ok(count)
    }

    /// How many matches are recorded.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn match_count(&self) -> Result<i64, StoreError> {
        let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM matches")
            .fetch_one(&self.pool)
            .await?;
        Ok(count)
    }
}

/// Records seat `seat` of match `id`: its result, and its version's rating after the match
/// (`rated`, a ranked match's).
async fn insert_seat(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    id: i64,
    seat: usize,
    result: &SeatResult,
    rated: Option<(f64, f64)>,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO match_seats (match_id, seat, version_id, score, rank, faults, mu_after, \
         sigma_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(seat as i64)
    .bind(result.version)
    .bind(result.score)
    .bind(i64::from(result.rank))
    .bind(result.faults)
    .bind(rated.map(|r| r.0))
    .bind(rated.map(|r| r.1))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Version `version`'s times as stored (`before`, JSON; `None` before its first match) with
/// the times of each of its seats in `seats` added, as JSON to store.
fn added_times(
    before: Option<&str>,
    version: i64,
    seats: &[SeatResult],
) -> Result<String, StoreError> {
    let mut times: TimeHistogram = match before {
        Some(json) => serde_json::from_str(json)
            .map_err(|e| StoreError::Corrupt(format!("version {version}'s times: {e}")))?,
        None => TimeHistogram::default(),
    };
    for seat in seats.iter().filter(|s| s.version == version) {
        times.merge(&seat.times);
    }
    Ok(serde_json::to_string(&times).expect("a histogram serializes (pairs of numbers)"))
}

/// `versions` once each, in ascending id order: the order every transaction that writes
/// several versions takes their rows in.
pub(super) fn in_id_order(versions: impl IntoIterator<Item = i64>) -> Vec<i64> {
    let mut ids: Vec<i64> = versions.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

impl Store {
    /// The largest match id (0 when none).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn last_match_id(&self) -> Result<i64, StoreError> {
        let (id,): (i64,) = sqlx::query_as("SELECT COALESCE(MAX(id), 0) FROM matches")
            .fetch_one(&self.pool)
            .await?;
        Ok(id)
    }
}
