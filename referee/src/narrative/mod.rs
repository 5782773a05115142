//! A match told as a narrative a person reads in a terminal (`referee replay FILE --text`):
//! round by round — or manche by manche, hand by hand — who did what, what was revealed, who
//! won what; with the faults and their messages, the decisions the referee played for a bot,
//! slow and late replies, and what each bot wrote to its standard error. Told from
//! [`Perspective::Everything`] or from one seat's ([`Perspective::Seat`], `--seat K`): only
//! the events told to that seat, its own actions in full and the others' only as the events
//! told them — never a face-down card's type or another hand before it is shown.
//!
//! It reads a match log's records (`docs/match-log.md`, version 3) and nothing else: the events
//! as the game recorded them, read into each game's protocol types. The generic part
//! (`tell.rs`) walks the records and drops what the perspective may not know before any game
//! sees it; one teller per game (`vabanque.rs`, `bouillabaisse.rs`, `machiavelli.rs`) turns
//! that game's events and actions into sentences; [`Narrative::to_text`] lays them out for a
//! terminal. It renders what was recorded: no rule is computed again. See `docs/narrative.md`.

mod bouillabaisse;
mod cast;
mod machiavelli;
mod story;
mod tell;
mod teller;
mod vabanque;
mod words;

#[cfg(test)]
mod tests;

pub use cast::Perspective;
pub use story::{Line, LineKind, Narrative, Section};
pub use tell::{NarrativeError, tell};
pub use words::grouped;
