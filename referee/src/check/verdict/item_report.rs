//! One item's report: its verdict with the evidence, and what the item expects, for failures.

use crate::check::facts::Facts;
use crate::check::items::ItemId;
use crate::check::report::{ItemReport, Verdict};

pub(super) fn report(
    item: ItemId,
    verdict: Verdict,
    detail: String,
    expected: Option<String>,
) -> ItemReport {
    ItemReport {
        item,
        title: item.title(),
        required: item.required(),
        verdict,
        detail,
        expected,
        doc: item.doc(),
        stderr: None,
    }
}

pub(super) fn pass(item: ItemId, detail: String) -> ItemReport {
    report(item, Verdict::Pass, detail, None)
}

pub(super) fn fail(item: ItemId, facts: &Facts, got: String) -> ItemReport {
    report(item, Verdict::Fail, got, Some(expected(item, facts)))
}

pub(super) fn not_run(item: ItemId, why: String) -> ItemReport {
    report(item, Verdict::NotRun, why, None)
}

/// What `item` expects, for its failures.
pub(super) fn expected(item: ItemId, facts: &Facts) -> String {
    let limits = &facts.limits;
    match item {
        ItemId::Handshake => format!(
            "a line {{\"type\":\"hello\",\"name\":...}} answering hello within {} ms",
            limits.startup_ms
        ),
        ItemId::Name => "a non-empty \"name\" in the hello reply".into(),
        ItemId::ProtocolVersion => {
            "\"protocol\": 1 in the hello reply, or no \"protocol\" at all".into()
        }
        ItemId::Phases => format!(
            "a legal action answering a request of every phase ({})",
            facts.phases.join(", ")
        ),
        ItemId::LegalActions => {
            "an action of the phase's shape that the rules allow (any element of \"legal\" is)"
                .into()
        }
        ItemId::IdEcho => "one action per request, carrying the request's \"id\"".into(),
        ItemId::Time => format!(
            "each action within the request's time_left_ms ({} ms per decision{})",
            limits.decision_ms,
            limits
                .first_decision_ms
                .map(|ms| format!(", {ms} ms for the first of a match"))
                .unwrap_or_default()
        ),
        ItemId::Stdout => {
            "only protocol lines on stdout, one JSON message per line (log to stderr)".into()
        }
        ItemId::Lifecycle => {
            "keeps playing match after match in one process until goodbye, then exits by itself within 1 s"
                .into()
        }
        ItemId::ForwardCompat => {
            "message types and event kinds it does not know are ignored, and play goes on".into()
        }
        ItemId::ErrorMessage => {
            "an error message from the referee is read (or ignored), and play goes on".into()
        }
        ItemId::DecisionTime | ItemId::Memory => String::new(),
    }
}
