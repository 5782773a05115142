//! A final tournament (the admin's): the last version of every bot in play, a round robin or a
//! sampled schedule of the tournament's own code, played as unranked match jobs by the ladder's
//! workers; read back as a tournament results directory ([`crate::export_final`]) for the
//! report and the grade sheet; its standings shown on the board beside the ladder's.

use super::{Ladder, ServiceError, now_ms, require};
use crate::export::ExportedMatch;
use crate::export_final::{FinalIdentity, export_final, final_board};
use crate::spec::JobSpec;
use crate::store::{Account, FinalMatch, FinalRow, JobKind, NewJob, Role, Version};
use referee::tournament::format::ScheduleSpec;
use referee::tournament::{FormatSpec, Leaderboard, ScheduleKind};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Final matches go after challenges and before ranked matches.
const FINAL_PRIORITY: i64 = 3;
/// The longest final tournament.
pub const FINAL_MATCHES: u64 = 100_000;

/// A final tournament as the admin asks for it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FinalRequest {
    /// `round-robin` (every table of the field in turn) or `sampled` (balanced random
    /// tables) [default: round-robin].
    pub schedule: Option<String>,
    /// Players per match [default: the ladder's largest table, at most the field].
    pub players: Option<usize>,
    /// Matches [default: one whole cycle of the schedule].
    pub matches: Option<u64>,
    /// Whether the matches of a group share their deal [default: the ladder's setting].
    pub duplicate: Option<bool>,
}

/// What the store keeps of a final: its identity and its versions' ids, in the field's order.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct FinalSpec {
    identity: FinalIdentity,
    versions: Vec<i64>,
}

/// One row of a final's standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FinalStanding {
    /// Its place (1 = best).
    pub rank: usize,
    /// The version (`BOT.vN`).
    pub version: String,
    /// Its bot.
    pub bot: String,
    /// Weng-Lin μ.
    pub mu: f64,
    /// Weng-Lin σ.
    pub sigma: f64,
    /// μ − 3σ, the order.
    pub conservative: f64,
    /// Matches played.
    pub matches: u64,
    /// Wins per match.
    pub win_rate: Option<f64>,
    /// Mean score over duplicate groups.
    pub mean_score: Option<f64>,
    /// Faults.
    pub faults: u64,
}

/// A final tournament as anyone sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FinalView {
    /// Its id.
    pub id: i64,
    /// Its format (`round-robin`, `sampled`).
    pub schedule: String,
    /// Players per match.
    pub players: usize,
    /// Matches in its schedule.
    pub matches: u64,
    /// Whether its groups share their deals.
    pub duplicate: bool,
    /// Matches played so far.
    pub played: u64,
    /// Matches whose jobs failed for good (the platform's; the admin may play them again).
    pub failed: i64,
    /// Whether every match is played (or failed for good): the standings are final.
    pub done: bool,
    /// When it started (ms since the epoch).
    pub started_ms: i64,
    /// The versions that play, in the schedule's order.
    pub field: Vec<String>,
    /// The standings, once done.
    pub standings: Vec<FinalStanding>,
}

/// A final just started.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FinalStarted {
    /// Its id.
    pub id: i64,
    /// Matches queued.
    pub matches: u64,
    /// The versions that play.
    pub field: Vec<String>,
}

fn bad(message: impl Into<String>) -> ServiceError {
    ServiceError::BadRequest(message.into())
}

fn corrupt(id: i64, e: impl std::fmt::Display) -> ServiceError {
    ServiceError::Store(crate::store::StoreError::Corrupt(format!(
        "final {id}'s spec ({e})"
    )))
}

fn spec_of(row: &FinalRow) -> Result<FinalSpec, ServiceError> {
    serde_json::from_str(&row.spec).map_err(|e| corrupt(row.id, e))
}

/// The rows of `board`.
fn standings_of(board: &Leaderboard) -> Vec<FinalStanding> {
    board
        .standings
        .iter()
        .map(|s| FinalStanding {
            rank: s.rank,
            version: s.bot.clone(),
            bot: crate::spec::parse_seat_name(&s.bot)
                .map_or_else(|| s.bot.clone(), |(bot, _)| bot.to_owned()),
            mu: s.mu,
            sigma: s.sigma,
            conservative: s.conservative,
            matches: s.matches,
            win_rate: s.win_rate,
            mean_score: s.mean_score,
            faults: s.fault_total(),
        })
        .collect()
}

