//! Command-line arguments (clap). Converted to plain configs before anything runs.

use super::bot_settings::{PolicyArgs, SettingsArgs};
use clap::{Args, Parser, Subcommand, ValueEnum};
use referee::seat::{BotUids, SandboxMode};
use referee::tournament::rerun_trust::RecordedSetting;
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
    /// Play many seeded matches in parallel and rank the bots.
    Tournament(TournamentArgs),
    /// Print the leaderboard of a tournament's results directory.
    Leaderboard(LeaderboardArgs),
    /// Write a tournament's report: a page to open in a browser with the leaderboard and its
    /// legend, the head-to-head heat map, the ratings over the tournament, and each bot's
    /// matches, faults, stderr and replays.
    Report(ReportArgs),
    /// Play one match of a tournament again from its results directory: the same bots, seed,
    /// seats and settings; say whether the result is the recorded one (exit code 5 if not).
    Rerun(RerunArgs),
    /// Combine the results directories of shards into one leaderboard (and optionally one directory).
    Merge(MergeArgs),
    /// List the games, their player counts and built-in bots.
    Games,
    /// Measure this machine: the pipe round trip, in-process games, decisions with real bots.
    Bench(BenchArgs),
    /// Check that a bot speaks the protocol: a checklist with a verdict per item (exit code 4
    /// when a required item fails).
    Check(CheckArgs),
    /// Write a minimal, commented starter bot for a game into a directory.
    NewBot(NewBotArgs),
    /// A ladder: a competition that runs by itself (submissions, builds, workers,
    /// matchmaking, ratings per version). See docs/ladder.md.
    Ladder(crate::ladder_cmd::args::LadderArgs),
    /// The other end of the pipe benchmark (answers each line with a 30-byte line).
    #[command(hide = true)]
    BenchPong,
    /// A bot that replays one seat's actions of a recorded match (a ladder's reproduction
    /// seats it for a bot whose code the caller may not have).
    ///
    /// It speaks the protocol on its standard input and output like any bot
    /// (docs/ladder-reproduce.md). FILE is its script, JSON lines, one step of the seat a line,
    /// in order: {"phase":P,"action":A} (the action the seat replied), {"phase":P,"fault":F} (a
    /// fault it made instead, made again where a bot can: a timeout by not answering, a
    /// malformed line, and so on) or {"at":"start"|"end","fault":F} (a fault outside its
    /// turns).
    ///
    /// Exit codes: 0 at the end of its input or on goodbye; 1 where the recorded bot's process
    /// ended (an exited fault made again); 2 for a script that cannot be read; 3 when the
    /// referee asks for a decision the script does not have (the match played again has parted
    /// from the recorded one; its standard error says at which turn).
    StandIn(StandInArgs),
}

/// `referee stand-in`.
#[derive(Debug, Args)]
pub struct StandInArgs {
    /// The seat's script (JSON lines; written by the ladder's reproduction).
    #[arg(value_name = "FILE")]
    pub script: PathBuf,
}

/// `referee bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Shorter runs (a few seconds in all; for a smoke test, not for figures).
    #[arg(long)]
    pub quick: bool,
    /// Matches per run with real bot processes [default: 2000, or 100 with --quick].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub matches: Option<u64>,
    /// Only the user's own command, timed: a tournament in this process and out of it.
    ///
    /// `referee tournament` of 4 Rust random bots (4 per match, seed 3, default settings,
    /// results written) in this process and as a child process, alternately; decisions/s and
    /// the cost of a decision, in wall and in CPU time, against the same-core pipe round trip.
    #[arg(long)]
    pub tournament: bool,
    /// Runs of each way with --tournament [default: 3].
    #[arg(long, value_name = "N", requires = "tournament", value_parser = clap::value_parser!(u64).range(1..))]
    pub runs: Option<u64>,
    /// Matches played at once with --tournament [default: 2, or the cores allowed if fewer].
    #[arg(short = 'j', long = "jobs", value_name = "N", requires = "tournament", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
}

/// Leaderboard formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardFormat {
    /// Tables for people.
    #[default]
    Table,
    /// JSON for programs.
    Json,
    /// CSV (the standings only).
    Csv,
    /// Markdown tables.
    Markdown,
}

