//! Checks of user input shared by the commands that run bots: before any process starts, every
//! built-in exists, every command can run, and the options parse.

use super::Failure;
use engine::Game;
use referee::seat::BotSpec;

/// Every built-in name exists in the game and every command exists and is executable.
pub fn check_bots<G: Game>(specs: &[BotSpec]) -> Result<(), Failure> {
    specs
        .iter()
        .try_for_each(BotSpec::check::<G>)
        .map_err(Failure::usage)
}

/// The game's options from their JSON form.
pub fn game_options<G: Game>(options: &serde_json::Value) -> Result<G::Options, Failure> {
    engine::shared_rules::options_from_json::<G>(options).map_err(Failure::usage)
}
