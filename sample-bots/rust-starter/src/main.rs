//! A bot that plays uniformly at random among the legal actions, for any game that lists them
//! (Vabanque, La Bouillabaisse): the smallest complete bot in Rust, to copy and make smarter.
//! Its only dependency is serde_json.
//!
//! The referee talks to the bot in JSON Lines: one JSON object per line on standard input, and
//! the bot answers with one JSON object per line on standard output. Standard output carries
//! protocol lines only: log to standard error (`eprintln!`).
//!
//! Build it with `cargo build --release`, then run it with
//! `referee match --game vabanque --bot me=target/release/random-starter ...`.

use serde_json::{json, Value};
use std::io::{BufRead, Write};

const NAME: &str = "rust-starter";

/// A small deterministic random number generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number from 0 to `n - 1`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Picks the action to play. `request["view"]` holds everything the seat may know (in Vabanque
/// tokens, chips, cards, money; in La Bouillabaisse the hand, the trick, the scores...); this
/// bot ignores it and draws among `legal`.
fn choose(rng: &mut Rng, request: &Value) -> Value {
    let legal = request["legal"]
        .as_array()
        .filter(|legal| !legal.is_empty())
        .expect("the game lists the legal actions");
    legal[rng.below(legal.len())].clone()
}

fn main() -> std::io::Result<()> {
    let mut rng = Rng(0); // replaced at every match_start: the bot is deterministic
    let mut out = std::io::stdout().lock();
    // One message per line; the loop ends when standard input closes (EOF).
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let message: Value = match serde_json::from_str(&line) {
            Ok(message) => message,
            Err(error) => {
                eprintln!("cannot read {line:?}: {error}");
                continue;
            }
        };
        let reply = match message["type"].as_str() {
            // The first message: say who we are and which protocol we speak.
            Some("hello") => json!({"type": "hello", "name": NAME, "protocol": 1}),
            // A new match: seed our random choices with its seed (a u64, read exactly).
            Some("match_start") => {
                rng = Rng(message["seed"].as_u64().unwrap_or(0));
                continue;
            }
            // Our turn: answer with an action, echoing the request's id.
            Some("request") => json!({
                "type": "action",
                "id": message["id"],
                "action": choose(&mut rng, &message),
            }),
            // No more matches.
            Some("goodbye") => break,
            // Anything else (event, error, match_end, or a type added later) is ignored.
            _ => continue,
        };
        writeln!(out, "{reply}")?;
        out.flush()?; // at once: the referee waits for this line
    }
    Ok(())
}
