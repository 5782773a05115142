//! The stand-in: a bot that plays a seat by replaying that seat's logged actions in order, so
//! that a match can be played again without one of its bots' code (a ladder's reproduction
//! from the caller's seat, [docs/ladder-reproduce.md](../../../docs/ladder-reproduce.md)).
//!
//! Its script ([`script`]) is made from a match log: one step per decision the seat was asked
//! for, the action it replied or the fault it made instead (and the faults it made outside its
//! turns). The bot ([`serve`]) is an ordinary process, `referee stand-in FILE`, that speaks the
//! JSON-lines protocol on its standard input and output: the runner starts it, times it,
//! sandboxes it and charges its faults as any other bot's, so a match with stand-ins is played
//! on the same code path as a tournament's. When the referee asks it for a decision its script
//! does not have (the match played again has parted from the recorded one), it says so on its
//! standard error and exits with [`DIVERGED_EXIT`], so the divergence shows as that seat's
//! `exited` fault at that turn.

pub mod script;
pub mod serve;

pub use script::{ScriptError, StandInStep, read_script, stand_in_script, write_script};
pub use serve::{DIVERGED_EXIT, RECORDED_EXIT, Served, serve};
