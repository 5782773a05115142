//! The settings a bot is held to — time control and resource limits — given on the command
//! line, at the top of a config file, or per `[[bot]]` entry. One struct serves all three, so
//! each key is defined once; the most specific source wins except that flags override the file.

use super::Failure;
use clap::Args;
use protocol::Limits;
use referee::runner::{FaultPolicy, Penalty};
use referee::seat::{BotSettings, ResourceLimits, SandboxMode, TimeBasis, TimeControl};
use serde::Deserialize;
use std::path::PathBuf;

/// Default milliseconds per decision.
pub const DEFAULT_DECISION_MS: u64 = 1000;
/// Default milliseconds to start and answer hello.
pub const DEFAULT_STARTUP_MS: u64 = 10_000;
/// Default fault limit per bot and match.
pub const DEFAULT_MAX_FAULTS: u32 = 3;

/// Time control and resource limits, each optional (see `docs/time-controls.md` and
/// `docs/security.md`).
#[derive(Clone, Debug, Default, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsArgs {
    /// Milliseconds a bot has for each decision [default: 1000].
    #[arg(long, value_name = "MS")]
    pub time_limit_ms: Option<u64>,
    /// Milliseconds a bot has to start and answer hello [default: 10000].
    #[arg(long, value_name = "MS")]
    pub startup_limit_ms: Option<u64>,
    /// Milliseconds for a bot's first decision of each match (JIT or VM warm-up)
    /// [default: the per-decision limit].
    #[arg(long, value_name = "MS")]
    pub first_decision_ms: Option<u64>,
    /// A chess clock: milliseconds for all of a bot's decisions in one match, 0 for none
    /// [default: none].
    #[arg(long, value_name = "MS")]
    pub bank_ms: Option<u64>,
    /// Milliseconds added to the bank after each decision [default: 0].
    #[arg(long, value_name = "MS")]
    pub increment_ms: Option<u64>,
    /// Late replies per match accepted without a fault (machine noise) [default: 0].
    #[arg(long, value_name = "N")]
    pub overruns: Option<u32>,
    /// How late, in milliseconds, a reply may be and still count as a soft overrun
    /// [default: 10% of the per-decision limit].
    #[arg(long, value_name = "MS")]
    pub overrun_ms: Option<u64>,
    /// Memory limit per bot process in MiB, 0 for none [default: 2048 where a control group can
    /// enforce it].
    #[arg(long, value_name = "MIB")]
    pub memory_mb: Option<u64>,
    /// CPU seconds per bot process over its life, 0 for none [default: none].
    #[arg(long, value_name = "S")]
    pub cpu_s: Option<u64>,
    /// Processes and threads per bot, 0 for none [default: 256].
    #[arg(long, value_name = "N")]
    pub processes: Option<u64>,
    /// Largest file a bot may write, in MiB, 0 for none [default: 256].
    #[arg(long, value_name = "MIB")]
    pub file_mb: Option<u64>,
    /// CPU quota of all of a bot's processes together, in percent of one core, 0 for none
    /// [default: 100 where a control group can enforce it].
    #[arg(long, value_name = "PERCENT")]
    pub cpu_percent: Option<u64>,
    /// What a bot's workdir may hold, all its files together, in MiB, 0 for none [default: 256].
    #[arg(long, value_name = "MIB")]
    pub workdir_mb: Option<u64>,
    /// Stderr the referee reads of a bot per decision, in KiB, 0 for no bound; past it the bot
    /// waits on its own writes until its next request [default: 1024].
    #[arg(long, value_name = "KIB")]
    pub stderr_kb: Option<u64>,
    /// Stderr the referee reads of a bot per match, in MiB, 0 for no bound [default: 16].
    #[arg(long, value_name = "MIB")]
    pub stderr_match_mb: Option<u64>,
    /// What the time limit is charged on: `wall`, or `cpu` (the CPU time of the bot's
    /// processes, with a wall-clock cap of 3 times the limit) [default: wall].
    #[arg(long, value_parser = super::choices::time_basis())]
    pub time_basis: Option<TimeBasis>,
    /// Freeze a bot's processes while it is not on move [default: false].
    #[arg(long, value_name = "BOOL")]
    pub turn_isolation: Option<bool>,
    /// A variable of every bot's environment, which holds only a few of the referee's
    /// (docs/security.md); repeatable.
    #[arg(long = "env", value_name = "NAME=VALUE", value_parser = env_flag)]
    #[serde(default, deserialize_with = "env_table")]
    pub env: Vec<(String, String)>,
}

/// A `--env NAME=VALUE` flag.
fn env_flag(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: expected NAME=VALUE"))?;
    env_var(name, value)
}

/// An `env = { NAME = "VALUE" }` table of a config file, in its order.
fn env_table<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    let table = toml::Table::deserialize(d)?;
    table
        .into_iter()
        .map(|(name, value)| match value {
            toml::Value::String(value) => env_var(&name, &value),
            other => Err(format!(
                "env: {name} = {other}: a value must be a string (in quotes)"
            )),
        })
        .collect::<Result<_, _>>()
        .map_err(serde::de::Error::custom)
}

/// One variable of a bot's environment, checked.
fn env_var(name: &str, value: &str) -> Result<(String, String), String> {
    if !referee::seat::environment::is_valid_name(name) {
        return Err(format!(
            "env: {name:?} is not a variable name: use letters, digits and '_', not starting with a digit"
        ));
    }
    if value.contains('\0') {
        return Err(format!("env: the value of {name} holds a NUL byte"));
    }
    Ok((name.to_string(), value.to_string()))
}

