//! The settings of `referee match`, from a TOML file and flags (flags win), validated.

use super::Failure;
use super::args::{Format, MatchArgs};
use crate::games::GameKind;
use crate::seat::{BotSpec, Launch, spec::check_unique};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Default milliseconds per decision.
pub const DEFAULT_DECISION_MS: u64 = 1000;
/// Default milliseconds to start and answer hello.
pub const DEFAULT_STARTUP_MS: u64 = 10_000;
/// Default fault limit per bot and match.
pub const DEFAULT_MAX_FAULTS: u32 = 3;

/// A match file (`referee match match.toml`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchFile {
    game: Option<String>,
    seed: Option<u64>,
    log: Option<PathBuf>,
    time_limit_ms: Option<u64>,
    startup_limit_ms: Option<u64>,
    max_faults: Option<u32>,
    stderr_dir: Option<PathBuf>,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    bot: Vec<BotEntry>,
}

/// A `[[bot]]` entry of a config file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BotEntry {
    name: Option<String>,
    command: CommandValue,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum CommandValue {
    Line(String),
    List(Vec<String>),
}

/// A validated `referee match` configuration.
#[derive(Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// The players in seat order.
    pub bots: Vec<BotSpec>,
    /// The match seed.
    pub seed: u64,
    /// Whether the seed was drawn (not given).
    pub seed_drawn: bool,
    /// Where to write the log.
    pub log: Option<PathBuf>,
    /// Per-decision limit.
    pub decision_ms: u64,
    /// Start-up limit.
    pub startup_ms: u64,
    /// Fault limit.
    pub max_faults: u32,
    /// Where to save stderr.
    pub stderr_dir: Option<PathBuf>,
    /// Game options as JSON.
    pub options: serde_json::Value,
    /// Output format.
    pub format: Format,
}

/// Reads a TOML config file.
pub(super) fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    toml::from_str(&text).map_err(|e| {
        Failure::usage(format!(
            "{}: {}",
            path.display(),
            e.to_string().trim().replace('\n', " ")
        ))
    })
}

/// A seed drawn from the clock, for runs that were given none.
pub(super) fn drawn_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    crate::engine::seed::derive(nanos, "cli", u64::from(std::process::id()))
}

fn parse_option(kv: &str, table: &mut toml::Table) -> Result<(), Failure> {
    let (key, value) = kv
        .split_once('=')
        .ok_or_else(|| Failure::usage(format!("--option {kv:?}: expected KEY=VALUE")))?;
    let parsed: toml::Table = toml::from_str(&format!("v = {value}"))
        .or_else(|_| toml::from_str(&format!("v = {}", toml::Value::String(value.to_string()))))
        .map_err(|e| Failure::usage(format!("--option {kv:?}: {e}")))?;
    table.insert(key.trim().to_string(), parsed["v"].clone());
    Ok(())
}

/// Builds the configuration from the flags and the optional file.
///
/// # Errors
/// A usage [`Failure`] with one line saying what is wrong.
pub fn from_args(args: MatchArgs) -> Result<MatchConfig, Failure> {
    let file = match &args.config {
        Some(path) => read_toml(path)?,
        None => MatchFile::default(),
    };
    let game = game_kind(args.game, file.game)?;
    let bots = bot_specs(&args.bots, file.bot)?;
    let options = game_options(file.options, &args.refereeing.options)?;
    let limits = Refereeing::from(
        &args.refereeing,
        file.time_limit_ms,
        file.startup_limit_ms,
        file.max_faults,
    );
    let seed = args.seed.or(file.seed);
    Ok(MatchConfig {
        game,
        bots,
        seed_drawn: seed.is_none(),
        seed: seed.unwrap_or_else(drawn_seed),
        log: args.log.or(file.log),
        decision_ms: limits.decision_ms,
        startup_ms: limits.startup_ms,
        max_faults: limits.max_faults,
        stderr_dir: args.stderr_dir.or(file.stderr_dir),
        options,
        format: args.format,
    })
}

/// The bots from `--bot` flags, or else from the file's `[[bot]]` entries; names must be unique.
pub(super) fn bot_specs(flags: &[String], entries: Vec<BotEntry>) -> Result<Vec<BotSpec>, Failure> {
    let bots = if flags.is_empty() {
        entries
            .into_iter()
            .map(|entry| {
                let launch = match entry.command {
                    CommandValue::List(words) => Launch::Command(words),
                    CommandValue::Line(line) => {
                        BotSpec::parse(&line).map_err(Failure::usage)?.launch
                    }
                };
                BotSpec::new(entry.name, launch).map_err(Failure::usage)
            })
            .collect::<Result<Vec<_>, _>>()?
    } else {
        flags
            .iter()
            .map(|b| BotSpec::parse(b).map_err(Failure::usage))
            .collect::<Result<Vec<_>, _>>()?
    };
    check_unique(&bots).map_err(Failure::usage)?;
    Ok(bots)
}

/// The game options: the file's `[options]` table with `--option KEY=VALUE` flags on top.
pub(super) fn game_options(
    mut table: toml::Table,
    flags: &[String],
) -> Result<serde_json::Value, Failure> {
    for kv in flags {
        parse_option(kv, &mut table)?;
    }
    Ok(serde_json::to_value(table).expect("TOML values convert to JSON"))
}

/// The game named by the flag, or else by the file.
pub(super) fn game_kind(flag: Option<String>, file: Option<String>) -> Result<GameKind, Failure> {
    let name = flag
        .or(file)
        .ok_or_else(|| Failure::usage("no game given: use --game NAME (see 'referee games')"))?;
    GameKind::from_name(&name).map_err(Failure::usage)
}

/// Time limits and the fault limit: flags, else the file, else the defaults.
pub(super) struct Refereeing {
    pub decision_ms: u64,
    pub startup_ms: u64,
    pub max_faults: u32,
}

impl Refereeing {
    pub(super) fn from(
        flags: &super::args::RefereeingArgs,
        time_limit_ms: Option<u64>,
        startup_limit_ms: Option<u64>,
        max_faults: Option<u32>,
    ) -> Self {
        Refereeing {
            decision_ms: flags
                .time_limit_ms
                .or(time_limit_ms)
                .unwrap_or(DEFAULT_DECISION_MS)
                .max(1),
            startup_ms: flags
                .startup_limit_ms
                .or(startup_limit_ms)
                .unwrap_or(DEFAULT_STARTUP_MS)
                .max(1),
            max_faults: flags
                .max_faults
                .or(max_faults)
                .unwrap_or(DEFAULT_MAX_FAULTS)
                .max(1),
        }
    }
}
