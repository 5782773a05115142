//! The API's request and response bodies (JSON), and their schemas.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every refusal's body.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ErrorBody {
    /// What was refused and why.
    pub error: String,
}

/// A lease, to heartbeat with.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LeaseBody {
    /// The lease's token, as the claim gave it.
    pub lease: String,
}

/// A heartbeat's answer.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LeaseExtended {
    /// When the lease now ends (ms since the epoch, the server's clock).
    pub expires_ms: i64,
}

/// A worker gives a job back: the platform failed (not a bot).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct GiveBackBody {
    /// The lease's token.
    pub lease: String,
    /// What failed.
    pub error: String,
}

/// A worker's report of a match.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct MatchResultBody {
    /// The lease's token.
    pub lease: String,
    /// The match's record (a line of `matches.jsonl`).
    pub record: serde_json::Value,
    /// Its log, gzip-compressed, in base64.
    pub log_gz: String,
    /// Each seat's stderr in base64, by seat (`null`: nothing).
    pub stderr: Vec<Option<String>>,
}

/// A worker's report of a build.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BuildResultBody {
    /// The lease's token.
    pub lease: String,
    /// The build's log.
    pub log: String,
    /// The built artifact (a `.tar.gz`) in base64, when it built.
    pub artifact: Option<String>,
    /// The command that runs it from its artifact, when it built.
    pub run_command: Option<String>,
    /// The checklist, when it was checked.
    pub check: Option<serde_json::Value>,
    /// Whether it passed the check.
    pub passed: bool,
}

/// A recorded result's answer.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Accepted {
    /// The match's id (match jobs).
    pub match_id: Option<i64>,
    /// The version's state (build jobs).
    pub state: Option<String>,
}

/// A new account (the admin).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AccountBody {
    /// Its name.
    pub name: String,
    /// `owner`, `worker` or `admin`.
    pub role: String,
}

/// A new account's token, shown this once.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct TokenBody {
    /// The account's name.
    pub name: String,
    /// Its role.
    pub role: String,
    /// Its token.
    pub token: String,
}

/// A submission's query: the language.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct SubmitQuery {
    /// One of `new-bot`'s languages, or `builtin` (the admin).
    pub lang: String,
}

/// The ladder as anyone sees it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LadderInfo {
    /// The game.
    pub game: String,
    /// The smallest table.
    pub min_players: usize,
    /// The largest table.
    pub max_players: usize,
    /// Whether the matchmaker is paused.
    pub paused: bool,
    /// Whether the ladder is frozen (no submission, no ranked match: the standings are final).
    pub frozen: bool,
    /// The largest upload taken, in bytes.
    pub upload_bytes: u64,
    /// Matches recorded.
    pub matches: i64,
    /// The referee's version.
    pub referee: String,
}

/// A list's length.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LimitQuery {
    /// At most this many [default: 50, at most 500].
    pub limit: Option<i64>,
}

/// A window of time, in milliseconds since the epoch, both ends included.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WindowQuery {
    /// Its start [default: the first match].
    pub from: Option<i64>,
    /// Its end [default: now].
    pub to: Option<i64>,
}
