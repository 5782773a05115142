//! The plays the rules refused among a seat's answers in a check match — a game's own penalty,
//! not a fault (a table that does not hold, in Machiavelli) — found by playing the match's log
//! again and asking the game which events say so ([`Game::refusal`]).

use crate::runner::LogRecord;
use engine::Game;

/// Each decision of `seat` in the match of `log` (dealt from `options`, `players` and `seed`)
/// that the rules refused, with the message the seat was told, in order.
pub fn refusals<G: Game>(
    options: &G::Options,
    players: usize,
    seed: u64,
    log: &[LogRecord],
    seat: usize,
) -> Vec<(u64, String)> {
    let Ok(mut game) = G::new(options, players, seed) else {
        return Vec::new();
    };
    let mut events = Vec::new();
    let mut found = Vec::new();
    for record in log {
        let LogRecord::Action {
            n,
            seat: decider,
            action,
            ..
        } = record
        else {
            continue;
        };
        // The runner logged what it played: both hold unless the match ended void, and then
        // what came before is all there is.
        let Ok(action) = game.parse_action(action) else {
            break;
        };
        events.clear();
        if game.play(&action, &mut events).is_err() {
            break;
        }
        if *decider != seat {
            continue;
        }
        let told = events
            .iter()
            .filter(|e| e.to.includes(seat))
            .find_map(|e| G::refusal(&e.event));
        if let Some(message) = told {
            found.push((*n, message.to_string()));
        }
    }
    found
}
