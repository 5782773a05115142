//! A fault: one piece of bot misbehaviour, as data.

use protocol::FaultKind;
use serde::{Deserialize, Serialize};

/// One piece of bot misbehaviour: what kind, and a message that says what was expected and what
/// came.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// The kind.
    pub fault: FaultKind,
    /// What happened, for people.
    pub message: String,
}

impl Fault {
    /// A fault of `kind` with `message`.
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            fault: kind,
            message: message.into(),
        }
    }
}
