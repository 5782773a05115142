//! Exact reproduction of a ladder match on the caller's machine
//! ([docs/ladder-reproduce.md](../../../docs/ladder-reproduce.md)).
//!
//! A match's spec holds everything needed to play it again; what a caller may see of it is a
//! [`Bundle`] ([`visible_bundle`]: its own seats' code, and for the others a stand-in that
//! replays their logged actions, [`referee::stand_in`]). [`reproduce`] plays the bundle's
//! match again through the runner, exactly as a worker plays it (the same
//! [`referee::runner::run_match`], every seat a process or a built-in), and compares it with the
//! record and the recorded log: a [`Reproduction`], naming the first seat and turn that differ.
//! The bundle is a directory on disk ([`Bundle::write`], [`Bundle::read`]) and
//! [`reproduce_dir`] is the whole of it for a command line.

mod bundle;
mod error;
mod play;
#[cfg(test)]
pub(crate) mod test_fixtures;
mod visible;
mod workdirs;

pub use bundle::{
    ARTIFACTS_DIR, Bundle, LOG_FILE, RECORD_FILE, RUN_DIR, SPEC_FILE, STAND_IN_DIR, SeatSource,
    artifact_dir, is_sha256,
};
pub use error::ReproduceError;
pub use play::{
    Played, ReproduceOptions, Reproduction, STAND_IN_SCRIPT, match_config, reproduce, reproduce_dir,
};
pub use visible::{Caller, HIDDEN_COMMAND, HIDDEN_MESSAGE, NotVisible, visible_bundle};
