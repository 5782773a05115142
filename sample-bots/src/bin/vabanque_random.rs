//! A random Vabanque bot in Rust: plays a uniformly random legal action, seeded by the match.
//!
//! Run it with `referee match --game vabanque --bot r=target/release/vabanque-random ...`.

fn main() -> std::io::Result<()> {
    sample_bots::run_random::<engine::vabanque::Vabanque>("rust-random")
}
