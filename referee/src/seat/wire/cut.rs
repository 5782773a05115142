//! Why the wire got no line (or could not write), when it cannot say as a fault by itself, and
//! the words of the faults its owner makes of it.

use crate::seat::Fault;
use protocol::FaultKind;

/// Why the wire got no line (or could not write), when it cannot say as a fault by itself.
#[derive(Debug)]
pub(crate) enum Cut {
    /// A fault the wire tells by itself: a line that is not the reply (or one stray line too
    /// many), blank lines past the allowance, a line over the cap, input already closed, input
    /// not read in time.
    Fault(Fault),
    /// Nothing came before the deadline.
    Silent,
    /// The bot's output ended.
    Closed,
    /// Reading from the bot (`"reading from"`) or writing to it (`"writing to"`) failed.
    Broken(&'static str, std::io::Error),
}

/// The fault of a bot that sent no reply within `limit`; `notes` say what else is known.
pub(crate) fn timeout_fault(limit: &dyn std::fmt::Display, notes: &str) -> Fault {
    Fault::new(
        FaultKind::Timeout,
        format!("no reply within {limit}{notes}"),
    )
}

/// What a failed read or write says: "reading from the bot failed (…)".
pub(crate) fn broken_message(doing: &str, e: &std::io::Error) -> String {
    format!("{doing} the bot failed ({e})")
}
