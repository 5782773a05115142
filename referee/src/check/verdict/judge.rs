//! The verdict on each item, by item: after a handshake, on the faults charged to it and the
//! evidence of a clean run; after a failed handshake, on that fault alone.

use super::charging::{charged, decision_at, first_of};
use super::conduct::{lifecycle, phases, probe};
use super::counts::{answers, requests};
use super::item_report::{expected, fail, not_run, pass};
use super::measures::{decision_time, decision_times, memory};
use crate::check::facts::{Decision, Facts, MatchFacts};
use crate::check::items::ItemId;
use crate::check::report::ItemReport;
use crate::seat::Fault;
use crate::untrusted::quoted;
use protocol::FaultKind;

/// The verdict on `item` once the handshake succeeded.
pub(super) fn judge(item: ItemId, facts: &Facts) -> ItemReport {
    let hello = facts.hello.as_ref().expect("judged after a handshake");
    let faults = charged(facts, item);
    let first = faults.first();
    let answers = answers(facts);
    match item {
        ItemId::Handshake => pass(
            item,
            format!(
                "started and answered hello in {:.0} ms (limit {} ms)",
                facts.hello_ms, facts.limits.startup_ms
            ),
        ),
        ItemId::Name if hello.name.trim().is_empty() => {
            fail(item, facts, format!("the name {}", quoted(&hello.name)))
        }
        ItemId::Name => pass(item, quoted(&hello.name)),
        ItemId::ProtocolVersion => pass(item, "declared no other version than 1".into()),
        ItemId::Phases => phases(facts),
        ItemId::LegalActions | ItemId::IdEcho | ItemId::Time | ItemId::Stdout => match first {
            Some(c) => fail(item, facts, first_of(&faults, c, item)),
            None => match unexercised(item, facts, answers) {
                Some(why) => not_run(item, why),
                None => pass(item, clean(item, facts, answers)),
            },
        },
        ItemId::Lifecycle => lifecycle(facts, first),
        ItemId::ForwardCompat | ItemId::ErrorMessage => probe(item, facts, first),
        ItemId::DecisionTime => decision_time(facts),
        ItemId::Memory => memory(facts),
    }
}

/// Why an item with no fault charged to it was not really checked, if it was not: no answer
/// was accepted to judge (`stdout`: no request was even sent).
fn unexercised(item: ItemId, facts: &Facts, answers: usize) -> Option<String> {
    let requests = requests(facts);
    let what = match item {
        ItemId::LegalActions => "no action to judge",
        ItemId::IdEcho => "no id to judge",
        ItemId::Time => "no answer to time",
        ItemId::Stdout if requests == 0 => {
            return Some("the bot was asked no request, so it wrote no line but its hello".into());
        }
        _ => return None,
    };
    match (requests, answers) {
        (0, _) => Some(format!("the bot was asked no request: {what}")),
        (n, 0) => Some(format!(
            "no answer accepted in {n} requests: {what} (see the failed items)"
        )),
        _ => None,
    }
}

/// The evidence for a clean item.
fn clean(item: ItemId, facts: &Facts, answers: usize) -> String {
    match item {
        ItemId::LegalActions => legal_actions(facts, answers),
        ItemId::IdEcho => format!("{answers} answers, each with its request's id"),
        ItemId::Time => {
            let max = decision_times(facts).map_or(0.0, |t| t.max_ms);
            format!(
                "slowest answer {max:.1} ms (limit {} ms)",
                facts.limits.decision_ms
            )
        }
        _ => "no line but protocol messages".into(),
    }
}

/// The evidence for a clean `legal_actions`: for a game that lists no actions, the answers the
/// rules refused with the game's own penalty, and the first of them.
fn legal_actions(facts: &Facts, answers: usize) -> String {
    if facts.lists_actions {
        return format!("{answers} answers, every one legal");
    }
    let refused: Vec<(&MatchFacts, &Decision, &str)> = facts
        .matches
        .iter()
        .flat_map(|m| m.decisions.iter().map(move |d| (m, d)))
        .filter_map(|(m, d)| d.refused.as_deref().map(|message| (m, d, message)))
        .collect();
    let game = facts.game;
    match refused.first() {
        None => format!("{answers} answers, none refused by the rules ({game} lists no actions)"),
        Some((m, d, message)) => format!(
            "{answers} answers, {} refused by the rules with {game}'s penalty; the first, at {}: {message}",
            refused.len(),
            decision_at(m, d)
        ),
    }
}

/// The verdict on `item` when the handshake failed with `fault`: the bot was stopped there.
pub(super) fn judge_failed_hello(item: ItemId, facts: &Facts, fault: &Fault) -> ItemReport {
    let got = |what: &str| {
        let mut out = fail(
            item,
            facts,
            format!("{what}{}: {}", fault.fault, fault.message),
        );
        out.expected = Some(expected(item, facts));
        out
    };
    let stopped = || {
        not_run(
            item,
            format!(
                "the handshake failed ({}), so the bot was stopped",
                fault.fault
            ),
        )
    };
    match (item, fault.fault) {
        (ItemId::Handshake, FaultKind::ProtocolMismatch) => {
            pass(item, format!("answered hello in {:.0} ms", facts.hello_ms))
        }
        (ItemId::Handshake, FaultKind::StartupTimeout) => {
            // Most often a reply never flushed: the rule to read is the flush's.
            let mut out = got("");
            out.doc = "docs/protocol.md#transport";
            out
        }
        (ItemId::Handshake, _) => got(""),
        (ItemId::ProtocolVersion, FaultKind::ProtocolMismatch) => got(""),
        (ItemId::Stdout, FaultKind::Malformed | FaultKind::LineTooLong) => {
            let mut out = got("its first line, instead of a hello: ");
            if let Some(line) = &fault.line {
                out.detail = format!(
                    "the line {} came instead of a hello ({})",
                    quoted(line),
                    fault.fault
                );
            }
            out
        }
        (ItemId::Lifecycle, FaultKind::Exited | FaultKind::ResourceLimit) => {
            got("it was gone before answering hello: ")
        }
        (ItemId::DecisionTime, _) => decision_time(facts),
        (ItemId::Memory, _) => memory(facts),
        _ => stopped(),
    }
}
