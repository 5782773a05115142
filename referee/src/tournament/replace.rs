//! Replacing a bot in a finished tournament (`referee tournament DIR --replace NAME=COMMAND`):
//! the matches the bot played are played again with the new command — the same seeds, seats
//! and settings (time control and resource limits as recorded for the bot) — every other match
//! is kept as it is, with its stderr and log ([`Carry`]), and all of it goes to a new results
//! directory whose `tournament.json` records the new command. The old directory is only read.
//!
//! The new command comes from the command line and is trusted as a new tournament's bot; the
//! other bots are the recorded ones, taken from the directory as `referee rerun` takes them
//! (their commands, workdirs and environments from `run.json`, run from where the tournament
//! ran), under the same review ([`review`]).

use super::carry::{Carry, Skipped, carry_verdicts};
use super::files::{LOGS_DIR, STDERR_DIR};
use super::format::ScheduledMatch;
use super::match_result::MatchResult;
use super::meta::TournamentMeta;
use super::pool::PoolSettings;
use super::progress::Tally;
use super::report::{Outcome, Reporter, Started};
use super::rerun_from::RunFrom;
use super::rerun_trust::{Review, Trust, review, same_dir};
use super::results::{ReadBack, ResultsFile, made_private, read_back};
use super::results_error::ResultsError;
use super::run::play_into;
use super::run_record::RunRecord;
use crate::policy::{BotProcesses, PolicyError, ProcessPolicy};
use crate::runner::RunError;
use crate::safe_fs::{Privacy, SafeDir};
use crate::seat::{BotSpec, BotSpecError, ProcessOptions};
use engine::shared_rules::options_from_json;
use engine::{Game, GameKind, SetupError, UnknownGame};
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a bot cannot be replaced.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    /// The directory cannot be read as a tournament's results, or the new one written.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// No bot of that name.
    #[error("--replace {name}=...: {dir} has no bot '{name}'; its bots: {bots}")]
    UnknownBot {
        /// The results directory.
        dir: PathBuf,
        /// The name given.
        name: String,
        /// Its bots' names.
        bots: String,
    },
    /// A bot named twice.
    #[error("--replace {0}=... is given twice: one --replace per bot")]
    Twice(String),
    /// The new directory is the old one.
    #[error(
        "--out {0}: the tournament's own directory; a replacement writes a new one and leaves this one as it is"
    )]
    SameDir(PathBuf),
    /// The output directory is inside the tournament's directory, which is only read.
    #[error(
        "--out {0}: inside the tournament's directory {1}, which a replacement leaves as it is; give a directory outside it"
    )]
    Inside(PathBuf, PathBuf),
    /// The new command cannot be split, or a bot cannot be started as recorded.
    #[error(transparent)]
    Bot(#[from] BotSpecError),
    /// The game is not one this referee has.
    #[error(transparent)]
    Game(#[from] UnknownGame),
    /// The options are not the game's.
    #[error(transparent)]
    Options(SetupError),
    /// The bots' processes cannot be run as the policy asks.
    #[error(transparent)]
    Policy(#[from] Box<PolicyError>),
    /// A result could not be written (the results so far are kept).
    #[error("{0}")]
    Write(ResultsError),
    /// The referee failed while playing.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The pool failed otherwise while playing.
    #[error(transparent)]
    Play(Box<super::run::TournamentError>),
}

impl ReplaceError {
    /// Whether the error is in the caller's input (rather than a failure while running).
    pub fn is_usage(&self) -> bool {
        !matches!(
            self,
            ReplaceError::Write(_) | ReplaceError::Run(_) | ReplaceError::Play(_)
        )
    }
}

/// A replacement, planned from the results directory before anything runs.
#[derive(Debug)]
pub struct ReplacePlan {
    /// The tournament as it will be recorded: the replaced bots with their new commands.
    pub meta: TournamentMeta,
    /// The field in the order of `meta.bots`: the replaced bots from the command line, the
    /// others as the directory records them.
    pub bots: Vec<BotSpec>,
    /// The names of the replaced bots.
    pub replaced: BTreeSet<String>,
    /// The matches played again (those a replaced bot played), in id order.
    pub replay: Vec<ScheduledMatch>,
    /// The matches kept as they are, by id.
    pub kept: BTreeMap<u64, MatchResult>,
    /// How the tournament's last run was run, where recorded.
    pub run: Option<RunRecord>,
    /// Where the bots run from: the directory the tournament ran in, where it can be.
    pub from: RunFrom,
    /// The new results directory.
    pub out: PathBuf,
    /// Whether the tournament kept its matches' logs (then the new matches' are kept too).
    pub logs: bool,
    old: SafeDir,
}

/// `DIR-replaced-NAME` (the names joined with `-`): where a replacement writes by default.
pub fn default_out(dir: &Path, names: &[&str]) -> PathBuf {
    let base = dir
        .file_name()
        .map_or_else(|| "results".into(), |n| n.to_string_lossy().into_owned());
    dir.with_file_name(format!("{base}-replaced-{}", names.join("-")))
}

/// Plans the replacement of each bot `NAME` of `replacements` (`(NAME, COMMAND)`) in the
/// results directory `dir`, into the new directory `out`.
///
/// # Errors
/// [`ReplaceError`] for a directory that is not a tournament's, a name it does not have or
/// one given twice, `out` being `dir`, or a command that cannot be split.
pub fn plan(
    dir: &Path,
    replacements: &[(String, String)],
    out: &Path,
) -> Result<ReplacePlan, ReplaceError> {
    let ReadBack {
        dir: old,
        mut meta,
        results,
    } = read_back(dir)?;
    if same_dir(dir, out) {
        return Err(ReplaceError::SameDir(out.to_path_buf()));
    }
    // Links resolved: `DIR/new`, `DIR/../DIR/new`, `link-to-DIR/new`.
    if out
        .ancestors()
        .skip(1)
        .any(|a| !a.as_os_str().is_empty() && same_dir(a, dir))
    {
        return Err(ReplaceError::Inside(out.to_path_buf(), dir.to_path_buf()));
    }
    let run = RunRecord::read(&old)?;
    let mut replaced = BTreeSet::new();
    let mut new_specs = BTreeMap::new();
    for (name, command) in replacements {
        let Some(bot) = meta.bots.iter_mut().find(|b| &b.name == name) else {
            let bots: Vec<&str> = meta.bots.iter().map(|b| b.name.as_str()).collect();
            return Err(ReplaceError::UnknownBot {
                dir: dir.to_path_buf(),
                name: name.clone(),
                bots: bots.join(", "),
            });
        };
        if !replaced.insert(name.clone()) {
            return Err(ReplaceError::Twice(name.clone()));
        }
        // Its command from the command line, its time control and limits as recorded.
        let parsed = BotSpec::parse(&format!("{name}={command}"))?;
        bot.command = parsed.describe();
        new_specs.insert(name.clone(), bot.spec(None)?);
    }
    let bots = meta
        .bots
        .iter()
        .map(|bot| match new_specs.remove(&bot.name) {
            Some(spec) => Ok(spec),
            None => bot.spec(run.as_ref().and_then(|r| r.bots.get(&bot.name))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let index: BTreeMap<&str, usize> = meta
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    let (played, kept): (BTreeMap<u64, MatchResult>, _) = results
        .into_iter()
        .partition(|(_, r)| r.record.players.iter().any(|p| replaced.contains(p)));
    let replay = played
        .values()
        .map(|r| ScheduledMatch {
            id: r.id,
            group: r.group,
            // read_back found every player in the field.
            seats: r.record.players.iter().map(|p| index[p.as_str()]).collect(),
            seed: r.record.seed,
        })
        .collect();
    let logs = old.subdir(LOGS_DIR).ok().flatten().is_some();
    Ok(ReplacePlan {
        from: RunFrom::of(run.as_ref()),
        meta,
        bots,
        replaced,
        replay,
        kept,
        run,
        out: out.to_path_buf(),
        logs,
        old,
    })
}

/// How a replacement is played.
#[derive(Clone, Debug)]
pub struct ReplaceRun {
    /// Matches played at once.
    pub jobs: usize,
    /// Whether workers and their bots are pinned to cores.
    pub pin: bool,
    /// Keep the new matches' logs even if the tournament did not.
    pub logs: bool,
    /// Continue a replacement already begun in the new directory.
    pub resume: bool,
}

/// What a replacement played and wrote.
#[derive(Debug)]
pub struct Replaced {
    /// How the run ended (the new directory's leaderboard when it finished).
    pub outcome: Outcome,
    /// Files of the old directory not carried over, and why.
    pub skipped: Vec<Skipped>,
}

impl ReplacePlan {
    /// Looks at what the plan takes from the old directory for the bots that are not replaced
    /// ([`review`]), with the settings `trust` accepts, run from `here`. Changes nothing.
    pub fn review(&self, trust: &Trust, sandbox_given: bool, here: &Path) -> Review {
        review(
            self.run.as_ref(),
            &self.bots,
            trust,
            sandbox_given,
            &BTreeSet::new(),
            here,
        )
    }

    /// Checks, before any bot starts, the game, its options and each bot's command (found
    /// from where the bots run from, [`ReplacePlan::from`]).
    ///
    /// # Errors
    /// [`ReplaceError::Game`], [`ReplaceError::Options`] or [`ReplaceError::Bot`].
    pub fn check(&self) -> Result<(), ReplaceError> {
        let kind = GameKind::from_name(&self.meta.game)?;
        engine::with_game!(kind, G => self.prepared::<G>().map(drop))
    }

    fn prepared<G: Game>(&self) -> Result<G::Options, ReplaceError> {
        self.from.check_bots::<G>(&self.bots)?;
        options_from_json::<G>(&self.meta.options).map_err(ReplaceError::Options)
    }

    /// Resolves `policy` for the field, with `outputs` (the new directory, the old one)
    /// hidden from the bots, the bots run from [`ReplacePlan::from`] unless the policy says
    /// where.
    ///
    /// # Errors
    /// [`ReplaceError::Policy`] when the policy refuses.
    pub fn resolve(
        &mut self,
        policy: &ProcessPolicy,
        outputs: &[PathBuf],
    ) -> Result<BotProcesses, ReplaceError> {
        Ok(self.from.resolve(policy, &mut self.bots, outputs)?)
    }

    /// Writes the new directory: the kept matches carried over, then the replayed ones played
    /// with `process` (as [`ReplacePlan::resolve`] gave them), reporting to `reporter` as a
    /// tournament does, until done or `interrupt` resolves. Must be called inside a Tokio
    /// runtime; every bot process is stopped when it returns.
    ///
    /// # Errors
    /// [`ReplaceError`] as [`ReplacePlan::check`], a new directory that holds results without
    /// `resume` or another tournament, or a failure of the referee.
    pub async fn play(
        &self,
        process: &ProcessOptions,
        how: &ReplaceRun,
        reporter: &mut dyn Reporter,
        interrupt: impl Future<Output = ()>,
    ) -> Result<Replaced, ReplaceError> {
        let kind = GameKind::from_name(&self.meta.game)?;
        engine::with_game!(kind, G => self.play_game::<G>(process, how, reporter, interrupt).await)
    }

    async fn play_game<G: Game>(
        &self,
        process: &ProcessOptions,
        how: &ReplaceRun,
        reporter: &mut dyn Reporter,
        interrupt: impl Future<Output = ()>,
    ) -> Result<Replaced, ReplaceError> {
        let options = self.prepared::<G>()?;
        let meta = &self.meta;
        let dir = SafeDir::create(&self.out, Privacy::Private).map_err(ResultsError::from)?;
        let made_private = made_private(&dir)?;
        let (mut file, done) = ResultsFile::open(&dir, meta, how.resume)?;
        let mut carry = Carry::new(&dir);
        for (id, result) in &self.kept {
            if !done.contains_key(id) {
                let carried = carry.carry(0, &self.old, result)?;
                file.append(&carried).map_err(ReplaceError::Write)?;
            }
        }
        let skipped = std::mem::take(&mut carry.skipped);
        drop(carry);
        // The other bots' check verdicts still hold; a replaced bot's does not.
        let others = meta.bots.iter().map(|b| b.name.as_str());
        carry_verdicts(
            &self.old,
            &dir,
            others.filter(|n| !self.replaced.contains(*n)),
        )
        .map_err(ResultsError::from)?;
        RunRecord::of_bots(&self.bots, process, process.from_dir()).write(&dir)?;
        let stderr_dir = dir.make_subdir(STDERR_DIR).map_err(ResultsError::from)?;
        let logs_dir = (how.logs || self.logs)
            .then(|| dir.make_subdir(LOGS_DIR))
            .transpose()
            .map_err(ResultsError::from)?;
        let scheduled: Vec<ScheduledMatch> = self
            .replay
            .iter()
            .filter(|m| !done.contains_key(&m.id))
            .cloned()
            .collect();
        let names: Vec<String> = meta.bots.iter().map(|b| b.name.clone()).collect();
        let mut tally = Tally::new(&names);
        done.values().for_each(|r| tally.add(r));
        self.kept
            .iter()
            .filter(|(id, _)| !done.contains_key(id))
            .for_each(|(_, r)| tally.add(r));
        reporter.started(&Started {
            game: G::NAME,
            bots: meta.bots.len(),
            players: meta.players,
            matches: meta.matches,
            share: self.replay.len() as u64,
            done: (self.replay.len() - scheduled.len()) as u64,
            shard: None,
            jobs: how.jobs,
            seed: meta.seed,
            out: self.out.clone(),
            seating: meta.format.format().seating(meta.bots.len(), meta.players),
            unbalanced: None,
            made_private,
        });
        let settings = Arc::new(PoolSettings::<G> {
            specs: self.bots.clone(),
            options,
            max_faults: meta.max_faults,
            policy: meta.policy,
            process: process.clone(),
            stderr_dir: Some(Arc::new(stderr_dir)),
            logs_dir: logs_dir.map(Arc::new),
            duplicate: meta.duplicate,
            jobs: how.jobs,
            pin: how.pin,
        });
        let outcome = play_into(
            settings,
            scheduled,
            interrupt,
            (file, &dir, meta),
            tally,
            reporter,
        )
        .await
        .map_err(|e| match e {
            super::run::TournamentError::Write(e) => ReplaceError::Write(e),
            super::run::TournamentError::Run(e) => ReplaceError::Run(e),
            other => ReplaceError::Play(Box::new(other)),
        })?;
        Ok(Replaced { outcome, skipped })
    }
}

#[cfg(test)]
#[path = "replace_tests.rs"]
mod tests;
