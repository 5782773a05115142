//! Keeping matches going: the matchmaker's tables become match jobs, each with everything
//! needed to play it and to play it again.

use super::{Ladder, ServiceError, now_ms};
use crate::spec::{JobSpec, MatchSpec, REFEREE_VERSION, SeatSpec};
use crate::store::{JobKind, Version};

impl Ladder {
    /// Queues match jobs until `matchmaking.queue` are waiting or being played (none while
    /// paused); returns how many it queued.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn schedule(&self) -> Result<usize, ServiceError> {
        if self.paused().await? {
            return Ok(0);
        }
        let pending = self.store.pending_matches().await?;
        let want = self.config.matchmaking.queue as i64 - pending;
        if want <= 0 {
            return Ok(0);
        }
        let playable = self.store.playable().await?;
        let tables = interim_tables(&playable, want as usize, &self.config);
        let now = now_ms();
        let mut queued = 0;
        for table in tables {
            let group = self.store.take("group", 1).await?;
            let seed = engine::seed::derive(self.config.seed, "ladder-group", group as u64);
            let seats: Vec<&Version> = table.iter().map(|&i| &playable[i]).collect();
            let spec = self.match_spec(&seats, seed, true);
            let ids: Vec<i64> = seats.iter().map(|v| v.id).collect();
            let json =
                serde_json::to_string(&JobSpec::Match(spec)).map_err(std::io::Error::other)?;
            self.store
                .enqueue(JobKind::Match, &json, 0, None, &ids, now)
                .await?;
            queued += 1;
        }
        Ok(queued)
    }

    /// The spec of a match of `seats` (in seat order) with `seed`.
    pub(super) fn match_spec(&self, seats: &[&Version], seed: u64, ranked: bool) -> MatchSpec {
        MatchSpec {
            referee: REFEREE_VERSION.to_owned(),
            game: self.config.game.clone(),
            options: self.config.options.clone(),
            seed,
            seats: seats
                .iter()
                .map(|v| SeatSpec {
                    version: v.id,
                    owner: v.bot.owner.clone(),
                    artifact: v.artifact_hash.clone(),
                    bot: self
                        .config
                        .seat
                        .bot(&v.seat_name(), v.run_command.as_deref().unwrap_or_default()),
                })
                .collect(),
            max_faults: self.config.max_faults,
            policy: self.config.policy,
            sandbox: self.config.sandbox,
            ranked,
        }
    }
}

/// Interim tables (the matchmaking part replaces this): the versions seated least recently
/// first, never two of one owner at a table, tables of the largest size the field fills.
fn interim_tables(
    playable: &[Version],
    want: usize,
    config: &crate::config::LadderConfig,
) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..playable.len()).collect();
    order.sort_by_key(|&i| {
        (
            playable[i].last_seated.is_some(),
            playable[i].last_seated,
            i,
        )
    });
    let mut tables = Vec::new();
    let size = config.max_players.min(playable.len());
    if size < config.min_players {
        return tables;
    }
    let mut start = 0;
    while tables.len() < want && start < order.len() * 4 {
        let mut table: Vec<usize> = Vec::new();
        for k in 0..order.len() {
            let i = order[(start + k) % order.len()];
            let owner = &playable[i].bot.owner_id;
            if !table.iter().any(|&j| &playable[j].bot.owner_id == owner) {
                table.push(i);
            }
            if table.len() == size {
                break;
            }
        }
        if table.len() >= config.min_players {
            tables.push(table);
        }
        start += size;
    }
    tables
}
