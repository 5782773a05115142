//! Tokens: random, shown once, stored only as their SHA-256. A token is 256 random bits, so a
//! fast hash is enough to make a stolen database useless (argon2 is for passwords people choose;
//! it would cost every request tens of milliseconds for nothing here), and an account is found
//! by its token's hash with one indexed lookup.

use base64::Engine;
use sha2::{Digest, Sha256};

/// A new token: `rl_` and 43 characters of URL-safe base64 (256 random bits).
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    format!(
        "rl_{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    )
}

/// A new lease token: 128 random bits in hex.
pub fn new_lease() -> String {
    hex(&rand::random::<[u8; 16]>())
}

/// What the store keeps of a token: its SHA-256 in hex.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ_and_their_hashes_are_what_is_kept() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 46);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), token_hash(&b));
        assert_eq!(new_lease().len(), 32);
    }
}
