//! Text the referee did not write — what a bot wrote (its `hello` name, its standard error, the
//! lines it sent), and anything read back from a results directory or a match log (a bot's name
//! in `tournament.json`, a fault message in `matches.jsonl`), which anyone may have edited —
//! shown so that it cannot act on what shows it.
//!
//! One rule, [`needs_escape`], says which characters are dangerous: the controls (C0, DEL, C1),
//! which a terminal obeys (ESC starts a sequence that clears the screen or sets the window's
//! title; CR and LF let a bot write a line that looks like the referee's), and the invisible
//! format characters (bidi overrides and isolates, zero-width spaces, the line and paragraph
//! separators), which reorder or hide what is shown. Each output then writes them in its own
//! inert form:
//!
//! - a terminal: [`text`] — `\u{1b}`, `\r`, `\n`, `\t`, `\u{202e}`, Rust's notation, which
//!   `referee check` has always printed; a text of many lines (a bot's stderr) is split by the
//!   referee, each line escaped, and marked as the bot's where it is shown;
//! - JSON: [`json`] — `\u001b`, `\u202e`, which every JSON reader decodes back;
//! - CSV: [`csv`] — quoted by the `csv` crate (RFC 4180), a text cell that a spreadsheet would
//!   read as a formula prefixed with `'`;
//! - Markdown: [`markdown`] — `|`, `\`, backticks, `<` and the emphasis characters escaped, so
//!   that a cell stays a cell and markup shows as text.
//!
//! HTML pages escape for HTML on their own (`crate::html::page`). See `docs/security.md`, "What
//! a bot's text can do to your terminal".

pub mod csv;
pub mod json;
pub mod markdown;
pub mod text;

pub use text::{Shown, layout, line, lines, needs_escape, quoted, shown};
