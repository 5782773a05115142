//! Message types of the referee's bot protocol, version 1.
//!
//! The protocol is JSON Lines: the referee writes one [`ToBot`] message per line to the bot's
//! standard input, and the bot writes one [`FromBot`] message per line to its standard output.
//! Standard error is the bot's own log. The full description, with an example exchange, is in
//! `docs/protocol.md`; the JSON Schema of every message is generated from these types into
//! `docs/schema/`.
//!
//! The envelope is game-agnostic: the game-specific parts (a view, an action, an event) are type
//! parameters that default to [`serde_json::Value`]. A Rust bot names its game's types, e.g.
//! [`vabanque::View`], to get typed messages:
//!
//! ```
//! use protocol::{FromBot, ToBot, vabanque};
//!
//! let line = r#"{"type":"request","id":7,"phase":"move","view":null,"legal":[{"steps":0},{"steps":3}],"time_left_ms":1000}"#;
//! let msg: ToBot<serde_json::Value, vabanque::Action> = serde_json::from_str(line).unwrap();
//! if let ToBot::Request(request) = msg {
//!     let action = request.legal.unwrap()[1].clone();
//!     let reply = FromBot::action(request.id, action);
//!     assert_eq!(serde_json::to_string(&reply).unwrap(), r#"{"type":"action","id":7,"action":{"steps":3}}"#);
//! }
//! ```
#![warn(missing_docs)]

pub mod bot;
pub mod bouillabaisse;
mod exit_codes;
mod fault;
pub mod machiavelli;
mod merge_patch;
mod messages;
pub mod schema;
mod suit;
pub mod vabanque;

pub use exit_codes::ExitCode;
pub use fault::FaultKind;
pub use merge_patch::merge_patch;
pub use messages::{
    ActionReply, ErrorMsg, EventMsg, FromBot, Goodbye, Hello, HelloReply, Limits, MatchEnd,
    MatchStart, Request, ToBot, ViewMode,
};

/// The protocol version this crate describes. A bot that declares another version in its
/// `hello` reply is refused with a [`FaultKind::ProtocolMismatch`].
pub const PROTOCOL_VERSION: u32 = 1;