impl SettingsArgs {
    /// Reads the settings keys left over from a config table.
    ///
    /// # Errors
    /// A usage failure naming an unknown key or a bad value, prefixed with `what`.
    pub(super) fn from_table(table: toml::Table, what: &str) -> Result<Self, Failure> {
        toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| {
                let text = e.to_string().trim().replace('\n', " ");
                // Serde lists only the settings keys as expected; the file takes more.
                let text = match text.split_once(", expected one of") {
                    Some((unknown, _)) => {
                        format!("{unknown} (the keys are listed in docs/tournament.md)")
                    }
                    None => text,
                };
                Failure::usage(format!("{what}: {text}"))
            })
    }

    /// Each setting from `self`, or else from `other`; the variables of both environments,
    /// `self`'s over `other`'s.
    pub(super) fn or(&self, other: &SettingsArgs) -> SettingsArgs {
        SettingsArgs {
            time_limit_ms: self.time_limit_ms.or(other.time_limit_ms),
            startup_limit_ms: self.startup_limit_ms.or(other.startup_limit_ms),
            first_decision_ms: self.first_decision_ms.or(other.first_decision_ms),
            bank_ms: self.bank_ms.or(other.bank_ms),
            increment_ms: self.increment_ms.or(other.increment_ms),
            overruns: self.overruns.or(other.overruns),
            overrun_ms: self.overrun_ms.or(other.overrun_ms),
            memory_mb: self.memory_mb.or(other.memory_mb),
            cpu_s: self.cpu_s.or(other.cpu_s),
            processes: self.processes.or(other.processes),
            file_mb: self.file_mb.or(other.file_mb),
            cpu_percent: self.cpu_percent.or(other.cpu_percent),
            workdir_mb: self.workdir_mb.or(other.workdir_mb),
            stderr_kb: self.stderr_kb.or(other.stderr_kb),
            stderr_match_mb: self.stderr_match_mb.or(other.stderr_match_mb),
            time_basis: self.time_basis.or(other.time_basis),
            turn_isolation: self.turn_isolation.or(other.turn_isolation),
            env: other.env.iter().chain(&self.env).cloned().collect(),
        }
    }

    /// The bot settings these give, defaults filled in.
    pub(super) fn resolve(&self, workdir: Option<PathBuf>) -> BotSettings {
        let decision_ms = self.time_limit_ms.unwrap_or(DEFAULT_DECISION_MS).max(1);
        BotSettings {
            time: TimeControl {
                limits: Limits {
                    startup_ms: self.startup_limit_ms.unwrap_or(DEFAULT_STARTUP_MS).max(1),
                    decision_ms,
                    first_decision_ms: self.first_decision_ms,
                    bank_ms: self.bank_ms.filter(|&ms| ms > 0),
                    increment_ms: self.increment_ms.filter(|&ms| ms > 0),
                },
                overruns: self.overruns.unwrap_or(0),
                overrun_ms: self.overrun_ms.unwrap_or(decision_ms / 10),
                basis: self.time_basis.unwrap_or_default(),
                isolate: self.turn_isolation.unwrap_or(false),
            },
            limits: ResourceLimits {
                memory_mb: self.memory_mb,
                cpu_s: self.cpu_s,
                processes: self.processes,
                file_mb: self.file_mb,
                cpu_percent: self.cpu_percent,
                workdir_mb: self.workdir_mb,
                stderr_kb: self.stderr_kb,
                stderr_match_mb: self.stderr_match_mb,
            },
            workdir,
            env: self.env.iter().cloned().collect(),
        }
    }
}

/// What faults cost, from flags and a config file: `substitute` or `forfeit` per class.
#[derive(Clone, Debug, Default, Args, Deserialize)]
pub struct PolicyArgs {
    /// What a timeout costs [default: substitute].
    #[arg(long, value_parser = super::choices::penalty(), value_name = "PENALTY")]
    pub on_timeout: Option<Penalty>,
    /// What an illegal or wrongly shaped action costs [default: substitute].
    #[arg(long, value_parser = super::choices::penalty(), value_name = "PENALTY")]
    pub on_illegal: Option<Penalty>,
    /// What a stray line on stdout (not JSON, a wrong id) costs [default: substitute].
    #[arg(long, value_parser = super::choices::penalty(), value_name = "PENALTY")]
    pub on_protocol: Option<Penalty>,
    /// What a crash, a failed start or a killed process costs [default: forfeit].
    #[arg(long, value_parser = super::choices::penalty(), value_name = "PENALTY")]
    pub on_crash: Option<Penalty>,
}

impl PolicyArgs {
    /// The policy: flags, else the file, else the defaults.
    pub(super) fn resolve(&self, file: &PolicyArgs) -> FaultPolicy {
        let d = FaultPolicy::default();
        FaultPolicy {
            timeout: self.on_timeout.or(file.on_timeout).unwrap_or(d.timeout),
            illegal: self.on_illegal.or(file.on_illegal).unwrap_or(d.illegal),
            protocol: self.on_protocol.or(file.on_protocol).unwrap_or(d.protocol),
            crash: self.on_crash.or(file.on_crash).unwrap_or(d.crash),
        }
    }
}

/// The sandbox mode: the flag, else the file, else `auto`.
pub(super) fn sandbox_mode(flag: Option<SandboxMode>, file: Option<SandboxMode>) -> SandboxMode {
    flag.or(file).unwrap_or_default()
}

/// The max-faults setting: the flag, else the file, else the default (at least 1).
pub(super) fn max_faults(flag: Option<u32>, file: Option<u32>) -> u32 {
    flag.or(file).unwrap_or(DEFAULT_MAX_FAULTS).max(1)
}
