//! A random La Bouillabaisse bot in Rust: plays a uniformly random legal card, seeded by the
//! match.
//!
//! Run it with `referee match --game bouillabaisse --bot r=target/release/bouillabaisse-random ...`.

use protocol::bouillabaisse::Action;
use sample_bots::RandomBot;
use serde::de::IgnoredAny;

fn main() -> std::io::Result<()> {
    protocol::bot::run::<IgnoredAny, Action, IgnoredAny>(&mut RandomBot::new("rust-random"))
}
