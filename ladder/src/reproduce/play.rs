//! Playing a bundle's match again ([`reproduce`], [`reproduce_dir`]) and comparing it with
//! the record: the match's config is made from its spec ([`match_config`]), each seat's bot
//! started from its working directory in `DIR/run/SEAT/` (a fresh copy of its artifact, or its
//! stand-in script, which runs as `referee stand-in stand-in.jsonl`), the match played by
//! [`referee::runner::run_match`] into memory, and compared with the recorded log by
//! [`referee::tournament::rerun_diff`] and with the record by [`Comparison`], as `referee
//! rerun` compares. Nothing depends on the caller's working directory: the bots run from
//! `DIR/run/`, and the bundle's other files are hidden from them.

use super::bundle::{
    ARTIFACTS_DIR, Bundle, LOG_FILE, RECORD_FILE, RUN_DIR, SPEC_FILE, STAND_IN_DIR, SeatSource,
    artifact_dir,
};
use super::error::ReproduceError;
use super::workdirs::{copy_tree, fresh_dir};
use crate::spec::MatchSpec;
use engine::GameKind;
use referee::policy::{BotProcesses, ProcessPolicy};
use referee::runner::{MatchConfig, MatchLog, MatchRecord, MatchReporter, Moment, run_match};
use referee::safe_fs::{Privacy, SafeDir};
use referee::seat::{BotSpec, SandboxMode};
use referee::stand_in::write_script;
use referee::tournament::rerun::Comparison;
use referee::tournament::rerun_diff::{FirstDifference, LogComparison, RecordedLog, compare};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A stand-in's script in its working directory.
pub const STAND_IN_SCRIPT: &str = "stand-in.jsonl";

/// How a reproduction runs, besides what its bundle says.
#[derive(Clone, Debug)]
pub struct ReproduceOptions {
    /// The `referee` program the stand-ins run (`referee stand-in FILE`; a relative path is
    /// found from the current directory).
    pub referee: PathBuf,
    /// The sandbox, when this machine needs another than the recorded one (`None`: the
    /// spec's).
    pub sandbox: Option<SandboxMode>,
    /// Where each bot's stderr is saved (`NAME.stderr`), if anywhere.
    pub stderr_dir: Option<PathBuf>,
}

impl ReproduceOptions {
    /// The options of the running `referee` program: its stand-ins are this program, the
    /// sandbox the spec's, no stderr saved.
    ///
    /// # Errors
    /// When the running program's path cannot be found.
    pub fn this_referee() -> std::io::Result<Self> {
        Ok(ReproduceOptions {
            referee: std::env::current_exe()?,
            sandbox: None,
            stderr_dir: None,
        })
    }
}

/// How a seat was played again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Played {
    /// By its own code (its artifact).
    Artifact,
    /// By the built-in bot it is.
    Builtin,
    /// By a stand-in that replayed its logged actions.
    StandIn,
}

/// A match played again, compared with its record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reproduction {
    /// The match's id.
    pub match_id: String,
    /// Whether it is the recorded match: the same scores, ranks and faults (seat, decision,
    /// kind), and the same decisions as the recorded log (timings and stderr aside).
    pub same_result: bool,
    /// Which parts of the result are the recorded ones.
    pub comparison: Comparison,
    /// Where it first parts from the recorded log: the seat, its bot (`BOT.vN`), its turn, the
    /// phase and the log's decision, and what each log holds there.
    pub first_difference: Option<FirstDifference>,
    /// How each seat was played, by seat.
    pub seats: Vec<Played>,
    /// The version of the referee that recorded the match, when it is not this one's
    /// ([`crate::spec::REFEREE_VERSION`]): a difference may then be the referee's.
    pub other_referee: Option<String>,
    /// Which sandbox the bot processes ran in, in one line
    /// ([`referee::policy::BotProcesses::sandbox`]).
    pub sandbox: String,
    /// The result of the match played again.
    pub record: MatchRecord,
}

