//! The items judged on the bot's whole conduct over the check: every phase answered, a process
//! that lives from hello to goodbye and then exits, and the probes taken in stride.

use super::charging::{Charged, decision_at, probe_item};
use super::item_report::{fail, not_run, pass};
use crate::check::facts::{Decision, Facts, MatchFacts, Probe};
use crate::check::items::ItemId;
use crate::check::report::ItemReport;

pub(super) fn phases(facts: &Facts) -> ItemReport {
    let all: Vec<(&MatchFacts, &Decision)> = facts
        .matches
        .iter()
        .flat_map(|m| m.decisions.iter().map(move |d| (m, d)))
        .collect();
    // Why the check ended early, if it did: the bot stopped by the referee or gone.
    let ended = facts
        .matches
        .iter()
        .find(|m| m.stopped)
        .map(|m| format!("the bot was stopped in match {}", m.number))
        .or_else(|| {
            facts
                .gone
                .as_ref()
                .map(|g| format!("the bot exited after match {}", g.after_match))
        });
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let mut unasked = Vec::new();
    for &phase in facts.phases {
        let asked: Vec<&(&MatchFacts, &Decision)> =
            all.iter().filter(|(_, d)| d.phase == phase).collect();
        let answered = asked.iter().filter(|(_, d)| d.answered).count();
        if answered > 0 {
            good.push(format!("{phase} {answered}/{}", asked.len()));
            continue;
        }
        bad.push(match asked.first() {
            None if ended.is_some() => {
                unasked.push(phase);
                continue;
            }
            None => format!("{phase}: never asked"),
            Some((m, d)) => {
                let why = d
                    .faults
                    .last()
                    .map(|f| format!(": {}: {}", f.fault, f.message))
                    .unwrap_or_default();
                let requests = match asked.len() {
                    1 => "1 request".to_string(),
                    n => format!("{n} requests"),
                };
                format!(
                    "{phase}: no answer accepted in {requests}; the first, {}{why}",
                    decision_at(m, d)
                )
            }
        });
    }
    match (bad.is_empty(), unasked.is_empty(), ended) {
        (true, true, _) => pass(
            ItemId::Phases,
            format!("answers accepted, by phase: {}", good.join(", ")),
        ),
        // Phases never asked because the check ended early are not the bot's failure here:
        // whatever ended it is, under its own item.
        (true, false, Some(ended)) => not_run(
            ItemId::Phases,
            format!(
                "{} never asked: {ended} (see the failed items){}",
                unasked.join(", "),
                if good.is_empty() {
                    String::new()
                } else {
                    format!("; answers accepted, by phase: {}", good.join(", "))
                }
            ),
        ),
        _ => {
            bad.extend(unasked.iter().map(|phase| format!("{phase}: never asked")));
            fail(ItemId::Phases, facts, bad.join("; "))
        }
    }
}

pub(super) fn lifecycle(facts: &Facts, first: Option<&Charged>) -> ItemReport {
    let item = ItemId::Lifecycle;
    if let Some(c) = first {
        // Gone at the first request of a later match: it most likely quit after match_end.
        let hint = match c.request {
            Some((m, 0)) if m > 1 => {
                "; did it exit after match_end? Wait for goodbye or the end of input"
            }
            _ => "",
        };
        return fail(
            item,
            facts,
            format!("{}: {}: {}{hint}", c.at, c.kind, c.message),
        );
    }
    if let Some(gone) = &facts.gone {
        return fail(
            item,
            facts,
            format!("{}; wait for goodbye or the end of input", gone.how.message),
        );
    }
    if let Some(m) = facts.matches.iter().find(|m| m.stopped) {
        return not_run(
            item,
            format!(
                "the referee stopped the bot in match {} (see the failed items)",
                m.number
            ),
        );
    }
    let Some(exit) = &facts.exit else {
        return not_run(item, "the bot was no longer running at goodbye".into());
    };
    if !exit.by_itself {
        return fail(
            item,
            facts,
            format!(
                "still running {:.0} ms after goodbye and the end of its input; it was killed",
                exit.ms
            ),
        );
    }
    if let Some(failure) = &exit.failure {
        return fail(item, facts, format!("after goodbye {}", failure.message));
    }
    let at_eof = match &facts.eof_exit {
        Some(eof) if !eof.by_itself => {
            return fail(
                item,
                facts,
                format!(
                    "exits on goodbye, but a run whose input ended after hello, with no goodbye, was still running {:.0} ms later; it was killed",
                    eof.ms
                ),
            );
        }
        Some(eof) => format!(", {:.0} ms after EOF alone", eof.ms),
        None => String::new(),
    };
    pass(
        item,
        format!(
            "{} matches in one process; exited {:.0} ms after goodbye{at_eof}",
            facts.matches.len(),
            exit.ms
        ),
    )
}

pub(super) fn probe(item: ItemId, facts: &Facts, first: Option<&Charged>) -> ItemReport {
    let sent = facts.matches.iter().find_map(|m| {
        m.probes
            .iter()
            .find(|&&(_, p)| probe_item(p) == item)
            .map(|&(i, p)| (m, i, p))
    });
    let Some((m, i, probe)) = sent else {
        return not_run(
            item,
            "the bot was stopped or gone before the match that tests it (see the failed items)"
                .into(),
        );
    };
    let (what, short) = match probe {
        Probe::Unknown { event: true } => (
            "a message of an unknown type and an event of an unknown kind",
            "unknown message type and event kind ignored",
        ),
        Probe::Unknown { event: false } => (
            "a message of an unknown type (no event: the bot declined events)",
            "unknown message type ignored",
        ),
        Probe::Error => (
            "an error message about nothing the bot did",
            "error message taken in stride",
        ),
    };
    match (first, m.decisions.get(i)) {
        (Some(c), _) => fail(
            item,
            facts,
            format!("after {what}, {}: {}: {}", c.at, c.kind, c.message),
        ),
        (None, Some(d)) if d.answered => {
            pass(item, format!("{short}; {} answered", decision_at(m, d)))
        }
        (None, Some(d)) => not_run(
            item,
            format!(
                "after {what}, {} got no accepted answer, for a fault of another item (see the failed items)",
                decision_at(m, d)
            ),
        ),
        (None, None) => not_run(
            item,
            format!(
                "the bot was not asked again after {what} (stopped in match {})",
                m.number
            ),
        ),
    }
}
