//! Seed derivation: every random stream of a match comes from the match seed and a label.
//!
//! Derivation is a pure function (SplitMix64 over the seed mixed with an FNV-1a hash of the
//! label and an index), so streams do not depend on the order in which they are created, and
//! any stream can be rebuilt from the match seed alone.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn fnv1a(label: &str) -> u64 {
    label.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// A sub-seed of `seed` for the stream named `label`, number `index`.
pub fn derive(seed: u64, label: &str, index: u64) -> u64 {
    splitmix64(splitmix64(seed ^ fnv1a(label)) ^ index)
}

/// The random generator of the stream named `label`, number `index`, of `seed`.
pub fn rng(seed: u64, label: &str, index: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(derive(seed, label, index))
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
        assert_eq!(derive(42, "game", 0), derive(42, "game", 0));
    }
}
