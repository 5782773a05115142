//! What a tournament is asked to play: everything [`run`](super::run) needs, from whatever the
//! settings came from (the CLI reads them from flags and a TOML file).

use super::format::FormatSpec;
use crate::policy::ProcessPolicy;
use crate::runner::FaultPolicy;
use crate::seat::BotSpec;
use engine::GameKind;
use std::path::PathBuf;

/// A tournament to run.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The game.
    pub game: GameKind,
    /// The game's options as JSON (`null` or `{}` for the defaults).
    pub options: serde_json::Value,
    /// The field, in order (a schedule's bot indices are positions here).
    pub bots: Vec<BotSpec>,
    /// Players per match; `None` for the game's smallest count that the field fills, at most 4.
    pub players: Option<usize>,
    /// Matches in the whole schedule; `None` for one cycle of the format.
    pub matches: Option<u64>,
    /// The tournament seed: every match's seed derives from it.
    pub seed: u64,
    /// The format, with its own settings (none for its defaults).
    pub format: FormatSpec,
    /// The gauntlet's candidate (an index into `bots`; 0 for other formats).
    pub candidate: usize,
    /// Whether the matches of a group replay one deal (duplicate play).
    pub duplicate: bool,
    /// `(k, n)`: play only the matches whose id is `k` modulo `n` (shard k+1 of n).
    pub shard: Option<(u64, u64)>,
    /// Continue the results already in `out` instead of refusing a directory that has some.
    pub resume: bool,
    /// The results directory.
    pub out: PathBuf,
    /// Whether each match's full log is kept (`out/logs/ID.jsonl`).
    pub logs: bool,
    /// Matches played at once.
    pub jobs: usize,
    /// Whether workers and their bots are pinned to cores.
    pub pin: bool,
    /// Faults after which a bot is stopped for the rest of a match.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: FaultPolicy,
    /// How bot processes are run (the sandbox, their users, the paths they must not see besides
    /// `out`); resolved when the run starts. Its default is the safe one.
    pub process: ProcessPolicy,
}