/// Schedule formats (see `docs/tournament.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScheduleArg {
    /// Every P-subset of the bots, each rotated through the seats.
    RoundRobin,
    /// Balanced random P-subsets, for large fields.
    Sampled,
    /// One candidate against the field.
    Gauntlet,
    /// Tables of 4 and 3, rounds of hands, the Nava movement; Victory Points.
    Nava,
}

/// `referee tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// A TOML file with the tournament settings (see docs/tournament.md); flags override it.
    pub config: Option<PathBuf>,
    /// The game.
    #[arg(long)]
    pub game: Option<String>,
    /// A bot: NAME=COMMAND or builtin:NAME; repeat for each bot of the field.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    pub bots: Vec<String>,
    /// Players per match [default: the game's smallest count that fits the field, at most 4].
    #[arg(long)]
    pub players: Option<usize>,
    /// Matches in the whole schedule [default: one full cycle of the schedule; a Nava tournament sets its own].
    #[arg(long)]
    pub matches: Option<u64>,
    /// The tournament seed [default: the results directory's, else drawn at random and printed].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Matches played at once [default: the number of cores].
    #[arg(short = 'j', long = "jobs")]
    pub jobs: Option<usize>,
    /// Pin each worker and its bots to a core of its own [default: true when -j is at most the
    /// number of cores].
    #[arg(long, value_name = "BOOL")]
    pub pin: Option<bool>,
    /// The results directory [default: tournament-out].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// How bots are put together [default: round-robin].
    #[arg(long, value_enum)]
    pub schedule: Option<ScheduleArg>,
    /// Rounds of a Nava tournament, 3 to 5 [default: 4].
    #[arg(long)]
    pub rounds: Option<usize>,
    /// Hands (matches at the same table) per round of a Nava tournament, 3 to 5 [default: 4].
    #[arg(long)]
    pub hands: Option<usize>,
    /// The candidate of a gauntlet [default: the first bot].
    #[arg(long, value_name = "NAME")]
    pub candidate: Option<String>,
    /// Replay each deal with the bots rotated through the seats [default: true].
    #[arg(long, value_name = "BOOL")]
    pub duplicate: Option<bool>,
    /// Continue the results already in --out.
    #[arg(long)]
    pub resume: bool,
    /// Play only shard K of N (1-based): the matches whose id mod N is K-1.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Keep each match's full log under DIR/logs/ (for `referee replay`).
    #[arg(long)]
    pub logs: bool,
    /// Run `referee check` on each bot that is a program before the first match, and keep the
    /// verdicts in DIR/checks/NAME.json for the grade sheet (`leaderboard --grades`).
    #[arg(long)]
    pub check: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Time limits, fault limit and game options.
    #[command(flatten)]
    pub refereeing: RefereeingArgs,
    /// How to print the leaderboard.
    #[arg(long, value_enum)]
    pub format: Option<BoardFormat>,
    /// Leave out the legend under the leaderboard (what each column means).
    #[arg(long)]
    pub no_legend: bool,
    /// Replace bot NAME in a finished tournament, whose results directory is given instead of
    /// the config file (`referee tournament DIR --replace NAME=COMMAND`): play again only the
    /// matches NAME played, with the new command and the same seeds, seats and settings, keep
    /// every other match, and write it all to --out [default: DIR-replaced-NAME], leaving DIR
    /// as it is. Repeatable (one per bot). The other bots run as `referee rerun` runs them.
    #[arg(
        long,
        value_name = "NAME=COMMAND",
        conflicts_with_all = [
            "game", "bots", "players", "matches", "seed", "schedule", "rounds", "hands",
            "candidate", "duplicate", "shard", "options", "max_faults", "SettingsArgs",
            "PolicyArgs",
        ]
    )]
    pub replace: Vec<String>,
    /// With --replace: use these recorded settings of the tournament although they let a bot
    /// reach more than this referee's defaults (comma-separated), as `referee rerun
    /// --trust-recorded`.
    #[arg(
        long,
        requires = "replace",
        value_delimiter = ',',
        value_name = "SETTING,...",
        value_parser = super::choices::recorded_setting()
    )]
    pub trust_recorded: Vec<RecordedSetting>,
    /// With --replace: say what would be run and how many matches played again, then stop.
    #[arg(long, requires = "replace")]
    pub dry_run: bool,
}

