//! One match, from settings to record: the entry point ([`run_match`]) that `referee match`, a
//! server or a worker calls. It checks the settings ([`MatchConfig::check`]), resolves the
//! process policy (reported to a [`MatchReporter`]), starts the players, referees the match and
//! stops every bot process, whatever happened.

use super::{FaultPolicy, MatchLog, MatchRecord, MatchSettings, Player, RunError};
use super::{play_match, shutdown_players, start_players};
use crate::policy::{BotProcesses, PolicyError, ProcessPolicy};
use crate::safe_fs::SafeDir;
use crate::seat::{BotSpec, BotSpecError, ProcessOptions, StderrFile};
use engine::shared_rules::options_from_json;
use engine::{Game, GameKind, PlayerCounts, SetupError};
use std::path::PathBuf;
use std::sync::Arc;

/// One match to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// The game's options as JSON (`null` or `{}` for the defaults).
    pub options: serde_json::Value,
    /// The players, in seat order.
    pub bots: Vec<BotSpec>,
    /// The match seed.
    pub seed: u64,
    /// The match's id in its log and record.
    pub match_id: String,
    /// Faults after which a bot is stopped for the rest of the match.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: FaultPolicy,
    /// How bot processes are run; its default is the safe one.
    pub process: ProcessPolicy,
    /// What the match writes (its log, its bots' stderr): hidden from the bots.
    pub outputs: Vec<PathBuf>,
}

/// Why a match cannot be played: the caller's settings, or the referee itself (never a bot,
/// whose misbehaviour is in the record).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The game is not played by that many.
    #[error("{counts}; {bots} bots were given")]
    Players {
        /// The counts the game allows.
        counts: PlayerCounts,
        /// The bots given.
        bots: usize,
    },
    /// A bot cannot be run (a built-in the game lacks, a command not found).
    #[error(transparent)]
    Bot(#[from] BotSpecError),
    /// The options are not the game's ([`SetupError::Options`]).
    #[error(transparent)]
    Options(SetupError),
    /// The bots' processes cannot be run as the policy asks.
    #[error(transparent)]
    Policy(#[from] Box<PolicyError>),
    /// The referee failed while playing (the log could not be written).
    #[error(transparent)]
    Run(#[from] RunError),
}

impl MatchError {
    /// Whether the error is in the caller's settings (rather than a failure while playing).
    pub fn is_usage(&self) -> bool {
        !matches!(self, MatchError::Run(_))
    }
}

/// Receives a match's events, in order: `processes`, then `finished` (none after an error).
/// Every method does nothing by default.
pub trait MatchReporter {
    /// The bot processes' policy is resolved: how they run, and what to say about it.
    fn processes(&mut self, _processes: &BotProcesses) {}

    /// The match finished.
    fn finished(&mut self, _record: &MatchRecord) {}
}

/// A reporter that ignores every event.
impl MatchReporter for () {}

impl MatchConfig {
    /// Checks, before anything starts, that the match can be played: the player count, each
    /// bot (a built-in the game has, a command that exists) and the options.
    ///
    /// # Errors
    /// [`MatchError::Players`], [`MatchError::Bot`] or [`MatchError::Options`].
    pub fn check(&self) -> Result<(), MatchError> {
        engine::with_game!(self.game, G => self.prepared::<G>().map(drop))
    }

    /// The game's options, once every check passed.
    fn prepared<G: Game>(&self) -> Result<G::Options, MatchError> {
        let counts = PlayerCounts::of::<G>();
        if !counts.contains(self.bots.len()) {
            return Err(MatchError::Players {
                counts,
                bots: self.bots.len(),
            });
        }
        let from = self.process.from_dir().map_err(Box::new)?;
        self.bots
            .iter()
            .try_for_each(|bot| bot.check_in::<G>(&from))?;
        options_from_json::<G>(&self.options).map_err(MatchError::Options)
    }
}

/// Plays the match `config` describes, saving each bot's stderr to `NAME.stderr` of
/// `stderr_dir` if given (made by the caller, private: [`SafeDir::create`]) and writing the log
/// to `log`; reports to `reporter`. Must be called inside a Tokio runtime; every bot process
/// is stopped when it returns.
///
/// # Errors
/// [`MatchError`] for settings that cannot be played (before any bot starts) or a failure of
/// the referee while playing.
pub async fn run_match(
    config: &MatchConfig,
    stderr_dir: Option<&Arc<SafeDir>>,
    log: &mut MatchLog,
    reporter: &mut dyn MatchReporter,
) -> Result<MatchRecord, MatchError> {
    engine::with_game!(config.game, G => run_game::<G>(config, stderr_dir, log, reporter).await)
}

async fn run_game<G: Game>(
    config: &MatchConfig,
    stderr_dir: Option<&Arc<SafeDir>>,
    log: &mut MatchLog,
    reporter: &mut dyn MatchReporter,
) -> Result<MatchRecord, MatchError> {
    let options = config.prepared::<G>()?;
    let mut bots = config.bots.clone();
    let processes = config
        .process
        .resolve(&mut bots, &config.outputs)
        .map_err(Box::new)?;
    reporter.processes(&processes);
    let settings = MatchSettings {
        match_id: config.match_id.clone(),
        seed: config.seed,
        max_faults: config.max_faults,
        policy: config.policy,
    };
    let record = play_once::<G>(
        &bots,
        &options,
        &processes.options,
        stderr_dir,
        &settings,
        log,
    )
    .await?;
    reporter.finished(&record);
    Ok(record)
}

/// Starts `bots` with `process` (each one's stderr to `stderr_dir` if given), plays one match
/// of `settings` and stops every bot, whatever happened.
///
/// # Errors
/// A failure of the referee while playing ([`RunError`]).
pub async fn play_once<G: Game>(
    bots: &[BotSpec],
    options: &G::Options,
    process: &ProcessOptions,
    stderr_dir: Option<&Arc<SafeDir>>,
    settings: &MatchSettings,
    log: &mut MatchLog,
) -> Result<MatchRecord, RunError> {
    let stderr_file = |spec: &BotSpec| stderr_dir.map(|d| StderrFile::of_bot(d, &spec.name));
    let mut players: Vec<Player<G>> =
        start_players::<G>(bots, options, process, &stderr_file).await;
    let record = play_match(settings, options, &mut players, log).await;
    shutdown_players(&mut players, process.exit_grace).await;
    record
}
