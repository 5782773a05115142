//! From facts to verdicts: the one place that decides what passed. A pure function, so the
//! decision table is tested without a bot.
//!
//! Each fault is charged to exactly one item: a fault at a request that followed a probe to the
//! probe's item, any other by its kind (a reply with another id to `id_echo`, a line that is not
//! a protocol message to `stdout`, an exit or a crash to `lifecycle`, …).

mod charging;
mod checklist;
mod conduct;
mod counts;
mod item_report;
mod judge;
mod measures;
mod stderr_lines;

pub use checklist::verdicts;

#[cfg(test)]
mod stderr_lines_tests;
#[cfg(test)]
mod tests;
