//! A window of the ladder as a tournament's results directory ([`crate::export`]): the matches
//! recorded between two times, with their logs and stderr, for `leaderboard`, `report` and
//! `merge` (a class's final standings are then the tournament's own code).

use super::{Ladder, ServiceError};
use crate::export::{Exported, ExportedMatch, export};

impl Ladder {
    /// Writes the matches recorded from `from` to `to` (ms since the epoch, both included)
    /// as a results directory `out`. The admin's (it is called with the ladder's home).
    ///
    /// # Errors
    /// [`ServiceError::BadRequest`] when the window cannot be exported (none in it, `out`
    /// holds a tournament), [`ServiceError::Store`].
    pub async fn export_window(
        &self,
        from: i64,
        to: i64,
        out: &std::path::Path,
    ) -> Result<Exported, ServiceError> {
        let rows = self.store.matches_between(from, to).await?;
        let mut matches = Vec::with_capacity(rows.len());
        for row in &rows {
            matches.push(self.exported(row, row.id as u64, true).await?);
        }
        let ladder = crate::export::Ladder {
            players: self.config.max_players,
            matches: self.store.last_match_id().await? as u64 + 1,
            seed: self.config.seed,
            duplicate: self.config.matchmaking.duplicate,
        };
        export(&matches, &ladder, out).map_err(|e| ServiceError::BadRequest(e.to_string()))
    }
}

impl Ladder {
    /// Match `row` as an export holds it, under id `id`: its spec, record and, with `files`,
    /// its log and stderr.
    ///
    /// # Errors
    /// [`ServiceError::Store`] for a row that does not read, [`ServiceError::Artifact`].
    pub(super) async fn exported(
        &self,
        row: &crate::store::MatchRow,
        id: u64,
        files: bool,
    ) -> Result<ExportedMatch, ServiceError> {
        let (spec, record) = super::matches_view::parsed(row)?;
        if !files {
            return Ok(ExportedMatch {
                id,
                group: spec.group,
                log: None,
                spec,
                record,
                stderr: Vec::new(),
            });
        }
        let hashes: Vec<Option<String>> =
            serde_json::from_str(&row.stderr_hashes).map_err(|e| {
                crate::store::StoreError::Corrupt(format!("match {}'s stderr ({e})", row.id))
            })?;
        let mut stderr = Vec::new();
        for (seat, hash) in spec.seats.iter().zip(&hashes) {
            if let Some(hash) = hash {
                stderr.push((seat.bot.name.clone(), self.artifacts.read(hash)?));
            }
        }
        Ok(ExportedMatch {
            id,
            group: spec.group,
            log: Some(self.artifacts.read(&row.log_hash)?),
            spec,
            record,
            stderr,
        })
    }

    /// The matches recorded from `from` to `to` as a results directory packed in a
    /// `.tar.gz` (the admin only): `referee ladder export --server` unpacks it.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin; as [`Ladder::export_window`].
    pub async fn export_archive(
        &self,
        caller: &crate::store::Account,
        from: i64,
        to: i64,
    ) -> Result<Vec<u8>, ServiceError> {
        super::require(caller, crate::store::Role::Admin)?;
        let dir = self
            .scratch
            .join(format!("export-{}", crate::auth::new_lease()));
        let out = dir.join("out");
        let packed = async {
            self.export_window(from, to, &out).await?;
            crate::artifacts::pack_dir(&out).map_err(|e| ServiceError::Io(std::io::Error::other(e)))
        }
        .await;
        let _ = std::fs::remove_dir_all(&dir);
        packed
    }
}
