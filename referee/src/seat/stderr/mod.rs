//! A bot's standard error: read by a task of its own ([`drain`]) as far as the bot's budget
//! allows ([`budget`]): past it the referee stops reading, and the bot waits on its own writes
//! until its next request — so a flood costs the flooder, never the referee or the other bots.
//! It is never kept whole in memory: its end ([`tail`]) for fault messages and the match log,
//! and up to a cap in a file (`sink.rs`, counted in [`count`]). The budgets are documented
//! in docs/security.md#the-limits.

pub mod budget;
pub mod count;
pub mod drain;
mod sink;
pub mod tail;

pub use budget::{StderrBudget, StderrGate, StderrOverflow};
pub use count::StderrCount;
pub use drain::drain;
pub use tail::{RECENT_BYTES, RecentStderr, StderrTail};
