//! Command-line arguments (clap). Converted to plain configs before anything runs.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Referee and tournament harness for bot programs in any language.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one match between bots and print the standings.
    Match(MatchArgs),
    /// Re-check a match log: every action legal, the result the one the rules give.
    Replay(ReplayArgs),
    /// Write the JSON Schema of every protocol message.
    Schema(SchemaArgs),
    /// List the games, their player counts and built-in bots.
    Games,
}

/// Output formats for results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people.
    #[default]
    Table,
    /// JSON for programs.
    Json,
}

/// `referee match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// A TOML file with the match settings; flags given as well override it.
    pub config: Option<PathBuf>,
    /// The game (see `referee games`).
    #[arg(long)]
    pub game: Option<String>,
    /// A player, in seat order: NAME=COMMAND, COMMAND, or builtin:NAME (e.g. builtin:random).
    /// The command is split like a shell would.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    pub bots: Vec<String>,
    /// The match seed (a random one is drawn and printed when absent).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the match log (JSON lines) to this file, for `referee replay`.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Milliseconds a bot has for each decision [default: 1000].
    #[arg(long, value_name = "MS")]
    pub time_limit_ms: Option<u64>,
    /// Milliseconds a bot has to start and answer hello [default: 10000].
    #[arg(long, value_name = "MS")]
    pub startup_limit_ms: Option<u64>,
    /// Faults after which a bot is stopped and the referee plays for it [default: 3].
    #[arg(long, value_name = "N")]
    pub max_faults: Option<u32>,
    /// Save each bot's stderr (capped at 1 MiB) to DIR/NAME.stderr.
    #[arg(long, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// A game option, KEY=VALUE (VALUE in TOML syntax); repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `referee replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The match log to check.
    pub file: PathBuf,
}

/// `referee schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Write one file per schema into this directory instead of printing them.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}