/// `referee leaderboard`.
#[derive(Debug, Args)]
pub struct LeaderboardArgs {
    /// The results directory.
    pub dir: PathBuf,
    /// How to print it.
    #[arg(long, value_enum, default_value_t)]
    pub format: BoardFormat,
    /// Leave out the legend under the leaderboard (what each column means).
    #[arg(long)]
    pub no_legend: bool,
    /// Instead of the leaderboard, this bot's part of the tournament: its faults summed up by
    /// kind (count, matches, the first with its stderr, the messages grouped), its matches, and
    /// where its stderr of each match is.
    #[arg(long, value_name = "NAME")]
    pub bot: Option<String>,
    /// With --bot: at most N matches in the table and the faults of at most N matches (0: all).
    #[arg(long, value_name = "N", default_value_t = 20, requires = "bot")]
    pub limit: usize,
    /// With --bot: every fault too, match by match, with its message and the match's stderr
    /// (after the summary by kind).
    #[arg(long, requires = "bot")]
    pub all_faults: bool,
    /// With --format csv: the grade sheet instead of the standings, a row per bot: rank,
    /// rating (μ, σ, μ − 3σ, μ ± 3σ), matches, wins, faults by kind, forfeits, and the verdict
    /// of `referee check` kept in DIR/checks/NAME.json (by `tournament --check`; docs/tournament.md
    /// §8, the grade sheet).
    #[arg(long, conflicts_with = "bot")]
    pub grades: bool,
}

/// `referee report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The tournament's results directory.
    pub dir: PathBuf,
    /// The directory to write the report into (made if needed): index.html, and replays/ID.html
    /// for each match whose log was kept (--logs).
    #[arg(long, value_name = "OUT", required = true)]
    pub html: PathBuf,
    /// Which matches get a replay page, of those whose log was kept [default: all].
    #[arg(long, value_enum, default_value_t)]
    pub replays: ReplaysArg,
    /// A report for one bot's author: only this bot's faults, stderr, matches and their
    /// replays; the other bots appear by name and numbers only (no stderr, command or fault
    /// message of theirs).
    #[arg(long, value_name = "NAME")]
    pub bot: Option<String>,
}

/// `referee report --replays`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ReplaysArg {
    /// Every match whose log was kept.
    #[default]
    All,
    /// The matches where a bot faulted.
    Faults,
    /// None.
    None,
}

/// `referee rerun`.
#[derive(Debug, Args)]
pub struct RerunArgs {
    /// The tournament's results directory.
    pub dir: PathBuf,
    /// The match's id (its `id` in matches.jsonl, from 0).
    pub match_id: u64,
    /// Write the match log (JSON lines) to this file, for `referee replay`.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Save each bot's stderr (capped at 1 MiB) to DIR/NAME.stderr.
    #[arg(long, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// How bot processes are isolated [default: as the tournament's last run (run.json), else
    /// auto].
    #[arg(long, value_parser = super::choices::sandbox_mode())]
    pub sandbox: Option<SandboxMode>,
    /// When the referee runs as root, the uids bot processes run as [default: auto].
    #[arg(long, value_name = "FIRST-LAST|auto|off")]
    pub bot_uids: Option<BotUids>,
    /// Use these recorded settings although they let a bot reach more than this referee's
    /// defaults (comma-separated); without them such a directory is refused (exit 2), saying
    /// which setting and why.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "SETTING,...",
        value_parser = super::choices::recorded_setting()
    )]
    pub trust_recorded: Vec<RecordedSetting>,
    /// Give bot NAME the workdir DIR (taken from where you are), instead of the one run.json
    /// records; a recorded workdir without the referee's mark for its bot is handed over only
    /// when its path is typed so (the refusal shows it). DIR must pass the workdir rule
    /// (docs/security.md#bot-users). Repeatable.
    #[arg(long = "workdir", value_name = "NAME=DIR", value_parser = named_workdir)]
    pub workdirs: Vec<(String, PathBuf)>,
    /// Print what would be run (each bot's command, sandbox, uids, workdir, environment's
    /// names, limits) and whether it would be refused, then stop.
    #[arg(long)]
    pub dry_run: bool,
    /// Say each start-up warning in full (why, the fix, what a bot can do then), not in one
    /// short line.
    #[arg(long)]
    pub verbose: bool,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// A `--workdir NAME=DIR`: the bot's name and the directory, made absolute from where the
/// command runs.
fn named_workdir(value: &str) -> Result<(String, PathBuf), String> {
    match value.split_once('=') {
        Some((name, dir)) if !name.is_empty() && !dir.is_empty() => {
            let dir = std::path::absolute(dir).map_err(|e| format!("{dir}: {e}"))?;
            Ok((name.to_string(), dir))
        }
        _ => Err("expected NAME=DIR: a bot's name and the directory to give it".into()),
    }
}

