//! The matches the conformance suite plays: the game's built-in bots, one per seat in turn, and
//! about one decision in four the referee's default action instead.

use super::Case;
use crate::{Addressed, Game, Strategy, Turn, seed};

/// The most decisions a match may take before the suite says it does not end.
pub const MAX_DECISIONS: u64 = 1_000_000;

/// One decision of a played match.
pub struct Step<G: Game> {
    /// Who decided, in which phase.
    pub turn: Turn,
    /// What was played.
    pub action: G::Action,
    /// What happened.
    pub events: Vec<Addressed<G::Event>>,
}

/// A whole match as the suite played it.
pub struct Playout<G: Game> {
    /// The events before the first decision.
    pub opening: Vec<Addressed<G::Event>>,
    /// Every decision, in order.
    pub steps: Vec<Step<G>>,
    /// The final state.
    pub end: G,
}

/// The players of a suite match: a built-in bot per seat, and the rule that picks the decisions
/// the default action takes instead.
pub struct Players<G: Game> {
    bots: Vec<Box<dyn Strategy<G>>>,
    seed: u64,
}

impl<G: Game> Players<G> {
    /// Seat `s` is played by built-in `(s + seed) mod n`, seeded as the referee seeds bots.
    pub fn new(case: &Case<G>) -> Self {
        let builtins = G::builtins();
        let bots = (0..case.players)
            .map(|s| {
                let pick = (s as u64).wrapping_add(case.seed) % builtins.len() as u64;
                let mut bot = (builtins[pick as usize].make)();
                bot.match_start(s, seed::bot_seed(case.seed, s));
                bot
            })
            .collect();
        Players {
            bots,
            seed: case.seed,
        }
    }

    /// The action for decision `n` of `game`: the seat's bot's, or the default action.
    pub fn choose(&mut self, game: &G, turn: Turn, n: u64) -> G::Action {
        if seed::derive(self.seed, "conformance", n) % 4 == 0 {
            game.default_action()
        } else {
            let legal = game.legal_actions();
            self.bots[turn.seat].decide(&game.view(turn.seat), legal.as_deref())
        }
    }
}

/// Plays the match of `case`, calling `before` with the state, the turn and the chosen action
/// before each decision is played.
///
/// # Errors
/// The message of the first failure: the setup refused, `before` failing, an action of the
/// bots or the default action refused by `play`, or a match that does not end within
/// [`MAX_DECISIONS`].
pub fn playout<G: Game>(
    case: &Case<G>,
    mut before: impl FnMut(&G, Turn, &G::Action) -> Result<(), String>,
) -> Result<Playout<G>, String> {
    let mut game = G::new(&case.options, case.players, case.seed)
        .map_err(|e| format!("the setup is refused: {e}"))?;
    let opening = game.opening_events();
    let mut players = Players::new(case);
    let mut steps = Vec::new();
    let mut n = 0u64;
    while let Some(turn) = game.to_move() {
        if n == MAX_DECISIONS {
            return Err(format!("the match has not ended after {n} decisions"));
        }
        let action = players.choose(&game, turn, n);
        before(&game, turn, &action)?;
        let mut events = Vec::new();
        game.play(&action, &mut events)
            .map_err(|e| format!("decision {n}: {action:?} was refused by play: {e}"))?;
        steps.push(Step {
            turn,
            action,
            events,
        });
        n += 1;
    }
    Ok(Playout {
        opening,
        steps,
        end: game,
    })
}
