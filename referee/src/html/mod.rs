//! Self-contained HTML pages: one file with its scripts, styles and data inside, nothing fetched
//! from a network ([`page`]). See `docs/replay-viewer.md` for the security model.

pub mod page;

pub use page::{Page, PageError, escape_html};
