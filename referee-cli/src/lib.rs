//! The `referee` command line: arguments are parsed into plain, validated configs here, then
//! handed to the `referee` library, and what it returns is rendered. The library sees no clap type.
#![warn(missing_docs)]

mod args;
mod bench_cmd;
mod bench_tournament;
mod board_render;
mod bot_render;
mod bot_settings;
mod check_cmd;
mod check_render;
mod choices;
mod ladder_cmd;
mod leaderboard_cmd;
mod match_cmd;
mod match_config;
mod new_bot_cmd;
mod option_order;
mod output;
mod private_dir;
mod replace_cmd;
mod replay_cmd;
mod replay_html;
mod report_cmd;
mod rerun_cmd;
mod rerun_difference;
mod run_plan;
mod stand_in_cmd;
mod standings;
mod tournament_cmd;
mod tournament_config;

use output::{errln, outln};
use protocol::ExitCode;

/// A failure that ends the command, with its exit code: the error type of every command, which
/// reaches [`main`] inside an [`anyhow::Error`] (any other error there ends the command as an
/// internal error).
#[derive(Debug)]
pub struct Failure {
    /// The exit code.
    pub code: ExitCode,
    /// One line for the user.
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl Failure {
    /// The user's input was refused.
    pub fn usage(message: impl std::fmt::Display) -> Self {
        Failure {
            code: ExitCode::Usage,
            message: message.to_string(),
        }
    }
}

/// A library error whose variants say whether it is the caller's: a usage failure then, else an
/// internal one.
macro_rules! failure_from {
    ($($error:ty),*) => {$(
        impl From<$error> for Failure {
            fn from(error: $error) -> Self {
                Failure {
                    code: if error.is_usage() { ExitCode::Usage } else { ExitCode::Internal },
                    message: error.to_string(),
                }
            }
        }
    )*};
}

failure_from!(
    referee::runner::MatchError,
    referee::tournament::rerun::RerunError,
    referee::tournament::replace::ReplaceError,
    referee::tournament::TournamentError
);

/// A failure of the referee itself while playing: internal.
impl From<referee::runner::RunError> for Failure {
    fn from(error: referee::runner::RunError) -> Self {
        Failure {
            code: ExitCode::Internal,
            message: error.to_string(),
        }
    }
}

/// The runtime a command runs its matches on: one thread; bots run in their own processes.
fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure {
            code: ExitCode::Internal,
            message: format!("cannot start the runtime: {e}"),
        })
}

/// Runs the `referee` command with the process's arguments and returns its exit code.
pub fn main() -> i32 {
    // Another process of the same user cannot read the referee's memory or open its pipes
    // through /proc/PID/fd, and no core dump of it (which would hold every hand) is written.
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0);
    }
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match option_order::parse(&argv) {
        Ok(cli) => cli,
        Err(option_order::Refusal::Clap(err)) => {
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::Usage.code()
            } else {
                ExitCode::Success.code()
            };
        }
        Err(option_order::Refusal::Order(message)) => {
            errln!("referee: {message}");
            return ExitCode::Usage.code();
        }
    };
    match dispatch(cli) {
        Ok(code) => code.code(),
        Err(error) => {
            let code = error
                .downcast_ref::<Failure>()
                .map_or(ExitCode::Internal, |failure| failure.code);
            // One line: a name or a message it quotes cannot start another.
            errln!(
                "referee: {}",
                referee::untrusted::shown(&format!("{error:#}"))
            );
            code.code()
        }
    }
}

/// Runs the command `cli` names.
fn dispatch(cli: args::Cli) -> anyhow::Result<ExitCode> {
    Ok(match cli.command {
        args::Command::Match(args) => match_cmd::run(args)?,
        args::Command::Replay(args) => replay_cmd::run(args)?,
        args::Command::Schema(args) => schema(args)?,
        args::Command::Tournament(args) => tournament_cmd::run(args)?,
        args::Command::Leaderboard(args) => leaderboard_cmd::run_leaderboard(args)?,
        args::Command::Merge(args) => leaderboard_cmd::run_merge(args)?,
        args::Command::Rerun(args) => rerun_cmd::run(args)?,
        args::Command::Report(args) => report_cmd::run(args)?,
        args::Command::Bench(args) => bench_cmd::run(args)?,
        args::Command::Check(args) => check_cmd::run(args)?,
        args::Command::NewBot(args) => new_bot_cmd::run(args)?,
        args::Command::Ladder(args) => ladder_cmd::run(args)?,
        args::Command::StandIn(args) => stand_in_cmd::run(args)?,
        args::Command::BenchPong => {
            referee::bench::pipe::pong()?;
            ExitCode::Success
        }
        args::Command::Games => {
            for kind in engine::GameKind::ALL {
                use engine::Game;
                engine::with_game!(kind, G => outln!(
                    "{}\t{}-{} players\tbuilt-in bots: {}",
                    kind.name(),
                    G::player_counts().start(),
                    G::player_counts().end(),
                    engine::strategy::builtin_names::<G>().join(", ")
                ));
            }
            ExitCode::Success
        }
    })
}

fn schema(args: args::SchemaArgs) -> Result<ExitCode, Failure> {
    // The protocol's messages, then the ladder API's bodies.
    let mut files = referee::schema::all();
    files.extend(ladder::api::schemas());
    match args.out {
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .map_err(|e| Failure::usage(format!("cannot create {}: {e}", dir.display())))?;
            for file in files {
                let path = dir.join(file.name);
                std::fs::write(&path, file.text)
                    .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
                outln!("wrote {}", path.display());
            }
        }
        None => {
            for file in files {
                outln!("// {}\n{}", file.name, file.text);
            }
        }
    }
    Ok(ExitCode::Success)
}
