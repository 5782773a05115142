//! Rule code that every game applies the same way: the player-count check at setup, the
//! documented default action (a random legal action drawn from the match seed), and the redeal
//! of the hands a seat cannot see, for the twin states of the conformance suite.

use crate::{Game, PlayerCounts, SetupError, seed};

/// Refuses a player count outside [`Game::player_counts`].
///
/// # Errors
/// [`SetupError::PlayerCount`] naming the game and the counts it allows.
pub fn check_player_count<G: Game>(players: usize) -> Result<(), SetupError> {
    let counts = PlayerCounts::of::<G>();
    if counts.contains(players) {
        Ok(())
    } else {
        Err(SetupError::PlayerCount { counts, players })
    }
}

/// The options of `G` from their JSON form.
///
/// # Errors
/// [`SetupError::Options`] naming the game and what is wrong.
pub fn options_from_json<G: Game>(options: &serde_json::Value) -> Result<G::Options, SetupError> {
    serde_json::from_value(options.clone()).map_err(|e| SetupError::Options {
        game: G::NAME,
        message: e.to_string(),
    })
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

/// Deals the cards of every hand but `seat`'s, and the `hidden` cards no seat sees (a stock, say),
/// anew among those hands from a stream of `seed`: each hand keeps its size and is sorted by
/// `sort`. Returns the hidden cards in their new order. What [`Game::resample_hidden`] does for
/// a card game whose only secrets are the hands (and an unseen pile).
pub fn redeal_others<C: Copy>(
    hands: &mut [Vec<C>],
    seat: usize,
    hidden: &[C],
    seed: u64,
    sort: impl Fn(&mut [C]),
) -> Vec<C> {
    use rand::seq::SliceRandom;
    let others: Vec<usize> = (0..hands.len()).filter(|&s| s != seat).collect();
    let mut pool: Vec<C> = others
        .iter()
        .flat_map(|&s| hands[s].iter().copied())
        .chain(hidden.iter().copied())
        .collect();
    pool.shuffle(&mut seed::rng(seed, "resample", 0));
    for &s in &others {
        let rest = pool.split_off(hands[s].len());
        hands[s] = std::mem::replace(&mut pool, rest);
        sort(&mut hands[s]);
    }
    pool
}
