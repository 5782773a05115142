//! `referee ladder`'s arguments.

use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `referee ladder`.
#[derive(Debug, Args)]
pub struct LadderArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: LadderCommand,
}

/// The ladder's subcommands.
#[derive(Debug, Subcommand)]
pub enum LadderCommand {
    /// Make a ladder from a TOML file (docs/ladder.md): its home is NAME.ladder/ beside the
    /// file, its database SQLite there unless --db names a PostgreSQL.
    Init(InitArgs),
    /// Run a ladder: the HTTP API, the matchmaker and local workers. Given a TOML file, makes
    /// the ladder first if its home has none and submits the file's [[bot]]s.
    Serve(ServeArgs),
    /// Play a server's jobs on this machine (claims them under leases, plays them in the
    /// sandbox, reports them).
    Worker(WorkerArgs),
    /// Submit a new version of a bot: a file, a directory, or a .tar, .tar.gz or .zip archive.
    Submit(SubmitArgs),
    /// Print the standings.
    Standings(StandingsArgs),
    /// Print a version's state, and to its owner its build log and checklist.
    Status(StatusArgs),
    /// Ask for unranked matches of your version against named bots or versions.
    Challenge(ChallengeArgs),
    /// Print a bot's (or a version's) last matches, or one match.
    Matches(MatchesArgs),
    /// Write the matches recorded in a window of time as a tournament's results directory,
    /// for `referee leaderboard`, `report` and `merge` (on the server's machine: it reads the
    /// ladder's home).
    Export(ExportArgs),
    /// Print a seat's stderr of a match (its owner, the admin).
    Stderr(StderrArgs),
    /// Play a ladder match again on this machine and say whether it gives the recorded
    /// result (exit code 5 if not) and, if not, the first seat and turn that differ. Seats
    /// whose code you may not have are played by stand-ins replaying their logged actions.
    Reproduce(ReproduceArgs),
    /// The admin's commands: accounts, pause, resume, remove a bot.
    Admin(AdminArgs),
}

/// `referee ladder challenge`.
#[derive(Debug, Args)]
pub struct ChallengeArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Your bot.
    #[arg(long, value_name = "BOT")]
    pub bot: String,
    /// Its version [default: its newest ready one].
    #[arg(long = "version", value_name = "N")]
    pub number: Option<i64>,
    /// An opponent: a bot (its newest ready version) or a version BOT.vN; repeatable.
    #[arg(long = "against", value_name = "BOT", required = true)]
    pub against: Vec<String>,
    /// Matches to play (the seats rotated; each rotation shares a deal).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub matches: u32,
}

/// `referee ladder matches`.
#[derive(Debug, Args)]
pub struct MatchesArgs {
    /// The server's URL.
    #[arg(long, value_name = "URL", env = "REFEREE_LADDER_SERVER")]
    pub server: String,
    /// A bot or a version (BOT.vN), or a match's id.
    pub what: String,
    /// At most this many matches.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: i64,
    /// JSON instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// `referee ladder stderr`.
#[derive(Debug, Args)]
pub struct StderrArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The match's id.
    pub id: i64,
    /// The seat (0 first).
    pub seat: usize,
}

/// The server and the caller's token.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// The server's URL, e.g. http://127.0.0.1:8640.
    #[arg(long, value_name = "URL", env = "REFEREE_LADDER_SERVER")]
    pub server: String,
    #[command(flatten)]
    pub token: TokenArgs,
}

/// The caller's token.
#[derive(Debug, Args)]
pub struct TokenArgs {
    /// The caller's token (also REFEREE_LADDER_TOKEN, which `ps` does not show).
    #[arg(
        long,
        value_name = "TOKEN",
        env = "REFEREE_LADDER_TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,
    /// A file holding the caller's token.
    #[arg(long, value_name = "FILE", conflicts_with = "token")]
    pub token_file: Option<PathBuf>,
}

/// `referee ladder init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The ladder's TOML file.
    pub config: PathBuf,
    /// The ladder's home [default: NAME.ladder/ beside the file].
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// A PostgreSQL database (postgres://USER:PASSWORD@HOST/DB) instead of SQLite.
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
}

/// `referee ladder serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The ladder's TOML file, or its home directory.
    pub ladder: PathBuf,
    /// The ladder's home when a TOML file is given [default: NAME.ladder/ beside the file].
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// A PostgreSQL database, when the ladder is made now.
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
    /// Where the API listens.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8640")]
    pub listen: std::net::SocketAddr,
    /// Matches played at once by the server's own workers (0: none, remote workers only)
    /// [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Bot processes each slot keeps between matches, as `referee tournament` does (0: every
    /// seat's process is started for its match and stopped after it).
    #[arg(long, value_name = "N", default_value_t = ladder::worker::DEFAULT_KEEP)]
    pub keep: usize,
    /// Stop after this many seconds (for demonstrations and tests) [default: until Ctrl-C].
    #[arg(long, value_name = "S")]
    pub for_s: Option<u64>,
}

/// `referee ladder worker`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Matches played at once [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Bot processes each slot keeps between matches, as `referee tournament` does (0: every
    /// seat's process is started for its match and stopped after it).
    #[arg(long, value_name = "N", default_value_t = ladder::worker::DEFAULT_KEEP)]
    pub keep: usize,
    /// The worker's directory: its cache of artifacts and its jobs' files.
    #[arg(long, value_name = "DIR", default_value = "ladder-worker")]
    pub dir: PathBuf,
}

