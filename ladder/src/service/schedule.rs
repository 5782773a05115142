//! Keeping matches going: the matchmaker's tables ([`matchmaker::plan`](crate::matchmaker::plan))
//! become match jobs, each with everything needed to play it and to play it again.

use super::{Ladder, ServiceError, now_ms};
use crate::matchmaker::{Candidate, PlannedMatch, RecentTable, Request, plan, sizes};
use crate::spec::{JobSpec, MatchSpec, REFEREE_VERSION, SeatSpec};
use crate::store::{JobKind, NewJob, Version};
use std::collections::BTreeMap;

impl Ladder {
    /// Queues match jobs until `matchmaking.queue` are waiting or being played (none while
    /// paused); returns how many it queued.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn schedule(&self) -> Result<usize, ServiceError> {
        if self.paused().await? || self.frozen().await? {
            return Ok(0);
        }
        let pending = self.store.pending_matches().await?;
        let free = self.config.matchmaking.queue as i64 - pending;
        if free <= 0 {
            return Ok(0);
        }
        let game = engine::GameKind::from_name(&self.config.game)
            .map_err(|e| ServiceError::BadRequest(e.to_string()))?;
        let counts = engine::with_game!(game, G => engine::PlayerCounts::of::<G>());
        let players = self.config.min_players..=self.config.max_players;
        let smallest = *sizes(&players, &counts).start();
        let per_table = if self.config.matchmaking.duplicate {
            smallest
        } else {
            1
        };
        let tables = (free as usize).div_ceil(per_table.max(1));
        let playable = self.store.playable().await?;
        let by_id: BTreeMap<i64, &Version> = playable.iter().map(|v| (v.id, v)).collect();
        let candidates: Vec<Candidate> = playable
            .iter()
            .map(|v| Candidate {
                version: v.id,
                owner: v.bot.owner.clone(),
                mu: v.mu,
                sigma: v.sigma,
                last_played: v.last_seated,
                is_new: v.last_seated.is_none(),
            })
            .collect();
        let now = now_ms();
        let window = (self.config.matchmaking.repeat_s * 1000) as i64;
        let recent: Vec<RecentTable> = self
            .store
            .recent_matches(now - window)
            .await?
            .into_iter()
            .filter_map(|(at, spec)| match serde_json::from_str(&spec) {
                Ok(JobSpec::Match(spec)) => {
                    let mut versions: Vec<i64> = spec.seats.iter().map(|s| s.version).collect();
                    versions.sort_unstable();
                    Some(RecentTable { versions, at })
                }
                _ => None,
            })
            .collect();
        let next_group = self.store.take("group", tables as i64).await? as u64;
        let planned = plan(&Request {
            candidates: &candidates,
            recent: &recent,
            now,
            players,
            counts,
            settings: &self.config.matchmaking,
            seed: self.config.seed,
            next_group,
            tables,
        });
        for PlannedMatch { seats, group, seed } in &planned {
            let seated: Vec<&Version> = seats
                .iter()
                .filter_map(|id| by_id.get(id).copied())
                .collect();
            let spec = self.match_spec(&seated, *seed, true, *group);
            let json =
                serde_json::to_string(&JobSpec::Match(spec)).map_err(std::io::Error::other)?;
            self.store
                .enqueue(
                    &NewJob {
                        seated: seats,
                        deal: Some(*group as i64),
                        ..NewJob::new(JobKind::Match, &json)
                    },
                    now,
                )
                .await?;
        }
        Ok(planned.len())
    }

    /// The spec of a match of `seats` (in seat order) with `seed`, of duplicate group `group`.
    pub(super) fn match_spec(
        &self,
        seats: &[&Version],
        seed: u64,
        ranked: bool,
        group: u64,
    ) -> MatchSpec {
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
            group,
        }
    }
}