impl Reproduction {
    /// When the first difference is, in the one wording of a moment ("match 7, its 5th turn
    /// (phase chip; log decision 14)").
    pub fn moment(&self) -> Option<Moment> {
        self.first_difference
            .as_ref()
            .map(|first| Moment::new(&self.match_id, first.when()))
    }
}

/// Reproduces the bundle in `dir` ([`Bundle::read`]), its stand-ins run by this program
/// ([`ReproduceOptions::this_referee`]). Must be called inside a Tokio runtime.
///
/// # Errors
/// [`ReproduceError`] as [`reproduce`], or a bundle that cannot be read.
pub async fn reproduce_dir(dir: &Path) -> Result<Reproduction, ReproduceError> {
    let options = ReproduceOptions::this_referee().map_err(ReproduceError::Referee)?;
    reproduce(&Bundle::read(dir)?, dir, &options).await
}

/// Plays `bundle`'s match again (its artifacts unpacked in `dir`, where the seats' working
/// directories are made afresh in `run/`), and compares it with its record and log. Must be
/// called inside a Tokio runtime; every bot process is stopped when it returns.
///
/// # Errors
/// [`ReproduceError`]: a bundle that does not hold together, a seat that cannot be started
/// here, a sandbox this machine does not have, or a failure of the referee while playing.
pub async fn reproduce(
    bundle: &Bundle,
    dir: &Path,
    options: &ReproduceOptions,
) -> Result<Reproduction, ReproduceError> {
    check(bundle)?;
    let recorded = RecordedLog::from_records(&bundle.log, &bundle.record);
    if let RecordedLog::Unreadable(why) = &recorded {
        return Err(ReproduceError::Log(why.clone()));
    }
    let dir = std::path::absolute(dir).map_err(|error| ReproduceError::Workdir {
        path: dir.to_path_buf(),
        error,
    })?;
    let referee_program = std::path::absolute(&options.referee).map_err(ReproduceError::Referee)?;
    let run = dir.join(RUN_DIR);
    fresh_dir(&run)?;
    let mut bots = Vec::with_capacity(bundle.seats.len());
    for (seat, source) in bundle.seats.iter().enumerate() {
        bots.push(seat_bot(
            bundle,
            seat,
            source,
            &dir,
            &run,
            &referee_program,
        )?);
    }
    let stderr_dir = match &options.stderr_dir {
        Some(path) => Some(Arc::new(SafeDir::create(path, Privacy::Private)?)),
        None => None,
    };
    let mut config = match_config(&bundle.spec, &bundle.record.match_id, bots)?;
    config.process.sandbox = options.sandbox.unwrap_or(config.process.sandbox);
    config.process.from = Some(run.clone());
    config.process.hide = [
        SPEC_FILE,
        RECORD_FILE,
        LOG_FILE,
        STAND_IN_DIR,
        ARTIFACTS_DIR,
    ]
    .iter()
    .map(|name| dir.join(name))
    .collect();
    config.outputs = options.stderr_dir.iter().cloned().collect();
    let mut log = MatchLog::memory();
    let mut processes = Processes::default();
    let record = run_match(&config, stderr_dir.as_ref(), &mut log, &mut processes).await?;
    let names: Vec<String> = bundle
        .spec
        .seats
        .iter()
        .map(|s| s.bot.name.clone())
        .collect();
    let first_difference = match compare(&recorded, log.records(), &names) {
        LogComparison::Differs(first) => Some(*first),
        LogComparison::Same => None,
        LogComparison::Unreadable { why } => return Err(ReproduceError::Log(why)),
        LogComparison::NotKept => {
            return Err(ReproduceError::Log(
                "the match played again left no log".into(),
            ));
        }
    };
    let comparison = Comparison::of(&bundle.record, &record);
    Ok(Reproduction {
        match_id: bundle.record.match_id.clone(),
        same_result: comparison.same() && first_difference.is_none(),
        comparison,
        first_difference,
        seats: bundle
            .seats
            .iter()
            .map(|source| match source {
                SeatSource::Artifact { .. } => Played::Artifact,
                SeatSource::Builtin => Played::Builtin,
                SeatSource::StandIn { .. } => Played::StandIn,
            })
            .collect(),
        sandbox: processes.sandbox,
        other_referee: (bundle.spec.referee != crate::spec::REFEREE_VERSION)
            .then(|| bundle.spec.referee.clone()),
        record,
    })
}

