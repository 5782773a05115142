//! Running a whole tournament: the one entry point ([`run`]) that the CLI, tests and any other
//! tool call. It settles the player and match counts, builds the schedule (its shard, less what
//! the results directory already holds), plays it on the [pool](super::run_pool), appends each
//! result to `matches.jsonl` as it arrives, reports typed events to a [`Reporter`], and scores
//! the leaderboard at the end.

use super::bounds::{OutOfBounds, check_meta};
use super::config::TournamentConfig;
use super::format::{ScheduleSpec, ScheduledMatch, Setup};
use super::match_result::MatchResult;
use super::meta::{MetaBot, TournamentMeta};
use super::pool::{PoolSettings, run_pool};
use super::progress::Tally;
use super::report::{Outcome, Reporter, Started};
use super::results::{LOGS_DIR, ResultsFile, STDERR_DIR, made_private, read_results};
use super::results_error::ResultsError;
use super::run_record::RunRecord;
use super::scoring::leaderboard;
use crate::policy::PolicyError;
use crate::runner::RunError;
use crate::safe_fs::{Privacy, SafeDir};
use crate::seat::{BotSpecError, ProcessOptions};
use engine::shared_rules::{check_player_count, options_from_json};
use engine::{Game, SetupError};
use std::future::Future;
use std::sync::Arc;

