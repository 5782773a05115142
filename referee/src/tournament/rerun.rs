//! Playing one match of a tournament again (`referee rerun DIR ID`): the same bots (commands,
//! time controls, resource limits, working directories, environments), options, seed and
//! seats, from the results directory alone, and whether its result equals the recorded one.

use super::rerun_diff::{LogComparison, RecordedLog, compare};
use super::rerun_from::RunFrom;
use super::results::{MatchResult, ReadBack, ResultsError, TournamentMeta, read_back};
use super::run_record::RunRecord;
use crate::policy::{BotProcesses, PolicyError, ProcessPolicy};
use crate::runner::{MatchLog, MatchRecord, MatchSettings, RunError, play_once};
use crate::safe_fs::SafeDir;
use crate::seat::{BotSpec, BotSpecError, ProcessOptions};
use engine::shared_rules::options_from_json;
use engine::{Game, GameKind, SetupError, UnknownGame};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a match cannot be played again.
#[derive(Debug, thiserror::Error)]
pub enum RerunError {
    /// The directory cannot be read as a tournament's results.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// No such match in the schedule.
    #[error("{dir} has no match {id}: its {matches} matches are numbered 0 to {last}")]
    UnknownMatch {
        /// The results directory.
        dir: PathBuf,
        /// The id asked for.
        id: u64,
        /// Matches in its schedule.
        matches: u64,
        /// The last id.
        last: u64,
    },
    /// A scheduled match that has no result yet.
    #[error(
        "match {id} of {dir} has not been played: it is scheduled, but matches.jsonl has no line for it (resume the tournament, or rerun a match it played)"
    )]
    NotPlayed {
        /// The results directory.
        dir: PathBuf,
        /// The match.
        id: u64,
    },
    /// The game is not one this referee has.
    #[error(transparent)]
    Game(#[from] UnknownGame),
    /// The options are not the game's ([`SetupError::Options`]).
    #[error(transparent)]
    Options(SetupError),
    /// A bot cannot be started as recorded (its command is gone, or not executable here).
    #[error(transparent)]
    Bot(#[from] BotSpecError),
    /// The bots' processes cannot be run as the policy asks.
    #[error(transparent)]
    Policy(#[from] Box<PolicyError>),
    /// The referee failed while playing (the log could not be written).
    #[error(transparent)]
    Run(#[from] RunError),
}

impl RerunError {
    /// Whether the error is in the caller's input (rather than a failure while playing).
    pub fn is_usage(&self) -> bool {
        !matches!(self, RerunError::Run(_))
    }
}

/// A match to play again, as its results directory records it.
#[derive(Clone, Debug)]
pub struct RerunPlan {
    /// The tournament.
    pub meta: TournamentMeta,
    /// The match as it was recorded.
    pub recorded: MatchResult,
    /// Its bots, in seat order.
    pub bots: Vec<BotSpec>,
    /// How the tournament's last run was run, where recorded.
    pub run: Option<RunRecord>,
    /// Where its bots run from: the directory the tournament ran in, where it can be.
    pub from: RunFrom,
    /// The match's log as it was kept (`logs/ID.jsonl`), to find where the match played
    /// again first differs: play it into a [`MatchLog::memory`] to compare.
    pub log: RecordedLog,
}

/// Reads match `id` of the results directory `dir`.
///
/// # Errors
/// [`RerunError`] for a directory that is not a tournament's, an id outside its schedule, a
/// match not played yet, or a bot whose recorded command cannot be split.
pub fn plan(dir: &Path, id: u64) -> Result<RerunPlan, RerunError> {
    let ReadBack {
        dir: opened,
        meta,
        results,
    } = read_back(dir)?;
    if id >= meta.matches {
        return Err(RerunError::UnknownMatch {
            dir: dir.to_path_buf(),
            id,
            matches: meta.matches,
            last: meta.matches.saturating_sub(1),
        });
    }
    let recorded = results.get(&id).cloned().ok_or(RerunError::NotPlayed {
        dir: dir.to_path_buf(),
        id,
    })?;
    let run = RunRecord::read(&opened)?;
    let bots = recorded
        .record
        .players
        .iter()
        .map(|name| {
            let bot = meta
                .bots
                .iter()
                .find(|b| &b.name == name)
                .expect("read_back found every player in the field");
            bot.spec(run.as_ref().and_then(|r| r.bots.get(name)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let from = RunFrom::of(run.as_ref());
    let log = RecordedLog::read(&opened, id, &recorded.record);
    Ok(RerunPlan {
        meta,
        recorded,
        bots,
        run,
        from,
        log,
    })
}

/// What the match gave when played again, and how it compares with the record.
#[derive(Clone, Debug, PartialEq)]
pub struct Rerun {
    /// The new result.
    pub record: MatchRecord,
    /// Which parts of it equal the recorded ones.
    pub comparison: Comparison,
    /// Where it first differs from the recorded log, when one was kept and the match was
    /// played into memory.
    pub log: LogComparison,
}

impl Rerun {
    /// Whether the match played again is the recorded one: the same scores, ranks and
    /// faults, and, where its log was kept, the same decisions.
    pub fn same(&self) -> bool {
        self.comparison.same() && !matches!(self.log, LogComparison::Differs(_))
    }
}

/// Which parts of a match played again equal the recorded ones. Timings are never compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Comparison {
    /// The scores, by seat.
    pub scores: bool,
    /// The ranks, by seat.
    pub ranks: bool,
    /// The faults, in order: each one's seat, decision and kind.
    pub faults: bool,
    /// The faults' messages too (they may quote timings or the bot's stderr, so they are not
    /// part of [`Comparison::same`]).
    pub messages: bool,
}

impl Comparison {
    /// Compares a match played again (`now`) with its record.
    pub fn of(recorded: &MatchRecord, now: &MatchRecord) -> Self {
        let key = |r: &MatchRecord| -> Vec<_> {
            r.faults
                .iter()
                .map(|f| (f.seat, f.decision, f.fault))
                .collect()
        };
        fn messages(r: &MatchRecord) -> Vec<&str> {
            r.faults.iter().map(|f| f.message.as_str()).collect()
        }
        Comparison {
            scores: recorded.scores == now.scores && recorded.is_void() == now.is_void(),
            ranks: recorded.ranks == now.ranks,
            faults: key(recorded) == key(now),
            messages: messages(recorded) == messages(now),
        }
    }

    /// Whether the scores, ranks and faults are the recorded ones.
    pub fn same(&self) -> bool {
        self.scores && self.ranks && self.faults
    }
}

impl RerunPlan {
    /// Checks, before any bot starts, that the match can be played here: the game and its
    /// options, and each bot's command (found from where the bots run from, [`RerunPlan::from`],
    /// or its working directory).
    ///
    /// # Errors
    /// [`RerunError::Game`], [`RerunError::Options`] or [`RerunError::Bot`].
    pub fn check(&self) -> Result<(), RerunError> {
        let kind = GameKind::from_name(&self.meta.game)?;
        engine::with_game!(kind, G => self.prepared::<G>().map(drop))
    }

    fn prepared<G: Game>(&self) -> Result<G::Options, RerunError> {
        self.from.check_bots::<G>(&self.bots)?;
        options_from_json::<G>(&self.meta.options).map_err(RerunError::Options)
    }

    /// Resolves `policy` for the plan's bots, with `outputs` (what the rerun writes) hidden from
    /// them: their workdirs admitted as the policy's source says and made absolute, the bots
    /// run from [`RerunPlan::from`] unless the policy says where. Changes nothing on a
    /// refusal.
    ///
    /// # Errors
    /// [`RerunError::Policy`] when the policy refuses.
    pub fn resolve(
        &mut self,
        policy: &ProcessPolicy,
        outputs: &[PathBuf],
    ) -> Result<BotProcesses, RerunError> {
        Ok(self.from.resolve(policy, &mut self.bots, outputs)?)
    }

    /// Plays the match again with `process` (as [`RerunPlan::resolve`] gave them), saving each
    /// bot's stderr to `NAME.stderr` of `stderr_dir` if given (made by the caller, private:
    /// [`SafeDir::create`]) and writing the log to `log` (into memory, [`MatchLog::memory`], to
    /// compare it with the recorded one, [`Rerun::log`]). Must be called inside a Tokio
    /// runtime; every bot process is stopped when it returns. Bots run from where
    /// `process` says ([`ProcessOptions::dir`], or their workdirs).
    ///
    /// # Errors
    /// [`RerunError`] as [`RerunPlan::check`], or a failure of the referee while playing.
    pub async fn play(
        &self,
        process: &ProcessOptions,
        stderr_dir: Option<&Arc<SafeDir>>,
        log: &mut MatchLog,
    ) -> Result<Rerun, RerunError> {
        let kind = GameKind::from_name(&self.meta.game)?;
        engine::with_game!(kind, G => self.play_game::<G>(process, stderr_dir, log).await)
    }

    async fn play_game<G: Game>(
        &self,
        process: &ProcessOptions,
        stderr_dir: Option<&Arc<SafeDir>>,
        log: &mut MatchLog,
    ) -> Result<Rerun, RerunError> {
        let options = self.prepared::<G>()?;
        let settings = MatchSettings {
            match_id: self.recorded.id.to_string(),
            seed: self.recorded.record.seed,
            max_faults: self.meta.max_faults,
            policy: self.meta.policy,
        };
        let record =
            play_once::<G>(&self.bots, &options, process, stderr_dir, &settings, log).await?;
        Ok(Rerun {
            comparison: Comparison::of(&self.recorded.record, &record),
            log: compare(&self.log, log.records(), &self.recorded.record.players),
            record,
        })
    }
}
