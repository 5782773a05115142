//! The bot's own words under each failed item: the last lines it wrote to its stderr up to the
//! failure — a crash's traceback, a debug print before an illegal action. The moment is the
//! failure's first request where it has one (the first fault charged to the item, or, for
//! `phases`, the first request of a phase never answered), else the end of the bot's run.

use super::charging::{charged, decision_at};
use crate::check::facts::{Facts, MatchFacts};
use crate::check::items::ItemId;
use crate::check::report::{
    ItemReport, STDERR_LINE_CHARS, STDERR_LINES_SHOWN, StderrLines, Verdict,
};

/// Fills in the stderr of every failed item of `items`.
pub(super) fn attach(items: &mut [ItemReport], facts: &Facts) {
    for item in items.iter_mut().filter(|i| i.verdict == Verdict::Fail) {
        item.stderr = lines(facts, moment(item.item, facts));
    }
}

/// A request of the check: the match's index in [`Facts::matches`] and the request's in it.
type Request = (usize, usize);

/// The request `item` failed at, if it failed at one.
fn moment(item: ItemId, facts: &Facts) -> Option<Request> {
    facts.hello.as_ref().ok()?;
    if item == ItemId::Phases {
        return facts.matches.iter().enumerate().find_map(|(m, played)| {
            played
                .decisions
                .iter()
                .position(|d| !answered_in(facts, &d.phase))
                .map(|i| (m, i))
        });
    }
    let (number, i) = charged(facts, item).first()?.request?;
    let m = facts.matches.iter().position(|m| m.number == number)?;
    Some((m, i))
}

/// Whether any request of `phase` got an accepted answer.
fn answered_in(facts: &Facts, phase: &str) -> bool {
    facts
        .matches
        .iter()
        .flat_map(|m| &m.decisions)
        .any(|d| d.phase == phase && d.answered)
}

/// The last lines the bot wrote to its stderr up to `at` (the end of its run for `None`);
/// `None` when it wrote none.
fn lines(facts: &Facts, at: Option<Request>) -> Option<StderrLines> {
    let (text, until) = match at {
        Some((m, i)) => {
            let played: &MatchFacts = &facts.matches[m];
            let mut text = String::new();
            for (k, each) in facts.matches[..=m].iter().enumerate() {
                let upto = if k == m { i + 1 } else { each.decisions.len() };
                let written = std::iter::once(each.before.as_deref())
                    .chain(each.decisions[..upto].iter().map(|d| d.stderr.as_deref()));
                text.extend(written.flatten());
            }
            (text, decision_at(played, &played.decisions[i]))
        }
        None => (facts.stderr_end.clone(), "the end of its run".to_string()),
    };
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let shown = &all[all.len().saturating_sub(STDERR_LINES_SHOWN)..];
    if shown.is_empty() {
        return None;
    }
    Some(StderrLines {
        until,
        lines: shown
            .iter()
            .map(|l| cut(&crate::untrusted::line(l.trim_end())))
            .collect(),
        earlier: all.len() > shown.len(),
    })
}

/// `line` cut to [`STDERR_LINE_CHARS`] characters, its start kept, `…` where cut.
fn cut(line: &str) -> String {
    match line.char_indices().nth(STDERR_LINE_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}