/// `referee ladder submit`.
#[derive(Debug, Args)]
pub struct SubmitArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The bot's name on the ladder (made on its first version).
    #[arg(long, value_name = "BOT")]
    pub name: String,
    /// Its language: python, rust, javascript, java, cpp, go (or builtin, the admin).
    #[arg(long, value_name = "LANG")]
    pub lang: String,
    /// A file, a directory, or a .tar, .tar.gz or .zip archive (for builtin: its name).
    pub path: PathBuf,
    /// Wait until it is built and checked, and print its state.
    #[arg(long)]
    pub wait: bool,
}

/// `referee ladder standings`.
#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// The server's URL.
    #[arg(long, value_name = "URL", env = "REFEREE_LADDER_SERVER")]
    pub server: String,
    /// Only the versions of this class group's owners (each keeping its rank on the ladder).
    #[arg(long, value_name = "NAME")]
    pub group: Option<String>,
    /// JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `referee ladder status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The bot.
    pub bot: String,
    /// The version's number.
    #[arg(long = "version", value_name = "N")]
    pub number: i64,
}

/// `referee ladder admin`.
#[derive(Debug, Args)]
pub struct AdminArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: AdminCommand,
}

/// The admin's commands.
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Make an account and print its token (shown once).
    AddAccount {
        /// Its name.
        name: String,
        /// owner, worker or admin.
        #[arg(long, default_value = "owner")]
        role: String,
    },
    /// Stop queueing ranked matches (those queued are played).
    Pause,
    /// Queue ranked matches again.
    Resume,
    /// End the event: take no submission and queue no ranked match (the standings stay).
    Freeze,
    /// Take submissions and queue ranked matches again.
    Thaw,
    /// Remove a bot from play; its history stays.
    Remove {
        /// The bot.
        bot: String,
    },
    /// Make an owner account for each row of a class list (CSV rows name,contact,group; a
    /// first row name,… is a header) and print, as CSV, each one's token or one-time link
    /// (shown once: keep the output private).
    Class {
        /// The class list.
        file: PathBuf,
        /// Hand out one-time links (SERVER/welcome/CODE, good for 14 days) instead of tokens.
        #[arg(long)]
        links: bool,
    },
    /// Give an owner a new token (its old one and its sessions end), or a one-time link to one.
    Token {
        /// The account.
        name: String,
        /// A one-time link instead of the token.
        #[arg(long)]
        link: bool,
    },
    /// Close owners' submissions at a time (UTC: 2026-12-18T18:00, or seconds since the
    /// epoch); `none` lifts the deadline.
    Deadline {
        /// The time, or `none`.
        time: String,
    },
    /// Remove a version (BOT.vN) from play: its bot plays its previous ready version.
    RemoveVersion {
        /// The version.
        version: String,
    },
    /// Play a void match (one the platform spoiled) again, with the same seats and seed.
    Again {
        /// The match's id (with --job, the id of a match job that failed for good).
        id: i64,
        /// ID is a job's: one whose workers were lost `[lease] attempts` times.
        #[arg(long)]
        job: bool,
    },
    /// Start a final tournament among the versions in play, played by the ladder's workers.
    FinalStart {
        /// round-robin or sampled.
        #[arg(long, default_value = "round-robin")]
        schedule: String,
        /// Players per match [default: the ladder's largest table].
        #[arg(long, value_name = "N")]
        players: Option<usize>,
        /// Matches [default: one whole cycle of the schedule].
        #[arg(long, value_name = "N")]
        matches: Option<u64>,
        /// Deal each match its own cards rather than sharing a group's deal [default: the
        /// ladder's setting].
        #[arg(long)]
        no_duplicate: bool,
    },
    /// Print the last final tournament's progress, and its standings once played.
    FinalStatus {
        /// JSON instead of lines.
        #[arg(long)]
        json: bool,
    },
    /// Write the last final tournament as a results directory, with its report (OUT/report/)
    /// and grade sheet (OUT/report/grades.csv).
    FinalExport {
        /// The results directory to write (new or empty).
        out: PathBuf,
    },
}

/// `referee ladder reproduce`.
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// The match: SERVER/ID (e.g. http://127.0.0.1:8640/17), or its id with --server.
    pub what: String,
    /// The server's URL, when WHAT is an id.
    #[arg(long, value_name = "URL", env = "REFEREE_LADDER_SERVER")]
    pub server: Option<String>,
    #[command(flatten)]
    pub token: TokenArgs,
    /// Where the match's bundle is written and played [default: ladder-match-ID/].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `referee ladder export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The ladder: its TOML file or its home directory (on the server's machine).
    #[arg(long, value_name = "PATH", required_unless_present = "server")]
    pub ladder: Option<PathBuf>,
    /// Or its server (the admin's token: --token, REFEREE_LADDER_TOKEN or --token-file).
    #[arg(long, value_name = "URL", conflicts_with = "ladder")]
    pub server: Option<String>,
    /// The admin's token, with --server.
    #[command(flatten)]
    pub token: TokenArgs,
    /// The window's start: a UTC time (2026-11-29, 2026-11-29T14:00, 2026-11-29T14:00:05Z) or
    /// seconds since the epoch [default: the first match].
    #[arg(long, value_name = "TIME")]
    pub from: Option<String>,
    /// The window's end, included [default: now].
    #[arg(long, value_name = "TIME")]
    pub to: Option<String>,
    /// The results directory to write (new or empty).
    pub out: PathBuf,
}
