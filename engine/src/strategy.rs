//! Built-in bots: strategies called in-process with the same view a bot process receives.
//!
//! They serve tests and fast simulation (`--bot builtin:random`), give a bot author a baseline to
//! beat, and are the opponents of `referee check`. Each game lists its own in
//! [`Game::builtins`]; the first of them is the game's *baseline bot*, the one that tools which
//! know no game play with (the in-process figures of `referee bench`, for one).

use crate::Game;

/// A bot's decision procedure, playing one seat.
pub trait Strategy<G: Game>: Send {
    /// A match begins: the seat played and the seed for this bot's own random choices.
    fn match_start(&mut self, seat: usize, seed: u64);
    /// Chooses an action from the seat's view (and the legal actions, when the game lists them).
    fn decide(&mut self, view: &G::View, legal: Option<&[G::Action]>) -> G::Action;
}

/// One built-in bot of a game: its name after `builtin:` and how to make a fresh one.
pub struct BuiltinBot<G: Game> {
    /// The name accepted after `builtin:` (e.g. `random`).
    pub name: &'static str,
    /// What it does, in a few words (for `referee games`).
    pub summary: &'static str,
    /// A fresh bot, before its first match.
    pub make: fn() -> Box<dyn Strategy<G>>,
}

/// The built-in bot of `G` called `name`, fresh, if there is one.
pub fn builtin<G: Game>(name: &str) -> Option<Box<dyn Strategy<G>>> {
    G::builtins()
        .iter()
        .find(|b| b.name == name)
        .map(|b| (b.make)())
}

/// The names of `G`'s built-in bots, the baseline bot first.
pub fn builtin_names<G: Game>() -> Vec<&'static str> {
    G::builtins().iter().map(|b| b.name).collect()
}

/// The name of `G`'s baseline bot (the first of [`Game::builtins`]).
///
/// # Panics
/// If the game has no built-in bot (a game must have at least its baseline bot; the conformance
/// suite checks it).
pub fn baseline_bot<G: Game>() -> &'static str {
    G::builtins()
        .first()
        .expect("every game has a baseline bot")
        .name
}
