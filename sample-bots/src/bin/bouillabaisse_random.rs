//! A random La Bouillabaisse bot in Rust: plays a uniformly random legal card, seeded by the
//! match.
//!
//! Run it with `referee match --game bouillabaisse --bot r=target/release/bouillabaisse-random ...`.

fn main() -> std::io::Result<()> {
    sample_bots::run_random::<engine::bouillabaisse::Bouillabaisse>("rust-random")
}
