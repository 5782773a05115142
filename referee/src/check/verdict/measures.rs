//! The items that only inform: the bot's decision times and its peak memory.

use super::item_report::{not_run, report};
use crate::check::facts::Facts;
use crate::check::items::ItemId;
use crate::check::report::{DecisionTimes, ItemReport, Verdict};

pub(super) fn decision_times(facts: &Facts) -> Option<DecisionTimes> {
    let times: Vec<f64> = facts
        .matches
        .iter()
        .flat_map(|m| &m.decisions)
        .filter(|d| d.answered)
        .map(|d| d.ms)
        .collect();
    DecisionTimes::of(&times)
}

pub(super) fn decision_time(facts: &Facts) -> ItemReport {
    match decision_times(facts) {
        Some(t) => report(
            ItemId::DecisionTime,
            Verdict::Info,
            format!(
                "mean {:.2} ms, p99 {:.2} ms, max {:.2} ms over {} answers",
                t.mean_ms, t.p99_ms, t.max_ms, t.decisions
            ),
            None,
        ),
        None => not_run(
            ItemId::DecisionTime,
            "no answer was accepted, so none was timed".into(),
        ),
    }
}

pub(super) fn memory(facts: &Facts) -> ItemReport {
    let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
    let peak = facts.peak_memory.unwrap_or_default();
    let detail = match (peak.largest_process_bytes, peak.control_group_bytes) {
        (Some(own), Some(group)) => format!(
            "{:.1} MiB resident (its largest process); {:.1} MiB as its memory limit counts it",
            mib(own),
            mib(group)
        ),
        (Some(own), None) => format!("{:.1} MiB resident (its largest process)", mib(own)),
        (None, Some(group)) => format!("{:.1} MiB as its memory limit counts it", mib(group)),
        (None, None) => {
            return not_run(
                ItemId::Memory,
                "not measured: its processes were gone (or could not be read in /proc) and it \
                 had no control group of its own"
                    .into(),
            );
        }
    };
    report(ItemId::Memory, Verdict::Info, detail, None)
}
