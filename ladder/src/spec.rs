//! What a job is: a build of one version, or one match between versions. A job's spec holds
//! everything its worker needs and everything a later reproduction needs (the referee's
//! version, the game and options, the seed, the seats with their artifacts' hashes, their
//! limits, the fault policy and the sandbox), so a match is a record, not a hope.

use referee::runner::FaultPolicy;
use referee::seat::SandboxMode;
use referee::tournament::meta::MetaBot;
use serde::{Deserialize, Serialize};

/// The version of the referee that writes a spec (recorded in each one).
pub const REFEREE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A job: what a worker is asked to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum JobSpec {
    /// Build one version from its source, then check it as `referee check` does.
    Build(Box<BuildSpec>),
    /// Play one match.
    Match(MatchSpec),
}

/// Build one version: unpack its source, run its language's recipe in the sandbox, check the
/// result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildSpec {
    /// The version's id in the store.
    pub version: i64,
    /// Its seat name (`BOT.vN`).
    pub name: String,
    /// Its language (one of `new-bot`'s six).
    pub lang: String,
    /// The sha256 of its source artifact.
    pub source: String,
    /// The game it is checked against, and its options.
    pub game: String,
    /// The game's options as JSON.
    pub options: serde_json::Value,
    /// The limits the bot is checked under (those of its matches).
    pub bot: MetaBot,
    /// The sandbox it is built and checked in.
    #[serde(default)]
    pub sandbox: SandboxMode,
}

/// One match between versions: everything needed to play it and to play it again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSpec {
    /// The referee version that scheduled it.
    pub referee: String,
    /// The game.
    pub game: String,
    /// The game's options as JSON.
    pub options: serde_json::Value,
    /// The match seed (the same for every match of a duplicate group).
    pub seed: u64,
    /// The seats, in order.
    pub seats: Vec<SeatSpec>,
    /// Faults after which a bot is stopped for the rest of the match.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: FaultPolicy,
    /// The sandbox bots run in.
    pub sandbox: SandboxMode,
    /// Whether the match counts for the ratings (a challenge's do not).
    pub ranked: bool,
    /// Its duplicate group: the matches of one group share the deal (the seed), the seats
    /// rotated.
    #[serde(default)]
    pub group: u64,
}

/// One seat of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatSpec {
    /// The version's id in the store.
    pub version: i64,
    /// Its owner's name.
    pub owner: String,
    /// The sha256 of its built artifact (`None` for a built-in bot).
    pub artifact: Option<String>,
    /// How it is started (its name is the seat name `BOT.vN`; its command is run from the
    /// unpacked artifact, or is `builtin:NAME`) and held (time and resource limits).
    pub bot: MetaBot,
}

/// A version's seat name: `BOT.vN` (bot names hold no `.`, so it is unambiguous).
pub fn seat_name(bot: &str, number: i64) -> String {
    format!("{bot}.v{number}")
}

/// The bot and the version's number of seat name `name` (`BOT.vN`, as [`seat_name`] makes
/// it); `None` for a name that is not one (a bot's name alone). The number is `None` when it
/// is not a number.
pub fn parse_seat_name(name: &str) -> Option<(&str, Option<i64>)> {
    name.rsplit_once(".v").map(|(bot, n)| (bot, n.parse().ok()))
}

/// The bot of seat name `name` (`BOT.vN`).
pub fn bot_of_seat(name: &str) -> Option<&str> {
    parse_seat_name(name).map(|(bot, _)| bot)
}
