//! The conformance suite: what every registered game must satisfy, written once, generic over
//! [`Game`], and run for each game of the [registry](crate::registry) by `engine/tests/`. A new
//! game gets all of it by registering.
//!
//! Each property plays whole matches ([`Case`]s: an option set of [`Game::option_variants`], a
//! player count, a seed) with the game's own built-in bots, one per seat in turn, with about
//! one decision in four played by the referee's default action instead, and checks:
//!
//! - [`plays_through`]: every match ends; at each decision the phase is one of
//!   [`Game::phases`], the game lists its legal actions at every decision or at none (as
//!   [`Game::LISTS_ACTIONS`] says), every
//!   listed action, the default action, the baseline action and the bots' choices are legal,
//!   an action survives its trip through JSON, `check` and `play` agree, events go to real seats,
//!   and the outcome ranks the scores;
//! - [`determinism`]: the same case gives the same events, views, outcome and final state;
//! - [`refusals_change_nothing`]: an action `check` refuses is refused by `play`, and leaves the
//!   state, every view and the event list exactly as they were;
//! - [`hidden_information`]: the twin-state test. From positions of a match, the state with every
//!   secret of seat `s` redrawn ([`Game::resample_hidden`]) must give `s` the same view; both are
//!   played on with the same actions, and as long as `s`'s view stays the same in both, every
//!   event told to `s` must be the same too (a view is everything a seat may know, so an event
//!   that differs while the view does not tells `s` something it may not know);
//! - [`replays_from_json`]: the actions of a match, as JSON and read back through
//!   [`Game::parse_action`], replay it to the same final state;
//! - [`running_scores`]: [`Game::scores`] has a score per seat at every decision, is the same in
//!   every seat's twin state (it is public), and is the outcome's scores at the end.

mod playout;
mod properties;

pub use playout::{MAX_DECISIONS, Players, Playout, Step, playout};
pub use properties::{
    determinism, hidden_information, plays_through, refusals_change_nothing, replays_from_json,
    running_scores,
};

use crate::Game;
use std::fmt;

/// One match of the suite: options, player count and seed.
#[derive(Clone, Debug)]
pub struct Case<G: Game> {
    /// The game options.
    pub options: G::Options,
    /// The number of players.
    pub players: usize,
    /// The match seed (the bots' seeds derive from it).
    pub seed: u64,
}

/// A property that does not hold, with the case that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The game.
    pub game: &'static str,
    /// The property.
    pub property: &'static str,
    /// The case, as `options … players … seed …`.
    pub case: String,
    /// What does not hold.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} does not hold ({}): {}",
            self.game, self.property, self.case, self.message
        )
    }
}

impl std::error::Error for Violation {}

impl<G: Game> Case<G> {
    /// A violation of `property` in this case.
    pub fn violation(&self, property: &'static str, message: impl Into<String>) -> Violation {
        Violation {
            game: G::NAME,
            property,
            case: format!(
                "options {}, {} players, seed {}",
                serde_json::to_string(&self.options).unwrap_or_default(),
                self.players,
                self.seed
            ),
            message: message.into(),
        }
    }
}

/// The cases of a run: every option set of [`Game::option_variants`] with every player count
/// the game allows, `seeds` seeds each (from `first_seed`).
pub fn cases<G: Game>(seeds: u64, first_seed: u64) -> Vec<Case<G>> {
    let mut cases = Vec::new();
    for options in G::option_variants() {
        for players in G::player_counts() {
            for seed in first_seed..first_seed + seeds {
                cases.push(Case {
                    options: options.clone(),
                    players,
                    seed: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ players as u64,
                });
            }
        }
    }
    cases
}

/// The game's declarations the suite relies on: at least one phase, one player count, one
/// option set and one built-in bot (the baseline bot), with distinct names.
///
/// # Errors
/// A [`Violation`] naming what is missing.
pub fn declarations<G: Game>() -> Result<(), Violation> {
    let fail = |message: &str| Violation {
        game: G::NAME,
        property: "declarations",
        case: "the game's declarations".to_string(),
        message: message.to_string(),
    };
    if G::phases().is_empty() {
        return Err(fail("no phase"));
    }
    if G::player_counts().is_empty() || *G::player_counts().start() == 0 {
        return Err(fail("no valid player count"));
    }
    if G::option_variants().is_empty() {
        return Err(fail("no option set"));
    }
    let names = crate::strategy::builtin_names::<G>();
    if names.is_empty() {
        return Err(fail(
            "no built-in bot (the first is the game's baseline bot)",
        ));
    }
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    if unique.len() != names.len() || names.iter().any(|n| n.is_empty()) {
        return Err(fail("built-in bot names must be distinct and not empty"));
    }
    Ok(())
}

/// Runs every property on [`cases`]`(seeds, first_seed)`.
///
/// # Errors
/// The first [`Violation`] found.
pub fn run<G: Game>(seeds: u64, first_seed: u64) -> Result<(), Violation> {
    declarations::<G>()?;
    for case in cases::<G>(seeds, first_seed) {
        plays_through(&case)?;
        determinism(&case)?;
        refusals_change_nothing(&case)?;
        hidden_information(&case)?;
        replays_from_json(&case)?;
        running_scores(&case)?;
    }
    Ok(())
}
