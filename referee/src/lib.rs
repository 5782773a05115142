//! The referee: plays matches of turn-based games between bot programs written in any language,
//! speaking JSON lines over standard input and output.
//!
//! The games themselves are in the `engine` crate (pure state machines, their built-in bots, the
//! registry of games). Here, from the bottom: [`seat`] (bot processes and built-in bots in their
//! seats), [`runner`] (refereeing a match), [`replay`] (re-checking a match log), [`narrative`] (a match log told for a person),
//! [`tournament`] (many matches), [`report`] (a tournament's report), [`check`] (`referee check`), [`starters`] (`referee new-bot`),
//! [`schema`] (the JSON Schemas), [`html`] (self-contained pages: the replay viewer), [`bench`] (measurements), and [`untrusted`] (a bot's text shown inert). The `referee` command is the `referee-cli` crate, which parses and renders only. See `docs/architecture.md`.
#![warn(missing_docs)]

pub mod affinity;
pub mod bench;
pub mod check;
pub mod html;
pub mod narrative;
pub mod numbers;
pub mod policy;
pub mod replay;
pub mod report;
pub mod runner;
pub mod safe_fs;
pub mod schema;
pub mod seat;
pub mod stand_in;
pub mod starters;
pub mod tournament;
pub mod untrusted;
