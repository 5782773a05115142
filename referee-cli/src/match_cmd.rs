//! `referee match`: one match, standings printed, children always stopped.

use super::Failure;
use super::args::{Format, MatchArgs};
use super::match_config::{self, MatchConfig};
use super::output::{out, outln};
use super::standings;
use engine::Game;
use protocol::ExitCode;
use referee::policy::BotProcesses;
use referee::runner::{MatchError, MatchLog, MatchReporter, run_match};
use std::sync::Arc;

/// Runs `referee match`.
pub fn run(args: MatchArgs) -> Result<ExitCode, Failure> {
    let config = match_config::from_args(args)?;
    engine::with_game!(config.game, G => run_game::<G>(config))
}

/// A match's failure as the command line says it: a wrong player count names the flag.
fn failure(error: MatchError) -> Failure {
    match error {
        MatchError::Players { .. } => {
            Failure::usage(format!("{error} (--bot NAME=COMMAND, once per seat)"))
        }
        error => error.into(),
    }
}

fn run_game<G: Game>(config: MatchConfig) -> Result<ExitCode, Failure> {
    let to_play = referee::runner::MatchConfig {
        game: config.game,
        options: config.options.clone(),
        bots: config.bots.clone(),
        seed: config.seed,
        match_id: "match-1".to_string(),
        max_faults: config.refereeing.max_faults,
        policy: config.refereeing.policy,
        process: config.refereeing.process.clone(),
        outputs: config
            .log
            .iter()
            .chain(&config.stderr_dir)
            .cloned()
            .collect(),
    };
    to_play.check().map_err(failure)?;
    let stderr_dir = match &config.stderr_dir {
        Some(dir) => Some(Arc::new(super::private_dir::create(dir)?)),
        None => None,
    };
    let mut log = match &config.log {
        Some(path) => MatchLog::create(path)
            .map_err(|e| Failure::usage(format!("cannot create {}: {e}", path.display())))?,
        None => MatchLog::none(),
    };
    let mut notices = Notices {
        verbose: config.refereeing.verbose,
    };
    let record = until_interrupted(run_match(
        &to_play,
        stderr_dir.as_ref(),
        &mut log,
        &mut notices,
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

/// Says how a match's bots run, before it starts.
pub(super) struct Notices {
    /// Each notice in full.
    pub verbose: bool,
}

impl MatchReporter for Notices {
    fn processes(&mut self, processes: &BotProcesses) {
        super::output::notices(&processes.notices, self.verbose);
    }
}

/// Runs `work` on a one-thread runtime until it finishes, or until a signal comes (a failure
/// with [`ExitCode::Interrupted`]); an error is the failure it converts to. Then the runtime is
/// dropped, which drops any bot still running and so kills its process group, and the
/// referee's control groups are removed.
pub(super) fn until_interrupted<T, E: Into<Failure>>(
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
        Some(result) => result.map_err(Into::into),
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
