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
    /// The line the bot wrote that is the fault, as an excerpt, when a line is (a stray line on
    /// its stdout, a reply with another id, a malformed hello): for reports that show the line
    /// apart from the message (`referee check`). Not serialized; the message quotes it too.
    #[serde(skip)]
    pub line: Option<String>,
}

impl Fault {
    /// A fault of `kind` with `message`.
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            fault: kind,
            message: message.into(),
            line: None,
        }
    }

    /// The same fault, naming `line` (an excerpt of what the bot wrote) as its cause.
    pub fn with_line(self, line: impl Into<String>) -> Self {
        Fault {
            line: Some(line.into()),
            ..self
        }
    }
}
