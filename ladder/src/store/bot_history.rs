//! A bot's history across its versions, for its page: its rating after each ranked match, and
//! how it fared against every bot it met.

use super::{Store, StoreError};
use sqlx::Row;

/// A bot's rating after one of its ranked matches.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    /// The match.
    pub match_id: i64,
    /// When it was recorded (ms since the epoch).
    pub finished_ms: i64,
    /// The version that played it.
    pub version: i64,
    /// Its μ after the match.
    pub mu: f64,
    /// Its σ after the match.
    pub sigma: f64,
}

/// How a bot fared against another across all their matches together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meetings {
    /// The other bot.
    pub opponent: String,
    /// Its owner.
    pub owner: String,
    /// Matches they sat in together.
    pub matches: i64,
    /// Of those, the ones the bot finished ahead of it.
    pub ahead: i64,
    /// And behind it.
    pub behind: i64,
}

impl Store {
    /// Bot `bot`'s rating after each of its last `limit` ranked matches (recorded since the
    /// ratings have been kept per match), oldest first.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn rating_history(
        &self,
        bot: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.finished_ms, v.number, s.mu_after, s.sigma_after \
             FROM match_seats s JOIN matches m ON m.id = s.match_id \
             JOIN versions v ON v.id = s.version_id JOIN bots b ON b.id = v.bot_id \
             WHERE b.name = $1 AND m.ranked = 1 AND s.mu_after IS NOT NULL \
             ORDER BY m.id DESC LIMIT $2",
        )
        .bind(bot)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut points = rows
            .iter()
            .map(|row| {
                Ok(RatingPoint {
                    match_id: row.try_get(0)?,
                    finished_ms: row.try_get(1)?,
                    version: row.try_get(2)?,
                    mu: row.try_get(3)?,
                    sigma: row.try_get(4)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        points.reverse();
        Ok(points)
    }

    /// How bot `bot` fared against every bot it sat with, by the other's name.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn meetings(&self, bot: &str) -> Result<Vec<Meetings>, StoreError> {
        let rows = sqlx::query(
            "SELECT ob.name, oa.name, COUNT(*), \
             SUM(CASE WHEN s.rank < o.rank THEN 1 ELSE 0 END), \
             SUM(CASE WHEN s.rank > o.rank THEN 1 ELSE 0 END) \
             FROM match_seats s JOIN versions v ON v.id = s.version_id \
             JOIN bots b ON b.id = v.bot_id \
             JOIN match_seats o ON o.match_id = s.match_id AND o.seat <> s.seat \
             JOIN versions ov ON ov.id = o.version_id JOIN bots ob ON ob.id = ov.bot_id \
             JOIN accounts oa ON oa.id = ob.owner_id \
             WHERE b.name = $1 GROUP BY ob.name, oa.name ORDER BY ob.name",
        )
        .bind(bot)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Meetings {
                    opponent: row.try_get(0)?,
                    owner: row.try_get(1)?,
                    matches: row.try_get(2)?,
                    ahead: row.try_get(3)?,
                    behind: row.try_get(4)?,
                })
            })
            .collect()
    }
}
