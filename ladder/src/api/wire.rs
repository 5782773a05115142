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
    /// When submissions close (ms since the epoch), if the admin set a time.
    pub deadline_ms: Option<i64>,
}

/// When submissions close (the admin).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct DeadlineBody {
    /// The time (ms since the epoch); none lifts the deadline.
    pub at_ms: Option<i64>,
}

/// A job queued.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct JobQueued {
    /// Its id.
    pub job: i64,
}

/// A list's length.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LimitQuery {
    /// At most this many [default: 50, at most 500].
    pub limit: Option<i64>,
}

/// The standings' filter: one class group.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct GroupQuery {
    /// Only the versions whose owner is in this class group [default: every version]; an
    /// empty name is no filter.
    pub group: Option<String>,
}

impl GroupQuery {
    /// The group asked for, if any (an empty name is none).
    pub fn group(&self) -> Option<&str> {
        self.group.as_deref().filter(|g| !g.is_empty())
    }
}

/// A window of time, in milliseconds since the epoch, both ends included.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WindowQuery {
    /// Its start [default: the first match].
    pub from: Option<i64>,
    /// Its end [default: now].
    pub to: Option<i64>,
}

/// A match's log as the caller may see it (`docs/ladder.md#a-match-as-each-viewer-sees-it`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct SeenLog {
    /// Who the caller is to the match: `truth` (the admin), `seat` (an owner at the table) or
    /// `public`.
    pub audience: String,
    /// The seat whose view it is, for `seat`.
    pub seat: Option<usize>,
    /// The log's records, header first, as `docs/match-log.md` describes them, with what the
    /// caller may not see left out or emptied; none while withheld.
    pub records: Vec<serde_json::Value>,
    /// Whether the play is withheld (from all but the admin) until every match of its deal is
    /// played.
    pub withheld: bool,
}

impl SeenLog {
    /// The body of `seen`.
    pub fn of(seen: &crate::service::SeenMatch) -> SeenLog {
        use crate::match_seen::Audience;
        let (audience, seat) = match seen.audience {
            Audience::Truth => ("truth", None),
            Audience::Seat(seat) => ("seat", Some(seat)),
            Audience::Public => ("public", None),
        };
        SeenLog {
            audience: audience.into(),
            seat,
            records: seen
                .log
                .iter()
                .map(|r| serde_json::to_value(r).expect("a log record serializes"))
                .collect(),
            withheld: seen.withheld,
        }
    }
}
