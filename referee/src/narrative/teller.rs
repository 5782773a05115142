//! What a game's teller is given and must do: the generic part ([`super::tell`]) walks the
//! log's records, keeps what the perspective may know, and hands each game's teller the
//! match's start and then one [`Step`] at a time — the opening events, or one decision with the
//! events it caused — to turn into sentences.

use super::story::Story;
use crate::runner::LogAudience;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A decision as the story may tell it.
#[derive(Clone, Debug)]
pub(crate) struct Act<'a> {
    /// The seat that decided.
    pub seat: usize,
    /// The action, when the perspective may know it in full (its own seat, or everything);
    /// `None` when only the events tell what the seat did.
    pub action: Option<&'a Value>,
}

/// An event told to the perspective.
#[derive(Clone, Debug)]
pub(crate) struct Heard<'a> {
    /// Who was told it.
    pub to: LogAudience,
    /// The event as the bots were sent it.
    pub event: &'a Value,
}

/// The opening of the match (no act) or one decision, with the events it caused that the
/// perspective heard, in order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Step<'a> {
    /// The decision, if this is one.
    pub act: Option<Act<'a>>,
    /// The events heard.
    pub events: Vec<Heard<'a>>,
}

/// One game's sentences. A teller keeps what it needs between steps (the trick so far, the
/// cards placed this round) and writes each step into the story; a record it cannot read is
/// an error with a message.
pub(crate) trait Teller {
    /// The game's name as a title ("La Bouillabaisse").
    fn title(&self) -> &'static str;

    /// The match before its first decision, as `view` (the perspective's seat's view, or seat
    /// 0's when everything is told, of which only the public parts may be used) shows it.
    fn start(&mut self, view: &Value, story: &mut Story) -> Result<(), String>;

    /// One step of the match.
    fn step(&mut self, step: &Step<'_>, story: &mut Story) -> Result<(), String>;
}

/// Reads `value` as the game's type `T` (an event, an action, a view), or says it is not a
/// `what`.
pub(crate) fn read<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, String> {
    T::deserialize(value).map_err(|e| format!("not a {what} ({e}): {value}"))
}

/// The events of `step` read as the game's event type `E`, each with who was told it.
pub(crate) fn events<E: DeserializeOwned>(
    step: &Step<'_>,
    game: &str,
) -> Result<Vec<(LogAudience, E)>, String> {
    step.events
        .iter()
        .map(|heard| Ok((heard.to, read(heard.event, &format!("{game} event"))?)))
        .collect()
}
