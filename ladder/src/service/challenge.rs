//! Challenges: an owner asks for unranked matches of one of its versions against named bots
//! or versions. They go before the ranked matches in the queue and move no rating.

use super::{Ladder, ServiceError, now_ms, require};
use crate::spec::JobSpec;
use crate::store::{Account, JobKind, NewJob, Role, Version, VersionState};
use serde::{Deserialize, Serialize};

/// The most matches one challenge may ask for.
pub const CHALLENGE_MATCHES: u32 = 100;
/// Challenges go after builds and before ranked matches.
const CHALLENGE_PRIORITY: i64 = 5;

/// A challenge as asked.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChallengeRequest {
    /// The caller's bot.
    pub bot: String,
    /// Its version [default: its newest ready one].
    pub version: Option<i64>,
    /// The opponents: bots (their newest ready version) or versions (`BOT.vN`).
    pub opponents: Vec<String>,
    /// Matches to play (each seating rotated, the deal shared by each rotation).
    pub matches: u32,
}

/// The jobs a challenge queued.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChallengeQueued {
    /// The match jobs, in order.
    pub jobs: Vec<i64>,
    /// The seats of the first, by seat name.
    pub table: Vec<String>,
}

impl Ladder {
    /// The version `name` names: `BOT.vN`, or `BOT` for its newest ready version.
    async fn named_version(&self, name: &str) -> Result<Version, ServiceError> {
        let missing = || ServiceError::NotFound(format!("no ready version '{name}'"));
        let version = match crate::spec::parse_seat_name(name) {
            Some((bot, Some(n))) => self.store.version_of(bot, n).await?,
            Some((_, None)) => None,
            None => self
                .store
                .versions_of(name)
                .await?
                .into_iter()
                .rfind(|v| v.state == VersionState::Ready),
        };
        version
            .filter(|v| v.state == VersionState::Ready && !v.removed && !v.bot.removed)
            .ok_or_else(missing)
    }

    /// Owner `caller` challenges: `request.matches` unranked matches of its version against
    /// the opponents named, seats rotated from match to match.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for a bot not the caller's, [`ServiceError::NotFound`] for
    /// a version not ready, [`ServiceError::BadRequest`] for a table the game does not allow
    /// or too many matches.
    pub async fn challenge(
        &self,
        caller: &Account,
        request: &ChallengeRequest,
    ) -> Result<ChallengeQueued, ServiceError> {
        require(caller, Role::Owner)?;
        if request.matches == 0 || request.matches > CHALLENGE_MATCHES {
            return Err(ServiceError::BadRequest(format!(
                "a challenge asks for 1 to {CHALLENGE_MATCHES} matches"
            )));
        }
        let own = match request.version {
            Some(n) => format!("{}.v{n}", request.bot),
            None => request.bot.clone(),
        };
        let mine = self.named_version(&own).await?;
        if mine.bot.owner_id != caller.id && caller.role != Role::Admin {
            return Err(ServiceError::Forbidden(format!(
                "the bot '{}' is another owner's",
                request.bot
            )));
        }
        let mut table = vec![mine];
        for name in &request.opponents {
            let version = self.named_version(name).await?;
            if table.iter().any(|v| v.id == version.id) {
                return Err(ServiceError::BadRequest(format!(
                    "'{name}' is at the table already"
                )));
            }
            table.push(version);
        }
        let counts = engine::GameKind::from_name(&self.config.game)
            .map(|game| engine::with_game!(game, G => engine::PlayerCounts::of::<G>()))
            .map_err(|e| ServiceError::BadRequest(e.to_string()))?;
        if !counts.contains(table.len()) {
            return Err(ServiceError::BadRequest(format!(
                "{counts}; this table has {}",
                table.len()
            )));
        }
        let group = self.store.take("group", 1).await?;
        let now = now_ms();
        let mut jobs = Vec::new();
        let mut first_table = Vec::new();
        let mut deal_of_round = group;
        for m in 0..request.matches as usize {
            // Each rotation of the table plays the same deal; each round a new one.
            let rotation = m % table.len();
            let round = m / table.len();
            let seats: Vec<&Version> = (0..table.len())
                .map(|s| &table[(s + rotation) % table.len()])
                .collect();
            if m == 0 {
                first_table = seats.iter().map(|v| v.seat_name()).collect();
            }
            let deal = if round == 0 {
                group
            } else if rotation == 0 {
                self.store.take("group", 1).await?
            } else {
                deal_of_round
            };
            deal_of_round = deal;
            let seed = engine::seed::derive(self.config.seed, "ladder-challenge", deal as u64);
            let spec = self.match_spec(&seats, seed, false, deal as u64);
            let json =
                serde_json::to_string(&JobSpec::Match(spec)).map_err(std::io::Error::other)?;
            let id = self
                .store
                .enqueue(
                    &NewJob {
                        priority: CHALLENGE_PRIORITY,
                        requested_by: Some(caller.id),
                        deal: Some(deal),
                        ..NewJob::new(JobKind::Match, &json)
                    },
                    now,
                )
                .await?;
            jobs.push(id);
        }
        Ok(ChallengeQueued {
            jobs,
            table: first_table,
        })
    }
}

/// An owner's challenges: the matches it asked for, played and to be played.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChallengesView {
    /// Matches asked for and still to be played.
    pub pending: i64,
    /// The last matches played of them, newest first.
    pub played: Vec<super::MatchView>,
}

/// Challenge matches listed.
const CHALLENGES_SHOWN: i64 = 50;

impl Ladder {
    /// The challenges of `caller` (its own only).
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for a worker.
    pub async fn challenges_of(&self, caller: &Account) -> Result<ChallengesView, ServiceError> {
        if caller.role == Role::Worker {
            return Err(ServiceError::Forbidden(
                "a worker's token asks for no challenge".into(),
            ));
        }
        let rows = self
            .store
            .challenge_matches(caller.id, CHALLENGES_SHOWN)
            .await?;
        Ok(ChallengesView {
            pending: self.store.pending_challenges(caller.id).await?,
            played: rows
                .iter()
                .map(super::matches_view::view_of)
                .collect::<Result<_, _>>()?,
        })
    }
}
