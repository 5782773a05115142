//! The settings of `referee tournament`, from a TOML file and flags (flags win).

use super::Failure;
use super::args::{BoardFormat, ScheduleArg, TournamentArgs};
use super::bot_settings::process_options;
use super::match_config::{
    BotEntry, Refereeing, RefereeingFile, bot_specs, drawn_seed, game_kind, game_options, read_toml,
};
use crate::tournament::{Format, TournamentConfig};
use serde::Deserialize;
use std::path::PathBuf;

/// A tournament file (`referee tournament tournament.toml`); every key is documented in
/// `docs/tournament.md`.
#[derive(Debug, Default, Deserialize)]
struct TournamentFile {
    game: Option<String>,
    players: Option<usize>,
    matches: Option<u64>,
    seed: Option<u64>,
    jobs: Option<usize>,
    pin: Option<bool>,
    out: Option<PathBuf>,
    schedule: Option<Format>,
    candidate: Option<String>,
    duplicate: Option<bool>,
    logs: Option<bool>,
    format: Option<BoardFormat>,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    bot: Vec<BotEntry>,
    #[serde(flatten)]
    refereeing: RefereeingFile,
}

/// `referee tournament`'s settings: the tournament to run, and how to show it.
#[derive(Debug)]
pub struct TournamentSettings {
    /// The tournament (the player and match counts are settled against the game when it runs).
    pub config: TournamentConfig,
    /// Whether the seed was drawn at random because none was given or recorded.
    pub seed_drawn: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Leaderboard format.
    pub board: BoardFormat,
}

fn parse_shard(text: &str) -> Result<(u64, u64), Failure> {
    let bad = || {
        Failure::usage(format!(
            "--shard {text:?}: expected K/N with 1 ≤ K ≤ N, e.g. 2/8"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k - 1, n))
}

/// Builds the configuration from the flags and the optional file.
///
/// # Errors
/// A usage [`Failure`] with one line saying what is wrong.
pub fn from_args(args: TournamentArgs) -> Result<TournamentSettings, Failure> {
    let file: TournamentFile = match &args.config {
        Some(path) => read_toml(path)?,
        None => TournamentFile::default(),
    };
    let game = game_kind(args.game, file.game)?;
    let (refereeing, settings) = Refereeing::from(
        &args.refereeing,
        file.refereeing,
        args.config.clone(),
        "tournament",
    )?;
    let bots = bot_specs(&args.bots, file.bot, &args.refereeing.settings, &settings)?;
    let format = match args.schedule {
        Some(ScheduleArg::RoundRobin) => Format::RoundRobin,
        Some(ScheduleArg::Sampled) => Format::Sampled,
        Some(ScheduleArg::Gauntlet) => Format::Gauntlet,
        None => file.schedule.unwrap_or_default(),
    };
    let candidate = match args.candidate.or(file.candidate) {
        Some(_) if format != Format::Gauntlet => {
            return Err(Failure::usage(
                "--candidate is for the gauntlet schedule (--schedule gauntlet)",
            ));
        }
        None => 0,
        Some(name) => bots
            .iter()
            .position(|b| b.name == name)
            .ok_or_else(|| Failure::usage(format!("--candidate {name}: no bot of that name")))?,
    };
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let jobs = args.jobs.or(file.jobs).unwrap_or(cores).max(1);
    let out = args
        .out
        .or(file.out)
        .unwrap_or_else(|| PathBuf::from("tournament-out"));
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    // Without a seed, the results directory's own is reused (to resume), else one is drawn: a
    // fixed default would let anyone compute every deal of a tournament before it is played.
    let given = args.seed.or(file.seed);
    let recorded = crate::tournament::results::read_meta(&out)
        .ok()
        .map(|m| m.seed);
    if given.is_none() && recorded.is_none() && shard.is_some() {
        return Err(Failure::usage(
            "--shard needs --seed (or `seed` in the file): every shard must play the same schedule",
        ));
    }
    let seed = given.or(recorded);
    let process = process_options(
        refereeing.sandbox,
        std::iter::once(out.clone())
            .chain(refereeing.hide.iter().cloned())
            .collect(),
        &bots,
    )?;
    Ok(TournamentSettings {
        config: TournamentConfig {
            game,
            options: game_options(file.options, &args.refereeing.options)?,
            bots,
            players: args.players.or(file.players),
            matches: args.matches.or(file.matches),
            seed: seed.unwrap_or_else(drawn_seed),
            format,
            candidate,
            duplicate: args.duplicate.or(file.duplicate).unwrap_or(true),
            shard,
            resume: args.resume,
            out,
            logs: args.logs || file.logs.unwrap_or(false),
            jobs,
            pin: args.pin.or(file.pin).unwrap_or(jobs <= cores),
            max_faults: refereeing.max_faults,
            policy: refereeing.policy,
            process,
        },
        seed_drawn: seed.is_none(),
        quiet: args.quiet,
        board: args.format.or(file.format).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_shard;

    #[test]
    fn shards_are_one_based_on_the_command_line() {
        assert_eq!(parse_shard("1/4").unwrap(), (0, 4));
        assert_eq!(parse_shard("4/4").unwrap(), (3, 4));
        assert!(parse_shard("0/4").is_err());
        assert!(parse_shard("5/4").is_err());
        assert!(parse_shard("x").is_err());
    }
}