/// Why a tournament could not be run: the caller's settings, or the referee itself (never a
/// bot, whose misbehaviour is in the results).
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The game is not played by that many.
    #[error("{0} (--players)")]
    Players(SetupError),
    /// Fewer bots than seats.
    #[error(
        "{players} players per match need at least {players} bots; {bots} were given (--bot NAME=COMMAND, once per bot)"
    )]
    TooFewBots {
        /// Players per match.
        players: usize,
        /// Bots given.
        bots: usize,
    },
    /// A setting the format does not take, or a field or game it cannot seat.
    #[error("{0}")]
    Format(String),
    /// A bot cannot be run.
    #[error(transparent)]
    Bot(#[from] BotSpecError),
    /// The options are not the game's ([`SetupError::Options`]).
    #[error(transparent)]
    Options(SetupError),
    /// The results directory cannot be used (another tournament, results without resume, in
    /// use, corrupt, unreadable).
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// A setting beyond what a results directory may hold (docs/security.md: files the
    /// referee reads back), such as more than [`MAX_MATCHES`](super::bounds::MAX_MATCHES)
    /// matches.
    #[error(transparent)]
    OutOfBounds(#[from] OutOfBounds),
    /// A result could not be written (the results so far are kept).
    #[error("{0}")]
    Write(ResultsError),
    /// The bots' processes cannot be run as the policy asks.
    #[error(transparent)]
    Policy(#[from] Box<PolicyError>),
    /// The referee failed while playing (a match log not written, a worker lost).
    #[error(transparent)]
    Run(#[from] RunError),
}

impl TournamentError {
    /// Whether the error is in the caller's settings (rather than a failure while running).
    pub fn is_usage(&self) -> bool {
        !matches!(self, TournamentError::Write(_) | TournamentError::Run(_))
    }
}

/// Runs the tournament `config` describes, reporting to `reporter`, until every match of its
/// share is played or `interrupt` resolves. Must be called inside a Tokio runtime; the matches
/// run on worker threads of their own (`config.jobs`). When it returns, every bot process it
/// started has been stopped.
///
/// # Errors
/// [`TournamentError`] for settings that cannot be played (checked before any bot starts,
/// except those found when the results directory is opened) or a failure of the referee.
pub async fn run(
    config: &TournamentConfig,
    reporter: &mut dyn Reporter,
    interrupt: impl Future<Output = ()>,
) -> Result<Outcome, TournamentError> {
    let mut config = config.clone();
    let outputs = [config.out.clone()];
    let process = (config.process)
        .resolve(&mut config.bots, &outputs)
        .map_err(Box::new)?;
    reporter.processes(&process);
    let (config, process) = (&config, &process.options);
    engine::with_game!(config.game, G => run_game::<G>(config, process, reporter, interrupt).await)
}

/// The player count: the format's when it sets one ([`Format::players`](super::format::Format::players)),
/// else as given, or the game's smallest count that the field fills, at most 4.
///
/// # Errors
/// [`TournamentError::Players`], [`TournamentError::TooFewBots`], or
/// [`TournamentError::Format`]: a game, a field or a setting the format cannot play.
pub fn players<G: Game>(config: &TournamentConfig) -> Result<usize, TournamentError> {
    let counts = G::player_counts();
    let bots = config.bots.len();
    if let Some(players) = format_players::<G>(config)? {
        return Ok(players);
    }
    let players = config
        .players
        .unwrap_or_else(|| bots.clamp(*counts.start(), (*counts.end()).min(4)));
    check_player_count::<G>(players).map_err(TournamentError::Players)?;
    if bots < players {
        return Err(TournamentError::TooFewBots { players, bots });
    }
    Ok(players)
}

/// What a tournament will play, settled before any bot starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The schedule's specification: the player count and the match count as played.
    pub spec: ScheduleSpec,
    /// When the match count is not a multiple of the matches that seat every bot equally often
    /// in every seat (a whole cycle of a round-robin or gauntlet), that unit: the tournament
    /// is told so when it starts.
    pub unbalanced: Option<u64>,
}

/// What the tournament `config` will play: its player and match counts, and whether they make
/// whole cycles.
///
/// # Errors
/// As [`players`]: a player count the game or the field does not allow.
pub fn plan(config: &TournamentConfig) -> Result<Plan, TournamentError> {
    engine::with_game!(config.game, G => Ok(plan_of(config, players::<G>(config)?)))
}

/// [`plan`] with the player count settled.
fn plan_of(config: &TournamentConfig, players: usize) -> Plan {
    let schedule = config.format.format();
    let mut spec = ScheduleSpec {
        bots: config.bots.len(),
        players,
        matches: 0,
        seed: config.seed,
        duplicate: config.duplicate,
        candidate: config.candidate,
    };
    spec.matches = config
        .matches
        .unwrap_or_else(|| schedule.cycle_length(&spec));
    let unit = schedule.balanced_unit(&spec);
    Plan {
        unbalanced: (spec.matches % unit != 0).then_some(unit),
        spec,
    }
}

/// The player count the format sets, if any, once it has checked the game and the field.
fn format_players<G: Game>(config: &TournamentConfig) -> Result<Option<usize>, TournamentError> {
    let setup = Setup {
        game: G::NAME,
        counts: G::player_counts(),
        bots: config.bots.len(),
        players: config.players,
        matches: config.matches,
    };
    config
        .format
        .format()
        .players(&setup)
        .map_err(TournamentError::Format)
}

/// The game options as played: `config`'s, and for a format of events the game's
/// [event defaults](Game::event_option_defaults) for the keys they leave out.
fn played_options<G: Game>(config: &TournamentConfig) -> serde_json::Value {
    let mut options = config.options.clone();
    if !config.format.format().event_options() {
        return options;
    }
    let defaults = G::event_option_defaults();
    if defaults.is_empty() {
        return options;
    }
    if options.is_null() {
        options = serde_json::Value::Object(serde_json::Map::new());
    }
    if let Some(map) = options.as_object_mut() {
        for (key, value) in defaults {
            map.entry(key).or_insert(value);
        }
    }
    options
}

/// What `tournament.json` records of `config`: every setting that changes results.
fn meta<G: Game>(
    config: &TournamentConfig,
    options: serde_json::Value,
    players: usize,
    matches: u64,
) -> TournamentMeta {
    TournamentMeta {
        game: G::NAME.to_string(),
        options,
        bots: config
            .bots
            .iter()
            .map(|b| MetaBot {
                name: b.name.clone(),
                command: b.describe(),
                limits: b.settings.time.limits,
                overruns: b.settings.time.overruns,
                overrun_ms: b.settings.time.overrun_ms,
                resources: b.settings.limits,
                time_basis: b.settings.time.basis,
                turn_isolation: b.settings.time.isolate,
            })
            .collect(),
        players,
        format: config.format.played(),
        candidate: config
            .format
            .format()
            .has_candidate()
            .then(|| config.bots[config.candidate].name.clone()),
        matches,
        seed: config.seed,
        duplicate: config.duplicate,
        max_faults: config.max_faults,
        policy: config.policy,
    }
}

async fn run_game<G: Game>(
    config: &TournamentConfig,
    process: &ProcessOptions,
    reporter: &mut dyn Reporter,
    interrupt: impl Future<Output = ()>,
) -> Result<Outcome, TournamentError> {
    let players = players::<G>(config)?;
    let from = process.from_dir();
    config
        .bots
        .iter()
        .try_for_each(|b| b.check_in::<G>(&from))?;
    let options_json = played_options::<G>(config);
    let options = options_from_json::<G>(&options_json).map_err(TournamentError::Options)?;
    let format = config.format.format();
    let bots = config.bots.len();
    let Plan { spec, unbalanced } = plan_of(config, players);
    let matches = spec.matches;
    let meta = meta::<G>(config, options_json, players, matches);
    // Before the schedule is built: it is as long as the match count.
    check_meta(&meta)?;
    let mut scheduled = format.schedule(&spec);
    if let Some((k, n)) = config.shard {
        scheduled.retain(|m| m.id % n == k);
    }
    let share = scheduled.len() as u64;
    let dir = SafeDir::create(&config.out, Privacy::Private).map_err(ResultsError::from)?;
    let made_private = made_private(&dir)?;
    let (file, done) = ResultsFile::open(&dir, &meta, config.resume)?;
    scheduled.retain(|m| !done.contains_key(&m.id));
    RunRecord::of(config, process, process.from_dir()).write(&dir)?;
    let stderr_dir = dir.make_subdir(STDERR_DIR).map_err(ResultsError::from)?;
    let logs_dir = config
        .logs
        .then(|| dir.make_subdir(LOGS_DIR))
        .transpose()
        .map_err(ResultsError::from)?;
    reporter.started(&Started {
        game: G::NAME,
        bots,
        players,
        matches,
        share,
        done: done.len() as u64,
        shard: config.shard,
        jobs: config.jobs,
        seed: config.seed,
        out: config.out.clone(),
        seating: format.seating(bots, players),
        unbalanced,
        made_private,
    });
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let mut tally = Tally::new(&names);
    done.values().for_each(|r| tally.add(r));
    let settings = Arc::new(PoolSettings::<G> {
        specs: config.bots.clone(),
        options,
        max_faults: config.max_faults,
        policy: config.policy,
        process: process.clone(),
        stderr_dir: Some(Arc::new(stderr_dir)),
        logs_dir: logs_dir.map(Arc::new),
        duplicate: config.duplicate,
        jobs: config.jobs,
        pin: config.pin,
    });
    play_into(
        settings,
        scheduled,
        interrupt,
        (file, &dir, &meta),
        tally,
        reporter,
    )
    .await
}

/// Plays `scheduled` on the pool, appending each result to the results file of `dir` (of the
/// tournament `meta`) and telling `reporter` of it with the standings so far (`tally`, which
/// holds the results already there); then how the run ended: interrupted, or finished with the
/// leaderboard of every result `dir` holds. `referee tournament` and `--replace` end so.
pub(super) async fn play_into<G: Game>(
    settings: Arc<PoolSettings<G>>,
    scheduled: Vec<ScheduledMatch>,
    interrupt: impl Future<Output = ()>,
    (mut file, dir, meta): (ResultsFile, &SafeDir, &TournamentMeta),
    mut tally: Tally,
    reporter: &mut dyn Reporter,
) -> Result<Outcome, TournamentError> {
    let mut written = 0u64;
    let played = play(settings, scheduled, interrupt, |result| {
        file.append(result).map_err(TournamentError::Write)?;
        written += 1;
        tally.add(result);
        reporter.match_finished(result, &tally.snapshot());
        Ok(())
    })
    .await?;
    if !played {
        reporter.interrupted(written);
        return Ok(Outcome::Interrupted { written });
    }
    drop(file);
    let (results, _) = read_results(dir, meta)?;
    let board = leaderboard(meta, &results).expect("a registered game");
    reporter.finished(&board);
    Ok(Outcome::Finished(board))
}

/// Plays `scheduled` on the pool, handing each result to `written` as it arrives; whether
/// every match was played (`false` when `interrupt` resolved first). The first failure —
/// `written`'s or the pool's — stops the pool, and so every bot, before it is returned.
pub(super) async fn play<G: Game>(
    settings: Arc<PoolSettings<G>>,
    scheduled: Vec<ScheduledMatch>,
    interrupt: impl Future<Output = ()>,
    mut written: impl FnMut(&MatchResult) -> Result<(), TournamentError>,
) -> Result<bool, TournamentError> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<MatchResult>();
    let pool = run_pool(settings, scheduled, tx);
    tokio::pin!(pool, interrupt);
    let mut pool_done = None;
    loop {
        tokio::select! {
            // The interrupt first, and one result at a time: an interrupt is seen before the
            // next result is written, however far ahead the pool is.
            biased;
            () = &mut interrupt => return Ok(false),
            received = rx.recv() => match received {
                Some(result) => written(&result)?,
                // The pool has sent its last result: every worker is done (its sender dropped).
                None => break,
            },
            finished = &mut pool, if pool_done.is_none() => pool_done = Some(finished),
        }
    }
    // A failure of `written` returned above, dropping the pool and so stopping every bot.
    match pool_done {
        Some(finished) => finished?,
        None => pool.await?,
    }
    Ok(true)
}
