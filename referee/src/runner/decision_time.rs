//! How long one decision took: what the asking measures and the seat's statistics count.

/// How long a decision took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct DecisionTime {
    /// Milliseconds from the request written to the reply read (for a built-in bot, its call),
    /// to the microsecond; 0 when the request could not be written.
    pub ms: f64,
    /// Whether the reply came late and a soft overrun covered it.
    pub overrun: bool,
    /// The CPU time all of the bot's processes used, in milliseconds to the microsecond,
    /// where its control group accounts it: from the request written to the reply read under
    /// the CPU basis; under the wall basis from the bot's previous reply in the match (from
    /// the request for its first decision), so that thinking off move shows on the next
    /// decision.
    pub cpu_ms: Option<f64>,
}
