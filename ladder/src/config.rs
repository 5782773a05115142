//! A ladder's settings, as `referee ladder init` stores them: the game, the table sizes, the
//! limits every bot is held to, the fault policy, the sandbox, and the settings of builds,
//! leases and matchmaking. The command line reads them from TOML (the keys of
//! `referee tournament`'s file where they mean the same); the store keeps them as JSON.

use referee::runner::FaultPolicy;
use referee::seat::{ResourceLimits, SandboxMode, TimeBasis};
use serde::{Deserialize, Serialize};

/// A ladder's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderConfig {
    /// The game.
    pub game: String,
    /// The game's options as JSON (`{}` for its defaults).
    pub options: serde_json::Value,
    /// The smallest table the matchmaker seats.
    pub min_players: usize,
    /// The largest table the matchmaker seats.
    pub max_players: usize,
    /// The ladder's seed: every match seed derives from it and the job's id.
    pub seed: u64,
    /// What every bot is held to.
    pub seat: SeatSettings,
    /// Faults after which a bot is stopped for the rest of a match.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: FaultPolicy,
    /// The sandbox bots (and builds) run in.
    pub sandbox: SandboxMode,
    /// Builds: caps and recipes.
    pub build: BuildSettings,
    /// Leases of jobs to workers.
    pub lease: LeaseSettings,
    /// Matchmaking.
    pub matchmaking: MatchmakingSettings,
}

/// The time control and resource limits of every seat (those of a `tournament.json` bot).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatSettings {
    /// The time limits, as `hello` tells them.
    pub limits: protocol::Limits,
    /// Late replies per match accepted as soft overruns.
    pub overruns: u32,
    /// How late a soft overrun may be, in milliseconds.
    pub overrun_ms: u64,
    /// Resource limits as configured.
    pub resources: ResourceLimits,
    /// What the time limit is charged on.
    #[serde(default)]
    pub time_basis: TimeBasis,
    /// Whether a bot's processes are frozen while it is not on move.
    #[serde(default)]
    pub turn_isolation: bool,
}

impl SeatSettings {
    /// A seat started by `command` (run from its artifact, or `builtin:NAME`) under the seat
    /// name `name`, held to these settings.
    pub fn bot(&self, name: &str, command: &str) -> referee::tournament::meta::MetaBot {
        referee::tournament::meta::MetaBot {
            name: name.to_owned(),
            command: command.to_owned(),
            limits: self.limits,
            overruns: self.overruns,
            overrun_ms: self.overrun_ms,
            resources: self.resources,
            time_basis: self.time_basis,
            turn_isolation: self.turn_isolation,
        }
    }
}

/// Caps on uploads and builds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BuildSettings {
    /// The largest upload accepted, in bytes as sent.
    pub upload_bytes: u64,
    /// The most an upload may unpack to, all files together.
    pub unpacked_bytes: u64,
    /// The most files an upload may hold.
    pub files: u64,
    /// Wall seconds a build may take.
    pub time_s: u64,
    /// Memory a build may use, in MiB.
    pub memory_mb: u64,
    /// What a build's directory may hold, in MiB.
    pub disk_mb: u64,
}

impl Default for BuildSettings {
    fn default() -> Self {
        BuildSettings {
            upload_bytes: 16 << 20,
            unpacked_bytes: 64 << 20,
            files: 2000,
            time_s: 300,
            memory_mb: 2048,
            disk_mb: 512,
        }
    }
}

/// How long a worker holds a job without news.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LeaseSettings {
    /// Seconds a lease lasts from its claim or its last heartbeat.
    pub seconds: u64,
    /// Seconds between a worker's heartbeats.
    pub heartbeat_s: u64,
    /// Leases a job may lose before it fails as a fault of the platform.
    pub attempts: u32,
}

impl Default for LeaseSettings {
    fn default() -> Self {
        LeaseSettings {
            seconds: 60,
            heartbeat_s: 10,
            attempts: 3,
        }
    }
}

/// How the matchmaker chooses tables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MatchmakingSettings {
    /// Match jobs kept queued ahead of the workers.
    pub queue: usize,
    /// Seconds before the same table (the same versions) may be seated again.
    pub repeat_s: u64,
    /// Whether the card games' deals are played once per seat rotation (duplicate groups).
    pub duplicate: bool,
}

impl Default for MatchmakingSettings {
    fn default() -> Self {
        MatchmakingSettings {
            queue: 8,
            repeat_s: 60,
            duplicate: true,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small Vabanque ladder's settings, for tests.
    pub(crate) fn config() -> LadderConfig {
        LadderConfig {
            game: "vabanque".into(),
            options: serde_json::json!({}),
            min_players: 3,
            max_players: 4,
            seed: 1,
            seat: SeatSettings {
                limits: protocol::Limits::new(10_000, 1000),
                overruns: 0,
                overrun_ms: 100,
                resources: ResourceLimits::default(),
                time_basis: TimeBasis::Wall,
                turn_isolation: false,
            },
            max_faults: 3,
            policy: FaultPolicy::default(),
            sandbox: SandboxMode::Auto,
            build: BuildSettings::default(),
            lease: LeaseSettings::default(),
            matchmaking: MatchmakingSettings::default(),
        }
    }
}
