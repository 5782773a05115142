//! Self-contained HTML pages: one file with its scripts, styles and data inside, nothing fetched
//! from a network ([`page`]), and the pages the referee writes with it: [`replay_page`], the
//! replay viewer of `referee replay FILE --html OUT`. See `docs/replay-viewer.md` for the security model.

pub mod page;
pub mod replay_page;

pub use page::{Page, PageError, escape_html};
pub use replay_page::{ReplayPageError, replay_page};
