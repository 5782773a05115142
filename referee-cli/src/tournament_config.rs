//! The settings of `referee tournament`, from a TOML file and flags (flags win).

use super::Failure;
use super::args::{BoardFormat, ScheduleArg, TournamentArgs};
use super::board_render::Legend;
use super::match_config::{
    BotEntry, Refereeing, RefereeingFile, bot_specs, drawn_seed, game_kind, game_options, read_toml,
};
use referee::tournament::{FormatSettings, FormatSpec, NavaSpec, ScheduleKind, TournamentConfig};
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
    schedule: Option<ScheduleKind>,
    candidate: Option<String>,
    rounds: Option<usize>,
    hands: Option<usize>,
    duplicate: Option<bool>,
    logs: Option<bool>,
    check: Option<bool>,
    /// The leaderboard's output format, read as text so that a schedule written here is told
    /// where it belongs.
    format: Option<String>,
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
    /// Whether each process bot goes through `referee check` before the first match.
    pub check: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Notices about how bots run in full (`--verbose`).
    pub verbose: bool,
    /// Leaderboard format.
    pub board: BoardFormat,
    /// Whether the leaderboard has its legend.
    pub legend: Legend,
}

/// The file's `format`: the leaderboard's output format; a schedule's name there is refused
/// with the key it belongs to.
fn board_format(text: &str) -> Result<BoardFormat, Failure> {
    use clap::ValueEnum;
    if let Ok(board) = BoardFormat::from_str(text, false) {
        return Ok(board);
    }
    let names = |values: &[BoardFormat]| -> Vec<String> {
        values
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect()
    };
    let hint = if ScheduleArg::from_str(text, false).is_ok() {
        format!("; {text:?} is a schedule: write `schedule = {text:?}`")
    } else {
        String::new()
    };
    Err(Failure::usage(format!(
        "format = {text:?}: `format` is the leaderboard's output format ({}){hint}",
        names(BoardFormat::value_variants()).join(", ")
    )))
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
    let schedule = match args.schedule {
        Some(ScheduleArg::RoundRobin) => ScheduleKind::RoundRobin,
        Some(ScheduleArg::Sampled) => ScheduleKind::Sampled,
        Some(ScheduleArg::Gauntlet) => ScheduleKind::Gauntlet,
        Some(ScheduleArg::Nava) => ScheduleKind::Nava,
        None => file.schedule.unwrap_or_default(),
    };
    let rounds = args.rounds.or(file.rounds);
    let hands = args.hands.or(file.hands);
    let settings = match schedule {
        ScheduleKind::Nava => {
            let default = NavaSpec::default();
            Some(FormatSettings::Nava(NavaSpec {
                rounds: rounds.unwrap_or(default.rounds),
                hands: hands.unwrap_or(default.hands),
            }))
        }
        _ if rounds.is_some() || hands.is_some() => {
            return Err(Failure::usage(
                "--rounds and --hands are for the Nava schedule (--schedule nava)",
            ));
        }
        _ => None,
    };
    let board = match (args.format, file.format) {
        (Some(board), _) => board,
        (None, Some(text)) => board_format(&text)?,
        (None, None) => BoardFormat::default(),
    };
    let candidate = match args.candidate.or(file.candidate) {
        Some(_) if schedule != ScheduleKind::Gauntlet => {
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
    let recorded = referee::safe_fs::SafeDir::open(&out)
        .ok()
        .and_then(|dir| referee::tournament::results::read_meta(&dir).ok())
        .map(|m| m.seed);
    if given.is_none() && recorded.is_none() && shard.is_some() {
        return Err(Failure::usage(
            "--shard needs --seed (or `seed` in the file): every shard must play the same schedule",
        ));
    }
    let seed = given.or(recorded);
    // Said when there is something to resume: a first run with --resume is a fresh start.
    if args.resume && out.join(referee::tournament::results::META_FILE).exists() {
        super::output::emit_err(&resume_plan(&bots, &refereeing, &out));
    }
    Ok(TournamentSettings {
        config: TournamentConfig {
            game,
            options: game_options(file.options, &args.refereeing.options)?,
            bots,
            players: args.players.or(file.players),
            matches: args.matches.or(file.matches),
            seed: seed.unwrap_or_else(drawn_seed),
            format: FormatSpec {
                kind: schedule,
                settings,
            },
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
            process: refereeing.process,
        },
        seed_drawn: seed.is_none(),
        check: args.check || file.check.unwrap_or(false),
        quiet: args.quiet,
        verbose: refereeing.verbose,
        board,
        legend: Legend::unless(args.no_legend),
    })
}

/// What `--resume` will run, as this command line gives it: nothing of the directory's
/// `run.json` is used (docs/tournament.md#7-interrupting-and-resuming).
fn resume_plan(
    bots: &[referee::seat::BotSpec],
    refereeing: &Refereeing,
    out: &std::path::Path,
) -> String {
    super::run_plan::RunPlan {
        heading: format!(
            "--resume runs these bots on {}, as this command line gives them (its run.json is not used):",
            out.display()
        ),
        bots,
        sandbox: refereeing.process.sandbox,
        bot_uids: refereeing.process.bot_uids,
        workdir_notes: Vec::new(),
        notes: Vec::new(),
    }
    .render()
}

#[cfg(test)]
mod tests {
    use super::{from_args, parse_shard};
    use crate::args::{Cli, Command};
    use clap::Parser;
    use referee::tournament::{Plan, plan};

    /// Every shipped example (examples/*.toml) plays whole cycles: the settings it gives, as
    /// `referee tournament FILE` reads them, make no "not a whole number of cycles" note when
    /// it starts (the same [`plan`] decides), and every bot plays as many matches as every
    /// other.
    #[test]
    fn every_shipped_example_plays_whole_cycles_and_every_bot_as_often() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            // A ladder's file (`ladder.toml`, `class-ladder.toml`) is the ladder's
            // (ladder_cmd::config tests them).
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| !n.ends_with("ladder.toml"))
            })
            .collect();
        files.sort();
        assert!(files.len() >= 4, "{files:?}");
        for file in files {
            let cli =
                Cli::try_parse_from(["referee", "tournament", file.to_str().unwrap()]).unwrap();
            let Command::Tournament(args) = cli.command else {
                unreachable!("a tournament was parsed")
            };
            let config = from_args(args)
                .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.message))
                .config;
            let Plan { spec, unbalanced } = plan(&config).unwrap();
            assert_eq!(
                unbalanced,
                None,
                "{}: {} matches are not whole cycles",
                file.display(),
                spec.matches
            );
            let mut played = vec![0u64; spec.bots];
            for m in config.format.format().schedule(&spec) {
                m.seats.iter().for_each(|&b| played[b] += 1);
            }
            assert!(
                played.iter().all(|&n| n == played[0] && n > 0),
                "{}: matches per bot {played:?}",
                file.display()
            );
        }
    }

    #[test]
    fn shards_are_one_based_on_the_command_line() {
        assert_eq!(parse_shard("1/4").unwrap(), (0, 4));
        assert_eq!(parse_shard("4/4").unwrap(), (3, 4));
        assert!(parse_shard("0/4").is_err());
        assert!(parse_shard("5/4").is_err());
        assert!(parse_shard("x").is_err());
    }
}
