//! [`DynGame`]: any registered game driven with JSON in and JSON out, chosen by name at run time,
//! for tools that do not want the game's types (a driver in another language over a thin
//! wrapper, a generic viewer, a fuzzer).

use crate::{Addressed, Audience, Game, GameKind, Illegal, Outcome, SetupError, Turn};
use serde_json::Value;

/// An event as JSON, with the seats allowed to see it.
#[derive(Clone, Debug, PartialEq)]
pub struct DynEvent {
    /// Who may see it.
    pub to: Audience,
    /// The event, as it is sent to bots.
    pub event: Value,
}

/// Why an action was not played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The JSON is not an action of the current phase (what a bot's `wrong_shape` fault is).
    #[error("{0}")]
    WrongShape(String),
    /// An action the rules do not allow now (what a bot's `illegal_action` fault is).
    #[error(transparent)]
    Illegal(#[from] Illegal),
}

/// A match of any game, as JSON. Every method is the [`Game`] method of the same name.
pub trait DynGame: Send {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// The events before the first decision.
    fn opening_events(&self) -> Vec<DynEvent>;
    /// The seat to decide and the phase, or `None` when the match is over.
    fn to_move(&self) -> Option<Turn>;
    /// What `seat` may know now.
    fn view(&self, seat: usize) -> Value;
    /// The legal actions of the seat to move, for a game that lists them.
    fn legal_actions(&self) -> Option<Vec<Value>>;
    /// Reads and plays `action` for the seat to move and returns what happened; the state is
    /// untouched on error.
    ///
    /// # Errors
    /// [`ActionError::WrongShape`] for JSON that is not an action of the phase,
    /// [`ActionError::Illegal`] for one the rules refuse.
    fn play(&mut self, action: &Value) -> Result<Vec<DynEvent>, ActionError>;
    /// The referee's default action for the seat to move.
    fn default_action(&self) -> Value;
    /// The scores and ranks, once the match is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The running score of every seat.
    fn scores(&self) -> Vec<i64>;
    /// The whole state, hidden parts included.
    fn truth(&self) -> Value;
}

fn json(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("game types serialize")
}

fn dyn_events<E: serde::Serialize>(events: &[Addressed<E>]) -> Vec<DynEvent> {
    events
        .iter()
        .map(|a| DynEvent {
            to: a.to,
            event: json(&a.event),
        })
        .collect()
}

/// A typed game behind the JSON face.
struct Typed<G>(G);

impl<G: Game> DynGame for Typed<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn opening_events(&self) -> Vec<DynEvent> {
        dyn_events(&self.0.opening_events())
    }

    fn to_move(&self) -> Option<Turn> {
        self.0.to_move()
    }

    fn view(&self, seat: usize) -> Value {
        json(&self.0.view(seat))
    }

    fn legal_actions(&self) -> Option<Vec<Value>> {
        self.0
            .legal_actions()
            .map(|legal| legal.iter().map(json).collect())
    }

    fn play(&mut self, action: &Value) -> Result<Vec<DynEvent>, ActionError> {
        let action = self
            .0
            .parse_action(action)
            .map_err(ActionError::WrongShape)?;
        let mut events = Vec::new();
        self.0.play(&action, &mut events)?;
        Ok(dyn_events(&events))
    }

    fn default_action(&self) -> Value {
        json(&self.0.default_action())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn scores(&self) -> Vec<i64> {
        self.0.scores()
    }

    fn truth(&self) -> Value {
        self.0.truth()
    }
}

impl GameKind {
    /// A new match of this game, from options as JSON (`null` for the defaults).
    ///
    /// # Errors
    /// [`SetupError`] for a player count the game does not allow or options it cannot read.
    pub fn new_dyn(
        self,
        options: &Value,
        players: usize,
        seed: u64,
    ) -> Result<Box<dyn DynGame>, SetupError> {
        with_game!(self, G => {
            let options: <G as Game>::Options = if options.is_null() {
                Default::default()
            } else {
                crate::shared_rules::options_from_json::<G>(options)?
            };
            Ok(Box::new(Typed(G::new(&options, players, seed)?)))
        })
    }
}
