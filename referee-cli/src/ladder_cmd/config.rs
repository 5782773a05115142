//! A ladder's TOML file: the game and its options, the table sizes, the limits every bot is
//! held to (the keys of `referee tournament`'s file), the fault policy and sandbox, the
//! `[build]`, `[lease]` and `[matchmaking]` tables, and the `[[bot]]`s it starts with.

use crate::Failure;
use crate::bot_settings::{PolicyArgs, SettingsArgs};
use ladder::config::{
    BuildSettings, LadderConfig, LeaseSettings, MatchmakingSettings, SeatSettings,
};
use referee::seat::SandboxMode;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A bot the ladder starts with, submitted by the admin for its owner.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseBot {
    /// Its name on the ladder.
    pub name: String,
    /// Its owner [default: its name].
    pub owner: Option<String>,
    /// Its language, or `builtin`.
    pub lang: String,
    /// Its file or directory (relative to the TOML file), or for `builtin` its name.
    pub path: String,
}

/// The table sizes: one, or `[min, max]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum Players {
    One(usize),
    Range([usize; 2]),
}

/// The ladder's own keys; any other must be a bot setting ([`SettingsArgs`]), checked when
/// the file is read.
#[derive(Debug, Deserialize)]
struct LadderFile {
    game: String,
    players: Option<Players>,
    seed: Option<u64>,
    #[serde(default)]
    options: toml::Table,
    max_faults: Option<u32>,
    #[serde(flatten)]
    policy: PolicyArgs,
    sandbox: Option<SandboxMode>,
    #[serde(default)]
    build: BuildSettings,
    #[serde(default)]
    lease: LeaseSettings,
    #[serde(default)]
    matchmaking: MatchmakingSettings,
    #[serde(default)]
    bot: Vec<HouseBot>,
    #[serde(flatten)]
    settings: toml::Table,
}

/// The ladder `path` describes, and its bots with their paths found from the file's directory.
///
/// # Errors
/// A usage failure for a file that cannot be read or holds what a ladder cannot take.
pub fn read(path: &Path) -> Result<(LadderConfig, Vec<HouseBot>, PathBuf), Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    let file: LadderFile = toml::from_str(&text).map_err(|e: toml::de::Error| {
        Failure::usage(format!("{}: {}", path.display(), e.to_string().trim()))
    })?;
    let seat = SettingsArgs::from_table(file.settings, &path.display().to_string())?;
    let game = engine::GameKind::from_name(&file.game)
        .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    let counts = engine::with_game!(game, G => engine::PlayerCounts::of::<G>());
    let (min_players, max_players) = match file.players {
        None => (counts.min, counts.max.min(4)),
        Some(Players::One(n)) => (n, n),
        Some(Players::Range([a, b])) => (a, b),
    };
    if min_players > max_players || !counts.contains(min_players) || !counts.contains(max_players) {
        return Err(Failure::usage(format!(
            "{}: players {min_players} to {max_players}: {counts}",
            path.display()
        )));
    }
    let sandbox = file.sandbox.unwrap_or_default();
    if !seat.env.is_empty() {
        return Err(Failure::usage(format!(
            "{}: env: a ladder's bots get no variables of their own",
            path.display()
        )));
    }
    let resolved = seat.resolve(None);
    let config = LadderConfig {
        game: file.game,
        options: serde_json::to_value(&file.options).unwrap_or_default(),
        min_players,
        max_players,
        // A ladder's seed decides every deal of every match to come: unless the file gives one,
        // it is drawn here and kept in the database, known to no one.
        seed: file.seed.unwrap_or_else(rand::random),
        seat: SeatSettings {
            limits: resolved.time.limits,
            overruns: resolved.time.overruns,
            overrun_ms: resolved.time.overrun_ms,
            resources: resolved.limits,
            time_basis: resolved.time.basis,
            turn_isolation: resolved.time.isolate,
        },
        max_faults: file
            .max_faults
            .unwrap_or(crate::bot_settings::DEFAULT_MAX_FAULTS)
            .max(1),
        policy: file.policy.resolve(&PolicyArgs::default()),
        sandbox,
        build: file.build,
        lease: file.lease,
        matchmaking: file.matchmaking,
    };
    let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    Ok((config, file.bot, base))
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn the_shipped_example_is_a_ladder_of_the_sample_bots_with_a_secret_seed() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/ladder.toml");
        let (config, bots, base) = read(&path).unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(
            (config.game.as_str(), config.min_players, config.max_players),
            ("vabanque", 3, 5)
        );
        assert_eq!(bots.len(), 6);
        for bot in bots.iter().filter(|b| b.lang != "builtin") {
            assert!(base.join(&bot.path).is_file(), "{}", bot.path);
        }
        // No seed in the file: each read draws its own.
        let (again, _, _) = read(&path).unwrap_or_else(|e| panic!("{}", e.message));
        assert_ne!(config.seed, again.seed);
    }

    #[test]
    fn the_class_ladder_example_is_a_ladder_of_two_baselines() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/class-ladder.toml");
        let (config, bots, _) = read(&path).unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(
            (config.game.as_str(), config.min_players, config.max_players),
            ("vabanque", 3, 4)
        );
        let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["baseline", "teacher"]);
        assert!(bots.iter().all(|b| b.lang == "builtin"));
    }
}
