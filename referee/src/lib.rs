//! The referee: plays matches of turn-based games between bot programs written in any language,
//! speaking JSON lines over standard input and output.
//!
//! Layers, from the bottom: [`engine`] (pure game state machines), [`seat`] (bot processes and
//! built-in bots), [`runner`] (refereeing a match), [`replay`] (re-checking a match log), and
//! [`cli`] (the `referee` command). See `docs/architecture.md`.
#![warn(missing_docs)]

pub mod bench;
pub mod bots;
pub mod check;
pub mod cli;
pub mod engine;
pub mod games;
pub mod replay;
pub mod runner;
pub mod seat;
pub mod starters;
pub mod tournament;
