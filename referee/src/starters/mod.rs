//! Starter bots for `referee new-bot`, for every registered game. In Python, JavaScript, Java,
//! C++ and Go a game's starter is its sample bot `sample-bots/<directory>/<game>_random.<extension>`
//! where there is one (found by the build script, `build.rs`, and built into the binary as it is,
//! so a starter is a sample bot by construction), with the files its language's samples share
//! (Java's `Json.java`, Go's `go.mod`); in Rust, the one crate of `sample-bots/rust-starter/`, which plays among the
//! legal actions, for every game that lists them. A new game's starters need no code here.

mod catalogue;
mod error;
mod files;
mod language;
mod recipe;
#[cfg(test)]
mod tests;
mod writing;

pub use catalogue::{Starter, starter, starters};
pub use error::NewBotError;
pub use files::StarterFile;
pub use language::Language;
pub use recipe::Recipe;
