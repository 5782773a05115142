//! `referee match`: one match, standings printed, children always stopped.

use super::Failure;
use super::args::{Format, MatchArgs};
use super::checks::{check_bots, game_options};
use super::match_config::{self, MatchConfig};
use super::output::{out, outln};
use super::standings;
use engine::Game;
use protocol::ExitCode;
use referee::runner::{
    MatchLog, MatchRecord, MatchSettings, play_match, shutdown_players, start_players,
};
use referee::safe_fs::SafeDir;
use referee::seat::{ProcessOptions, StderrFile};
use std::sync::Arc;

/// Runs `referee match`.
pub fn run(args: MatchArgs) -> Result<ExitCode, Failure> {
    let config = match_config::from_args(args)?;
    engine::with_game!(config.game, G => run_game::<G>(config))
}

fn validate<G: Game>(config: &MatchConfig) -> Result<G::Options, Failure> {
    let counts = G::player_counts();
    if !counts.contains(&config.bots.len()) {
        return Err(Failure::usage(format!(
            "{} is played by {} to {} players; {} bots were given (--bot NAME=COMMAND, once per seat)",
            G::NAME,
            counts.start(),
            counts.end(),
            config.bots.len()
        )));
    }
    check_bots::<G>(&config.bots)?;
    game_options::<G>(&config.options)
}

fn run_game<G: Game>(mut config: MatchConfig) -> Result<ExitCode, Failure> {
    let options = validate::<G>(&config)?;
    let stderr_dir = match &config.stderr_dir {
        Some(dir) => Some(Arc::new(super::private_dir::create(dir)?)),
        None => None,
    };
    let mut log = match &config.log {
        Some(path) => MatchLog::create(path)
            .map_err(|e| Failure::usage(format!("cannot create {}: {e}", path.display())))?,
        None => MatchLog::none(),
    };
    let outputs = config
        .log
        .iter()
        .chain(&config.stderr_dir)
        .chain(&config.refereeing.hide)
        .cloned()
        .collect();
    let process = super::process_setup::process_options(
        &config.refereeing,
        outputs,
        &mut config.bots,
        super::process_setup::WorkdirSource::CommandLine,
    )?;
    let record = until_interrupted(play::<G>(
        &config,
        &options,
        &process,
        stderr_dir.as_ref(),
        &mut log,
    ))?;
    match config.format {
        Format::Table => {
            out!("{}", standings::render(&record, G::SCORE_NAME));
            let seed_note = if config.seed_drawn {
                " (drawn; pass --seed to replay it)"
            } else {
                ""
            };
            outln!("seed: {}{seed_note}", record.seed);
            if let Some(path) = &config.log {
                outln!(
                    "log: {} (check it with: referee replay {})",
                    path.display(),
                    path.display()
                );
            }
        }
        Format::Json => {
            outln!(
                "{}",
                referee::untrusted::json::to_string_pretty(&record).expect("records serialize")
            );
        }
    }
    Ok(ExitCode::Success)
}

async fn play<G: Game>(
    config: &MatchConfig,
    options: &G::Options,
    process: &ProcessOptions,
    stderr_dir: Option<&Arc<SafeDir>>,
    log: &mut MatchLog,
) -> Result<MatchRecord, referee::runner::RunError> {
    let mut players = start_players::<G>(&config.bots, options, process, &|spec| {
        stderr_dir.map(|d| StderrFile::of_bot(d, &spec.name))
    })
    .await;
    let settings = MatchSettings {
        match_id: "match-1".to_string(),
        seed: config.seed,
        max_faults: config.refereeing.max_faults,
        policy: config.refereeing.policy,
    };
    let record = play_match(&settings, options, &mut players, log).await;
    shutdown_players(&mut players, process.exit_grace).await;
    record
}

/// Runs `work` on a one-thread runtime until it finishes, or until a signal comes (a failure
/// with [`ExitCode::Interrupted`]); a referee error is an internal failure. Then the runtime is
/// dropped, which drops any bot still running and so kills its process group, and the
/// referee's control groups are removed.
pub(super) fn until_interrupted<T, E: std::fmt::Display>(
    work: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, Failure> {
    let runtime = super::runtime()?;
    let outcome = runtime.block_on(async {
        let mut interrupt = Interrupt::catch();
        tokio::select! {
            result = work => Some(result),
            () = interrupt.wait() => None,
        }
    });
    drop(runtime);
    referee::seat::cgroup::cleanup();
    match outcome {
        None => Err(Failure {
            code: ExitCode::Interrupted,
            message: "interrupted; every bot process was stopped".into(),
        }),
        Some(result) => result.map_err(|e| Failure {
            code: ExitCode::Internal,
            message: e.to_string(),
        }),
    }
}

/// SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT, caught from the moment this is
/// made (make it before starting bots, so that no such signal can kill the referee with its
/// bots still running).
pub(super) struct Interrupt {
    signals: Vec<tokio::signal::unix::Signal>,
}

impl Interrupt {
    /// Starts catching the signals (inside the runtime).
    pub(super) fn catch() -> Self {
        use tokio::signal::unix::{SignalKind, signal};
        let kinds = [
            SignalKind::terminate(),
            SignalKind::interrupt(),
            SignalKind::hangup(),
            SignalKind::quit(),
        ];
        Interrupt {
            signals: kinds
                .into_iter()
                .map(|k| signal(k).expect("a signal handler"))
                .collect(),
        }
    }

    /// Resolves at the first signal.
    pub(super) async fn wait(&mut self) {
        let waits = self.signals.iter_mut().map(|s| Box::pin(s.recv()));
        futures::future::select_all(waits).await;
    }
}