/// What the match's reporter keeps: the sandbox the bots ran in.
#[derive(Default)]
struct Processes {
    sandbox: String,
}

impl MatchReporter for Processes {
    fn processes(&mut self, processes: &BotProcesses) {
        self.sandbox = processes.sandbox();
    }
}

/// The match `spec` describes, as the runner plays it: the game, options, seed, fault limit
/// and policy and sandbox of the spec, its seats' `bots` (in seat order, as started here), and
/// the match id `match_id`.
///
/// # Errors
/// [`ReproduceError::Game`] for a game this referee does not have.
pub fn match_config(
    spec: &MatchSpec,
    match_id: &str,
    bots: Vec<BotSpec>,
) -> Result<MatchConfig, ReproduceError> {
    Ok(MatchConfig {
        game: GameKind::from_name(&spec.game)?,
        options: spec.options.clone(),
        bots,
        seed: spec.seed,
        match_id: match_id.to_string(),
        max_faults: spec.max_faults,
        policy: spec.policy,
        process: ProcessPolicy {
            sandbox: spec.sandbox,
            ..ProcessPolicy::default()
        },
        outputs: Vec::new(),
    })
}

/// That the bundle's spec, record and seats describe one match: the same seats and game (a
/// spec with another seed, say, is played, and differs).
fn check(bundle: &Bundle) -> Result<(), ReproduceError> {
    let names: Vec<&str> = bundle
        .spec
        .seats
        .iter()
        .map(|s| s.bot.name.as_str())
        .collect();
    let wrong = |why: String| Err(ReproduceError::Inconsistent(why));
    if bundle.seats.len() != names.len() {
        return wrong(format!(
            "{} seats in the spec, {} seat sources",
            names.len(),
            bundle.seats.len()
        ));
    }
    if bundle.record.players != names {
        return wrong(format!(
            "the spec's seats are {}, the record's players {}",
            names.join(", "),
            bundle.record.players.join(", ")
        ));
    }
    if bundle.record.game != bundle.spec.game {
        return wrong(format!(
            "the spec is a match of {}, the record one of {}",
            bundle.spec.game, bundle.record.game
        ));
    }
    Ok(())
}

/// The bot of seat `seat`, started from its working directory `run/SEAT/`, made here: a copy
/// of its artifact, or its stand-in script; a built-in as it is.
fn seat_bot(
    bundle: &Bundle,
    seat: usize,
    source: &SeatSource,
    dir: &Path,
    run: &Path,
    referee: &Path,
) -> Result<BotSpec, ReproduceError> {
    let meta = &bundle.spec.seats[seat].bot;
    let workdir = run.join(&meta.name);
    let mut bot = match source {
        SeatSource::Builtin => return Ok(meta.spec(None)?),
        SeatSource::Artifact { hash } => {
            copy_tree(&artifact_dir(dir, hash), &workdir)?;
            meta.spec(None)?
        }
        SeatSource::StandIn { steps } => {
            fresh_dir(&workdir)?;
            let path = workdir.join(STAND_IN_SCRIPT);
            let failed = |error| ReproduceError::Workdir {
                path: path.clone(),
                error,
            };
            let file = std::fs::File::create(&path).map_err(failed)?;
            write_script(steps, std::io::BufWriter::new(file)).map_err(failed)?;
            let program = referee.to_string_lossy();
            let words = [program.as_ref(), "stand-in", STAND_IN_SCRIPT];
            let command = shlex::try_join(words).map_err(|_| {
                ReproduceError::Inconsistent(format!(
                    "the referee's path {} cannot be a command",
                    referee.display()
                ))
            })?;
            referee::tournament::meta::MetaBot {
                command,
                ..meta.clone()
            }
            .spec(None)?
        }
    };
    bot.settings.workdir = Some(workdir);
    Ok(bot)
}
