//! What the check counts across its matches: the requests the bot was sent, and its answers
//! that were accepted.

use crate::check::facts::Facts;

/// The requests the bot was sent in all.
pub(super) fn requests(facts: &Facts) -> usize {
    facts.matches.iter().map(|m| m.decisions.len()).sum()
}

/// The bot's answers that were accepted (played as sent, or refused by the rules as a move).
pub(super) fn answers(facts: &Facts) -> usize {
    facts
        .matches
        .iter()
        .flat_map(|m| &m.decisions)
        .filter(|d| d.answered)
        .count()
}
