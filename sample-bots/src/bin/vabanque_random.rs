//! A random Vabanque bot in Rust: plays a uniformly random legal action, seeded by the match.
//!
//! Run it with `referee match --game vabanque --bot r=target/release/vabanque-random ...`.

use protocol::vabanque::Action;
use sample_bots::RandomBot;
use serde::de::IgnoredAny;

fn main() -> std::io::Result<()> {
    protocol::bot::run::<IgnoredAny, Action, IgnoredAny>(&mut RandomBot::new("rust-random"))
}