impl Ladder {
    /// Starts a final tournament (the admin only) among the versions in play (the newest
    /// ready version of every bot not removed), queued as unranked matches for the workers.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin, [`ServiceError::Conflict`] while
    /// another final is being played, [`ServiceError::BadRequest`] for a schedule the field
    /// or the game does not allow.
    pub async fn start_final(
        &self,
        caller: &Account,
        request: &FinalRequest,
    ) -> Result<FinalStarted, ServiceError> {
        require(caller, Role::Admin)?;
        if let Some(last) = self.store.latest_final().await? {
            let (open, _) = self.store.final_jobs_open(last.id).await?;
            if open > 0 {
                return Err(ServiceError::Conflict(format!(
                    "final {} still has {open} matches to play",
                    last.id
                )));
            }
        }
        let schedule = match request.schedule.as_deref().unwrap_or("round-robin") {
            "round-robin" => ScheduleKind::RoundRobin,
            "sampled" => ScheduleKind::Sampled,
            other => {
                return Err(bad(format!(
                    "a final is round-robin or sampled, not {other:?}"
                )));
            }
        };
        let field: Vec<Version> = self.store.playable().await?;
        let players = request
            .players
            .unwrap_or(self.config.max_players)
            .min(field.len());
        let counts = engine::GameKind::from_name(&self.config.game)
            .map(|game| engine::with_game!(game, G => engine::PlayerCounts::of::<G>()))
            .map_err(|e| bad(e.to_string()))?;
        if field.len() < 2 || !counts.contains(players) {
            return Err(bad(format!(
                "{counts}; a final of {} versions in play at {players} per match cannot be",
                field.len()
            )));
        }
        let duplicate = request
            .duplicate
            .unwrap_or(self.config.matchmaking.duplicate);
        let number = self.store.take("final", 1).await?;
        let seed = engine::seed::derive(self.config.seed, "final", number as u64);
        let format = FormatSpec::from(schedule).format();
        let mut spec = ScheduleSpec {
            bots: field.len(),
            players,
            matches: 0,
            seed,
            duplicate,
            candidate: 0,
        };
        spec.matches = request
            .matches
            .unwrap_or_else(|| format.cycle_length(&spec));
        if spec.matches == 0 || spec.matches > FINAL_MATCHES {
            return Err(bad(format!(
                "a final plays 1 to {FINAL_MATCHES} matches; this one would play {}",
                spec.matches
            )));
        }
        let identity = FinalIdentity {
            schedule,
            players,
            matches: spec.matches,
            seed,
            duplicate,
            field: field
                .iter()
                .map(|v| {
                    self.config
                        .seat
                        .bot(&v.seat_name(), v.run_command.as_deref().unwrap_or_default())
                })
                .collect(),
        };
        let stored = FinalSpec {
            identity,
            versions: field.iter().map(|v| v.id).collect(),
        };
        let json = serde_json::to_string(&stored).map_err(std::io::Error::other)?;
        let now = now_ms();
        let id = self.store.add_final(&json, now).await?;
        let scheduled = format.schedule(&spec);
        let groups = scheduled.iter().map(|m| m.group + 1).max().unwrap_or(0);
        // Each group a deal of the ladder's own: its play is withheld until it is played out.
        let first_deal = self.store.take("group", groups as i64).await?;
        for m in &scheduled {
            let seats: Vec<&Version> = m.seats.iter().map(|&i| &field[i]).collect();
            let spec = self.match_spec(&seats, m.seed, false, m.group);
            let spec =
                serde_json::to_string(&JobSpec::Match(spec)).map_err(std::io::Error::other)?;
            self.store
                .enqueue(
                    &NewJob {
                        priority: FINAL_PRIORITY,
                        deal: Some(first_deal + m.group as i64),
                        final_match: Some(FinalMatch {
                            final_id: id,
                            index: m.id as i64,
                        }),
                        ..NewJob::new(JobKind::Match, &spec)
                    },
                    now,
                )
                .await?;
        }
        Ok(FinalStarted {
            id,
            matches: scheduled.len() as u64,
            field: field.iter().map(Version::seat_name).collect(),
        })
    }

    /// The matches of final `row` so far (the last played of each of its schedule's ids),
    /// with their logs and stderr if `files`.
    async fn final_matches_so_far(
        &self,
        row: &FinalRow,
        files: bool,
    ) -> Result<Vec<ExportedMatch>, ServiceError> {
        let mut last: std::collections::BTreeMap<i64, crate::store::MatchRow> =
            std::collections::BTreeMap::new();
        for (index, m) in self.store.final_matches(row.id).await? {
            last.insert(index, m);
        }
        let mut played = Vec::with_capacity(last.len());
        for (index, m) in &last {
            played.push(self.exported(m, *index as u64, files).await?);
        }
        Ok(played)
    }

