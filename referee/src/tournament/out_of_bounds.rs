//! A field of a results directory's file out of its bounds ([`bounds`](super::bounds)).

/// A field of a file out of its bounds: which, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct OutOfBounds {
    /// The field, as a path in the JSON (`nava.rounds`, `bots[3].name`).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

/// [`OutOfBounds`] of `field`, saying `message`.
pub fn out(field: impl Into<String>, message: impl Into<String>) -> OutOfBounds {
    OutOfBounds {
        field: field.into(),
        message: message.into(),
    }
}
