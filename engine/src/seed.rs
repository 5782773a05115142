//! Seed derivation: every random stream of a match comes from the match seed and a label.
//!
//! A stream is a ChaCha8 generator keyed by (match seed, label, index): streams do not depend on
//! the order in which they are created, any stream can be rebuilt from the match seed alone, and
//! derivation is one-way. The one-way part is a hidden-information guarantee: a bot is given
//! [`bot_seed`] for its own randomness, and must not be able to work back from it to the match
//! seed (which drives the deal of card games) or to another seat's seed (which drives a random
//! opponent's hidden choices).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn fnv1a(label: &str) -> u64 {
    label.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The random generator of the stream named `label`, number `index`, of `seed`.
pub fn rng(seed: u64, label: &str, index: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&fnv1a(label).to_le_bytes());
    key[16..24].copy_from_slice(&index.to_le_bytes());
    ChaCha8Rng::from_seed(key)
}

/// A sub-seed of `seed` for the stream named `label`, number `index`: the stream's first output.
pub fn derive(seed: u64, label: &str, index: u64) -> u64 {
    rng(seed, label, index).next_u64()
}

/// The seed given to the bot in `seat` for its own random choices.
pub fn bot_seed(match_seed: u64, seat: usize) -> u64 {
    derive(match_seed, "bot", seat as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_by_label_and_index_and_are_stable() {
        assert_ne!(derive(1, "game", 0), derive(1, "bot", 0));
        assert_ne!(derive(1, "bot", 0), derive(1, "bot", 1));
        assert_ne!(derive(1, "bot", 0), derive(2, "bot", 0));
        assert_eq!(derive(42, "game", 0), derive(42, "game", 0));
    }

    #[test]
    fn bot_seeds_are_not_a_simple_function_of_each_other() {
        // Neighbouring match seeds and seats give unrelated bot seeds (no shared bits pattern a
        // bot could use to step from its own seed to another's).
        let a = bot_seed(1000, 0);
        let b = bot_seed(1000, 1);
        let c = bot_seed(1001, 0);
        for (x, y) in [(a, b), (a, c), (b, c)] {
            let differing = (x ^ y).count_ones();
            assert!(
                (16..=48).contains(&differing),
                "{x:x} vs {y:x}: {differing} bits differ"
            );
        }
    }
}