    /// The last final tournament, if any, as anyone sees it; its standings are computed (and
    /// kept) once its last match is in.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn final_view(&self) -> Result<Option<FinalView>, ServiceError> {
        let Some(mut row) = self.store.latest_final().await? else {
            return Ok(None);
        };
        let spec = spec_of(&row)?;
        let (open, failed) = self.store.final_jobs_open(row.id).await?;
        let played = self.store.final_played(row.id).await?;
        let done = open == 0;
        if done && row.standings.is_none() {
            let matches = self.final_matches_so_far(&row, false).await?;
            let standings = if matches.is_empty() {
                Vec::new()
            } else {
                let board =
                    final_board(&matches, &spec.identity).map_err(|e| corrupt(row.id, e))?;
                standings_of(&board)
            };
            let json = serde_json::to_string(&standings).map_err(std::io::Error::other)?;
            self.store.set_final_standings(row.id, &json).await?;
            row.standings = Some(json);
        }
        let standings = match &row.standings {
            Some(json) => serde_json::from_str(json).map_err(|e| corrupt(row.id, e))?,
            None => Vec::new(),
        };
        let identity = &spec.identity;
        Ok(Some(FinalView {
            id: row.id,
            schedule: serde_json::to_value(identity.schedule)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            players: identity.players,
            matches: identity.matches,
            duplicate: identity.duplicate,
            played: played as u64,
            failed,
            done,
            started_ms: row.created_ms,
            field: identity.field.iter().map(|b| b.name.clone()).collect(),
            standings,
        }))
    }

    /// Writes the last final tournament's matches so far, with their logs, stderr and each
    /// version's `referee check` verdict (`checks/`, for the grade sheet), as a tournament
    /// results directory `out`. The admin's (it is called with the ladder's home).
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] without a final, [`ServiceError::BadRequest`] when it
    /// cannot be exported (no match yet, `out` holds a tournament).
    pub async fn export_final_dir(&self, out: &Path) -> Result<FinalView, ServiceError> {
        let row = self
            .store
            .latest_final()
            .await?
            .ok_or_else(|| ServiceError::NotFound("no final tournament".into()))?;
        let spec = spec_of(&row)?;
        let matches = self.final_matches_so_far(&row, true).await?;
        export_final(&matches, &spec.identity, out).map_err(|e| bad(e.to_string()))?;
        let dir = referee::safe_fs::SafeDir::open(out).map_err(std::io::Error::other)?;
        let checks = dir
            .make_subdir(referee::report::grades::CHECKS_DIR)
            .map_err(std::io::Error::other)?;
        for id in &spec.versions {
            let Some(version) = self.store.version(*id).await? else {
                continue;
            };
            if let Some(report) = &version.check_report {
                use std::io::Write;
                checks
                    .create_file(&format!("{}.json", version.seat_name()))
                    .map_err(std::io::Error::other)?
                    .write_all(report.as_bytes())?;
            }
        }
        self.final_view()
            .await?
            .ok_or_else(|| ServiceError::NotFound("no final tournament".into()))
    }

    /// The last final tournament as a results directory with its report and grade sheet,
    /// packed in a `.tar.gz` (the admin only).
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin; as [`Ladder::export_final_dir`].
    pub async fn final_archive(&self, caller: &Account) -> Result<Vec<u8>, ServiceError> {
        require(caller, Role::Admin)?;
        let dir = self
            .scratch
            .join(format!("final-{}", crate::auth::new_lease()));
        let out = dir.join("out");
        let packed = async {
            self.export_final_dir(&out).await?;
            crate::artifacts::pack_dir(&out).map_err(|e| ServiceError::Io(std::io::Error::other(e)))
        }
        .await;
        let _ = std::fs::remove_dir_all(&dir);
        packed
    }

    /// The last final tournament's grade sheet (`grades.csv`, as `referee leaderboard DIR
    /// --format csv --grades` prints it), the admin only.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin; as [`Ladder::export_final_dir`].
    pub async fn final_grades(&self, caller: &Account) -> Result<String, ServiceError> {
        require(caller, Role::Admin)?;
        let dir = self
            .scratch
            .join(format!("grades-{}", crate::auth::new_lease()));
        let out = dir.join("out");
        let sheet = async {
            self.export_final_dir(&out).await?;
            let back =
                referee::tournament::results::read_back(&out).map_err(|e| bad(e.to_string()))?;
            let board = referee::tournament::leaderboard(&back.meta, &back.results)
                .map_err(|e| bad(e.to_string()))?;
            Ok::<_, ServiceError>(referee::report::grades::grade_sheet(
                &back.dir, &board, None,
            ))
        }
        .await;
        let _ = std::fs::remove_dir_all(&dir);
        sheet
    }
}
