//! Rule code that every game applies the same way: the player-count check at setup, and the
//! documented default action (a random legal action drawn from the match seed).

use crate::{Game, SetupError, seed};

/// Refuses a player count outside [`Game::player_counts`].
///
/// # Errors
/// [`SetupError::PlayerCount`] naming the game and the counts it allows.
pub fn check_player_count<G: Game>(players: usize) -> Result<(), SetupError> {
    let counts = G::player_counts();
    if counts.contains(&players) {
        Ok(())
    } else {
        Err(SetupError::PlayerCount {
            game: G::NAME,
            players,
            min: *counts.start(),
            max: *counts.end(),
        })
    }
}

/// A uniformly random legal action of the seat to move, drawn from the match seed and the number
/// of the decision in the match: the default action of games that list their legal actions. A
/// faulting bot thus plays exactly as well as `builtin:random` (faulting never pays), and the
/// choice is the same on every run and every machine. In a game that lists no action here, it is
/// the game's [baseline action](Game::baseline_action) for the seat to move.
///
/// # Panics
/// If the match is over (no seat is to move).
pub fn seeded_legal_action<G: Game>(game: &G, match_seed: u64, decision: u64) -> G::Action {
    match game.legal_actions() {
        Some(legal) if !legal.is_empty() => {
            let pick = seed::derive(match_seed, "default", decision) % legal.len() as u64;
            legal[pick as usize].clone()
        }
        _ => {
            let turn = game
                .to_move()
                .expect("a default action while a seat is to move");
            G::baseline_action(&game.view(turn.seat))
        }
    }
}
