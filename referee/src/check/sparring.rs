//! The bots a bot under test meets: how many seats a trial has, and the game's built-in bots
//! that fill the others (`referee check`, and the starter bots' READMEs).

use crate::seat::{BotSpec, Launch};
use engine::Game;

/// How many seats a bot under test plays at: the game's smallest count, but at least 3 when the
/// game allows it, so that the bot meets more than one opponent.
pub fn trial_players<G: Game>() -> usize {
    let counts = G::player_counts();
    (*counts.start()).max(3).min(*counts.end())
}

/// Built-in opponents for one bot under test: `count` of them, the game's built-ins in turn,
/// each with a name of its own (`random`, `heuristic`, `random-2`, …).
pub fn sparring_partners<G: Game>(count: usize) -> Vec<BotSpec> {
    let names = engine::strategy::builtin_names::<G>();
    names
        .iter()
        .cycle()
        .take(count)
        .enumerate()
        .map(|(i, builtin)| {
            let name = match i / names.len() {
                0 => builtin.to_string(),
                round => format!("{builtin}-{}", round + 1),
            };
            BotSpec::new(Some(name), Launch::Builtin(builtin.to_string()))
                .expect("built-in names are valid bot names")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::vabanque::Vabanque;

    #[test]
    fn sparring_partners_take_the_built_ins_in_turn_with_names_of_their_own() {
        let names: Vec<String> = sparring_partners::<Vabanque>(5)
            .into_iter()
            .map(|spec| spec.name)
            .collect();
        assert_eq!(
            names,
            ["random", "heuristic", "random-2", "heuristic-2", "random-3"]
        );
    }
}