/// `referee merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' results directories.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Also write the merged results into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// How to print the leaderboard.
    #[arg(long, value_enum, default_value_t)]
    pub format: BoardFormat,
    /// Leave out the legend under the leaderboard (what each column means).
    #[arg(long)]
    pub no_legend: bool,
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
    /// Time limits, fault limit and game options.
    #[command(flatten)]
    pub refereeing: RefereeingArgs,
    /// Save each bot's stderr (capped at 1 MiB) to DIR/NAME.stderr.
    #[arg(long, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `referee check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The game (see `referee games`).
    #[arg(long)]
    pub game: String,
    /// The bot's command, after every option: one argument split like a shell would
    /// ("python3 my_bot.py --level 3"), or the program and its arguments; after `--`, every word
    /// is the bot's. An option of the referee after a quoted command is the referee's; among the
    /// words of an unquoted one it is refused.
    #[arg(
        required = true,
        num_args = 1..,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMMAND"
    )]
    pub command: Vec<String>,
    /// The seed the matches' seeds are derived from [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Keep the bot's whole stderr (capped at 1 MiB) in DIR/NAME.stderr; a failed item shows
    /// the bot's last stderr lines up to its failure either way.
    #[arg(long, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// Time limits, fault limit, sandbox and game options, as for `referee match`.
    #[command(flatten)]
    pub refereeing: RefereeingArgs,
    /// How to print the checklist.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// Starter bot languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// Python 3, standard library only.
    Python,
    /// Rust, a crate of its own (serde_json from crates.io).
    Rust,
    /// JavaScript for Node.js, no packages.
    Javascript,
    /// Java 17, no library.
    Java,
    /// C++17 with nlohmann/json (Debian's nlohmann-json3-dev).
    #[value(alias = "c++")]
    Cpp,
    /// Go 1.19, standard library only.
    Go,
}

/// `referee new-bot`.
#[derive(Debug, Args)]
pub struct NewBotArgs {
    /// The game (see `referee games`).
    #[arg(long)]
    pub game: String,
    /// The language of the bot.
    #[arg(long, value_enum)]
    pub lang: LangArg,
    /// The directory to write it into (created if needed; existing files are not overwritten).
    pub dir: PathBuf,
}

/// `referee replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The match log to check.
    pub file: PathBuf,
    /// Once checked, tell the match as a narrative to read in a terminal, round by round.
    #[arg(long)]
    pub text: bool,
    /// With --text: only what seat K saw (the events told to it, its own actions, faults and
    /// stderr; no other hand, no face-down card of another seat).
    #[arg(long, value_name = "K", requires = "text")]
    pub seat: Option<usize>,
    /// Also write the match as one self-contained HTML page (a replay viewer) to this file.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
}

/// `referee schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Write one file per schema into this directory instead of printing them.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// How bots are refereed: flags shared by `match` and `tournament`.
#[derive(Debug, Args)]
pub struct RefereeingArgs {
    /// Time control and resource limits for every bot (a config file can set them per bot).
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// Faults after which a bot is stopped and the referee plays for it for the rest of the
    /// match [default: 3].
    #[arg(long, value_name = "N")]
    pub max_faults: Option<u32>,
    /// What each class of fault costs.
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// How bot processes are isolated [default: auto: bwrap where it works, else none].
    #[arg(long, value_parser = super::choices::sandbox_mode())]
    pub sandbox: Option<SandboxMode>,
    /// When the referee runs as root, the uids bot processes run as, one each: a range
    /// FIRST-LAST (then a bot that cannot run so does not start), auto (60000-60999 where it
    /// can be done, else the referee's user, with a warning) or off [default: auto].
    #[arg(long, value_name = "FIRST-LAST|auto|off")]
    pub bot_uids: Option<BotUids>,
    /// A file or directory sandboxed bots must not see (besides the referee's own outputs and
    /// config, always hidden); repeatable.
    #[arg(long, value_name = "PATH")]
    pub hide: Vec<PathBuf>,
    /// Say each start-up warning in full (why, the fix, what a bot can do then), not in one
    /// short line.
    #[arg(long)]
    pub verbose: bool,
    /// A game option, KEY=VALUE (VALUE in TOML syntax); repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}
