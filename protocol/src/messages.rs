//! The envelope: every message of protocol v1, generic over a game's view, action and event.

use crate::FaultKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A message from the referee to a bot (one line on the bot's standard input).
///
/// `V`, `A` and `E` are the game's view, action and event types; they default to
/// [`serde_json::Value`] so that a bot can read any game's messages untyped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot<V = Value, A = Value, E = Value> {
    /// First message of a bot process: the bot must answer with a `hello` of its own.
    Hello(Hello),
    /// A match begins; the bot plays the seat given.
    MatchStart(MatchStart),
    /// The bot must decide: answer with an `action` echoing `id`.
    Request(Request<V, A>),
    /// Something happened in the match (a move by anyone, a payout, a reveal).
    Event(EventMsg<E>),
    /// The referee refused something the bot sent; the match goes on.
    Error(ErrorMsg),
    /// The match is over; more `match_start` messages may follow in the same process.
    MatchEnd(MatchEnd),
    /// No more matches: the bot should exit. Standard input is closed right after.
    Goodbye(Goodbye),
    /// A message type this version of the crate does not know (from a newer referee). Bots
    /// should ignore it.
    #[serde(other)]
    #[schemars(skip)]
    Unknown,
}

/// A message from a bot to the referee (one line on the bot's standard output).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot<A = Value> {
    /// The answer to the referee's `hello`.
    Hello(HelloReply),
    /// The answer to a `request`.
    Action(ActionReply<A>),
}

impl<A> FromBot<A> {
    /// An `action` reply to the request `id`.
    pub fn action(id: u64, action: A) -> Self {
        FromBot::Action(ActionReply { id, action })
    }

    /// A `hello` reply with the bot's name, declaring protocol version 1.
    pub fn hello(name: impl Into<String>) -> Self {
        FromBot::Hello(HelloReply {
            name: name.into(),
            protocol: Some(crate::PROTOCOL_VERSION),
            events: None,
            view: None,
        })
    }
}

/// The referee's greeting, sent once per bot process.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Hello {
    /// The protocol version the referee speaks (1).
    pub protocol: u32,
    /// The game this process will play, e.g. `"vabanque"`.
    pub game: String,
    /// The game's options for the matches to come (each game documents its own; `{}` when none).
    pub options: Value,
    /// The time limits the bot is held to.
    pub limits: Limits,
}

/// Time limits, in milliseconds (see `docs/time-controls.md`). Each request also says, in
/// `time_left_ms`, how long the bot has for that decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Limits {
    /// Time from the `hello` message to the bot's `hello` reply.
    pub startup_ms: u64,
    /// Time from a `request` to its `action` reply.
    pub decision_ms: u64,
    /// Time for the bot's first decision of each match, when longer than `decision_ms`
    /// (warm-up of a JIT or a VM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_decision_ms: Option<u64>,
    /// A chess clock: the time the bot has for all its decisions of one match together. Each
    /// decision is then limited by both `decision_ms` and what is left of the bank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
    /// Time added to the bank after each decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
}

impl Limits {
    /// Limits with a start-up and a per-decision limit only.
    pub fn new(startup_ms: u64, decision_ms: u64) -> Self {
        Limits {
            startup_ms,
            decision_ms,
            first_decision_ms: None,
            bank_ms: None,
            increment_ms: None,
        }
    }
}

/// The bot's answer to `hello`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HelloReply {
    /// A display name for the bot (the referee's own name for the seat takes precedence in
    /// results; this one is recorded beside it).
    pub name: String,
    /// The protocol version the bot speaks. Optional; when present it must be 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<u32>,
    /// `false`: the bot decides from each request's view alone, and the referee sends it no
    /// `event` messages (saving both sides their cost). Optional; events are sent by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<bool>,
    /// `"delta"`: after the first request of each match, each request's `view` is a JSON Merge
    /// Patch (RFC 7386) of the bot's previous view in that match, and says `"delta": true`.
    /// Optional; the whole view (`"full"`) is the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<ViewMode>,
}

/// How a bot asks to be sent its view ([`HelloReply::view`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ViewMode {
    /// The whole view in every request (the default).
    #[default]
    Full,
    /// The whole view in a match's first request; then only what changed, as a merge patch.
    Delta,
}

/// A match begins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MatchStart {
    /// The match's identifier (unique within a run).
    pub match_id: String,
    /// The seat this bot plays, 0-based, in clockwise seat order.
    pub seat: usize,
    /// The names of the players, indexed by seat.
    pub players: Vec<String>,
    /// A seed for the bot's own random choices, derived from the match seed and the seat: a bot
    /// that draws all its randomness from it is deterministic.
    pub seed: u64,
    /// The game's options for this match.
    pub options: Value,
}

/// A decision request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Request<V = Value, A = Value> {
    /// The request's id; the reply must echo it.
    pub id: u64,
    /// What is to be decided, e.g. `"chip"`, `"card"` or `"move"` in Vabanque.
    pub phase: String,
    /// The current state of the match as this seat may see it: a stateless bot can decide from
    /// it alone. (History — who did what — comes in events.) For a bot that asked for
    /// [`ViewMode::Delta`], when [`Request::delta`] is set, only what changed since its previous
    /// request: a JSON Merge Patch (RFC 7386, see [`crate::merge_patch`]).
    pub view: V,
    /// `true`: `view` is a merge patch of the previous request's view in this match, not the
    /// whole view. Only ever sent to a bot that asked for [`ViewMode::Delta`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub delta: bool,
    /// Every legal action, when the game can list them cheaply; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<A>>,
    /// Milliseconds the bot has for this decision.
    pub time_left_ms: u64,
}

/// The bot's answer to a `request`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ActionReply<A = Value> {
    /// The id of the request answered.
    pub id: u64,
    /// The action chosen.
    pub action: A,
}

/// Something happened in the match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EventMsg<E = Value> {
    /// The game-specific event.
    pub event: E,
}

/// The referee refused something the bot sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorMsg {
    /// The request the fault concerns, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// What went wrong.
    pub fault: FaultKind,
    /// A human-readable explanation, e.g. why an action is illegal.
    pub message: String,
    /// What the referee played instead, when it substituted an action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub substituted: Option<Value>,
}

/// The match is over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MatchEnd {
    /// The match's identifier.
    pub match_id: String,
    /// Final scores by seat (the game says whether higher or lower is better; Vabanque: money).
    pub scores: Vec<i64>,
    /// Final ranks by seat, 1 = best; tied seats share a rank.
    pub ranks: Vec<u32>,
}

/// No more matches.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Goodbye {}
