//! Sample bots in Rust; the programs are in `src/bin/`.
