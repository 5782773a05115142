//! `referee check`: a bot's protocol compliance, item by item, with a verdict on each.
//!
//! The check runs the bot through a short scripted series of exchanges — its hello, then whole
//! matches against the game's built-in bots in one process, with messages it must survive sent
//! in the third — and keeps what it saw as plain [`Facts`]. One pure function,
//! [`verdicts`], turns them into the [`Report`] that the table and the JSON output render. It
//! knows no game: "every phase" is [`Game::phases`](engine::Game::phases), the opponents
//! are the game's built-ins, and the refereeing is the runner's own, so a check sees a bot
//! exactly as a match does. The items are listed in `docs/writing-a-bot.md`.

mod facts;
mod items;
mod refusals;
mod report;
mod session;
mod sparring;
mod verdict;

pub use facts::{Decision, Exit, Facts, Gone, Hello, MatchFacts, Probe};
pub use items::ItemId;
pub use report::{
    DecisionTimes, ItemReport, MatchPlayed, Report, STDERR_LINE_CHARS, STDERR_LINES_SHOWN,
    StderrLines, Verdict,
};
pub use session::{CheckConfig, MAX_MATCHES, PROBE_AT, PROBE_MATCH, SETTLE_BOUND, gather};
pub use sparring::{sparring_partners, trial_players};
pub use verdict::verdicts;

use crate::runner::RunError;
use engine::Game;

/// Checks the bot of `config` at game `G` with `options`.
///
/// # Errors
/// [`RunError`] when the referee itself fails; a bot's misbehaviour is in the report.
pub async fn check<G: Game>(
    config: &CheckConfig,
    options: &G::Options,
) -> Result<Report, RunError> {
    Ok(verdicts(&gather::<G>(config, options).await?))
}
