//! From facts to verdicts: the one place that decides what passed. A pure function, so the
//! decision table is tested without a bot.
//!
//! Each fault is charged to exactly one item: a fault at a request that followed a probe to the
//! probe's item, any other by its kind (a reply with another id to `id_echo`, a line that is not
//! a protocol message to `stdout`, an exit or a crash to `lifecycle`, …).

use super::facts::{Decision, Facts, MatchFacts, Probe};
use super::items::ItemId;
use super::report::{DecisionTimes, ItemReport, MatchPlayed, Report, Verdict};
use crate::runner::FaultRecord;
use crate::seat::Fault;
use protocol::FaultKind;

/// The checklist for what the check saw.
pub fn verdicts(facts: &Facts) -> Report {
    let items = match &facts.hello {
        Ok(_) => ItemId::ALL.map(|item| judge(item, facts)).to_vec(),
        Err(fault) => ItemId::ALL
            .map(|item| judge_failed_hello(item, facts, fault))
            .to_vec(),
    };
    let required: Vec<&ItemReport> = items.iter().filter(|i| i.required).collect();
    let names = |verdict: Verdict| -> Vec<&str> {
        required
            .iter()
            .filter(|i| i.verdict == verdict)
            .map(|i| i.item.as_str())
            .collect()
    };
    let (failed, not_run) = (names(Verdict::Fail), names(Verdict::NotRun));
    let passed = failed.is_empty() && not_run.is_empty();
    let summary = summary(&failed, &not_run, required.len(), facts);
    Report {
        game: facts.game,
        command: facts.command.clone(),
        seed: facts.seed,
        opponents: facts.opponents.clone(),
        passed,
        summary,
        items,
        matches: facts
            .matches
            .iter()
            .map(|m| MatchPlayed {
                seed: m.seed,
                seat: m.seat,
            })
            .collect(),
        decision_times: decision_times(facts),
        peak_memory: facts.peak_memory,
    }
}

/// The one-line summary.
fn summary(failed: &[&str], not_run: &[&str], required: usize, facts: &Facts) -> String {
    if failed.is_empty() && not_run.is_empty() {
        let requests: usize = facts.matches.iter().map(|m| m.decisions.len()).sum();
        return format!(
            "PASS: all {required} required items passed ({} matches, {requests} requests)",
            facts.matches.len()
        );
    }
    let mut text = format!("FAIL: {} of {required} required items failed", failed.len());
    if !failed.is_empty() {
        text.push_str(&format!(" ({})", failed.join(", ")));
    }
    if !not_run.is_empty() {
        text.push_str(&format!(
            "; {} could not be checked ({})",
            not_run.len(),
            not_run.join(", ")
        ));
    }
    text
}

/// A fault with where it happened, for messages.
struct Charged<'a> {
    fault: &'a FaultRecord,
    at: String,
    /// The match and the index of the request in it, when at a request.
    request: Option<(usize, usize)>,
}

/// The item a fault outside any probe is charged to.
fn item_of(fault: &FaultRecord) -> ItemId {
    match fault.fault {
        FaultKind::StaleId => ItemId::IdEcho,
        FaultKind::Timeout => ItemId::Time,
        FaultKind::IllegalAction => ItemId::LegalActions,
        // A wrong shape that is not about a line is about the action of a reply.
        FaultKind::WrongShape if fault.line.is_none() => ItemId::LegalActions,
        FaultKind::Malformed | FaultKind::WrongShape | FaultKind::LineTooLong => ItemId::Stdout,
        FaultKind::SpawnFailed
        | FaultKind::StartupTimeout
        | FaultKind::ProtocolMismatch
        | FaultKind::Exited
        | FaultKind::WriteFailed
        | FaultKind::ResourceLimit => ItemId::Lifecycle,
    }
}

/// The item the faults at a request after `probe` are charged to.
fn probe_item(probe: Probe) -> ItemId {
    match probe {
        Probe::Unknown { .. } => ItemId::ForwardCompat,
        Probe::Error => ItemId::ErrorMessage,
    }
}

/// Every fault of the matches charged to `item`, in order.
fn charged(facts: &Facts, item: ItemId) -> Vec<Charged<'_>> {
    let mut out = Vec::new();
    for m in &facts.matches {
        let at_requests = m.decisions.iter().enumerate().flat_map(|(i, d)| {
            let probe = m.probe_at(i);
            d.faults.iter().map(move |f| {
                let owner = probe.map_or_else(|| item_of(f), probe_item);
                (f, owner, at_request(m, d), Some((m.number, i)))
            })
        });
        let elsewhere = m
            .other_faults
            .iter()
            .map(|f| (f, item_of(f), format!("match {}", m.number), None));
        out.extend(
            at_requests
                .chain(elsewhere)
                .filter(|(_, owner, ..)| *owner == item)
                .map(|(fault, _, at, request)| Charged { fault, at, request }),
        );
    }
    out
}

fn at_request(m: &MatchFacts, d: &Decision) -> String {
    format!("request {} ({}, match {})", d.id, d.phase, m.number)
}

fn report(item: ItemId, verdict: Verdict, detail: String, expected: Option<String>) -> ItemReport {
    ItemReport {
        item,
        title: item.title(),
        required: item.required(),
        verdict,
        detail,
        expected,
        doc: item.doc(),
    }
}

fn pass(item: ItemId, detail: String) -> ItemReport {
    report(item, Verdict::Pass, detail, None)
}

fn fail(item: ItemId, facts: &Facts, got: String) -> ItemReport {
    report(item, Verdict::Fail, got, Some(expected(item, facts)))
}

fn not_run(item: ItemId, why: String) -> ItemReport {
    report(item, Verdict::NotRun, why, None)
}

/// What `item` expects, for its failures.
fn expected(item: ItemId, facts: &Facts) -> String {
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

/// The verdict on `item` once the handshake succeeded.
fn judge(item: ItemId, facts: &Facts) -> ItemReport {
    let hello = facts.hello.as_ref().expect("judged after a handshake");
    let faults = charged(facts, item);
    let first = faults.first();
    let answers = facts
        .matches
        .iter()
        .flat_map(|m| &m.decisions)
        .filter(|d| d.answered)
        .count();
    match item {
        ItemId::Handshake => pass(
            item,
            format!(
                "started and answered hello in {:.0} ms (limit {} ms)",
                facts.hello_ms, facts.limits.startup_ms
            ),
        ),
        ItemId::Name if hello.name.trim().is_empty() => {
            fail(item, facts, format!("the name {:?}", hello.name))
        }
        ItemId::Name => pass(item, format!("{:?}", hello.name)),
        ItemId::ProtocolVersion => pass(item, "declared no other version than 1".into()),
        ItemId::Phases => phases(facts),
        ItemId::LegalActions | ItemId::IdEcho | ItemId::Time | ItemId::Stdout => match first {
            Some(c) => fail(item, facts, first_of(&faults, c, item)),
            None => pass(item, clean(item, facts, answers)),
        },
        ItemId::Lifecycle => lifecycle(facts, first),
        ItemId::ForwardCompat | ItemId::ErrorMessage => probe(item, facts, first),
        ItemId::DecisionTime => decision_time(facts),
        ItemId::Memory => memory(facts),
    }
}

/// "N faults; the first at WHERE: WHAT", showing the bot's own line when there is one.
fn first_of(all: &[Charged], c: &Charged, item: ItemId) -> String {
    let what = match (&c.fault.line, item) {
        (Some(line), ItemId::Stdout) => format!("the line {line:?} ({})", c.fault.fault),
        (Some(line), ItemId::IdEcho) => format!("{line} ({})", c.fault.message),
        _ => format!("{}: {}", c.fault.fault, c.fault.message),
    };
    let count = match (all.len(), item) {
        (1, _) => String::new(),
        (n, ItemId::Stdout) => format!("{n} stray lines; the first "),
        (n, _) => format!("{n} faults; the first "),
    };
    format!("{count}at {}: {what}", c.at)
}

/// The evidence for a clean item.
fn clean(item: ItemId, facts: &Facts, answers: usize) -> String {
    match item {
        ItemId::LegalActions => format!("{answers} answers, every one legal"),
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

fn phases(facts: &Facts) -> ItemReport {
    let all: Vec<(&MatchFacts, &Decision)> = facts
        .matches
        .iter()
        .flat_map(|m| m.decisions.iter().map(move |d| (m, d)))
        .collect();
    let stopped = facts.matches.iter().find(|m| m.stopped);
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for &phase in facts.phases {
        let asked: Vec<&(&MatchFacts, &Decision)> =
            all.iter().filter(|(_, d)| d.phase == phase).collect();
        let answered = asked.iter().filter(|(_, d)| d.answered).count();
        if answered > 0 {
            good.push(format!("{phase} {answered}/{}", asked.len()));
            continue;
        }
        bad.push(match asked.first() {
            None => match stopped {
                Some(m) => format!(
                    "{phase}: never asked (the bot was stopped in match {} before any {phase} request)",
                    m.number
                ),
                None => format!("{phase}: never asked"),
            },
            Some((m, d)) => {
                let why = d
                    .faults
                    .last()
                    .map(|f| format!(": {}: {}", f.fault, f.message))
                    .unwrap_or_default();
                format!(
                    "{phase}: no answer accepted in {} requests; the first, {}{why}",
                    asked.len(),
                    at_request(m, d)
                )
            }
        });
    }
    if bad.is_empty() {
        pass(
            ItemId::Phases,
            format!("answers accepted, by phase: {}", good.join(", ")),
        )
    } else {
        fail(ItemId::Phases, facts, bad.join("; "))
    }
}

fn lifecycle(facts: &Facts, first: Option<&Charged>) -> ItemReport {
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
            format!("at {}: {}: {}{hint}", c.at, c.fault.fault, c.fault.message),
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
    match facts.exit {
        None => not_run(item, "the bot was no longer running at goodbye".into()),
        Some(exit) if !exit.by_itself => fail(
            item,
            facts,
            format!(
                "still running {:.0} ms after goodbye and the end of its input; it was killed",
                exit.ms
            ),
        ),
        Some(exit) => pass(
            item,
            format!(
                "played {} matches in one process and exited {:.0} ms after goodbye",
                facts.matches.len(),
                exit.ms
            ),
        ),
    }
}

fn probe(item: ItemId, facts: &Facts, first: Option<&Charged>) -> ItemReport {
    let sent = facts.matches.iter().find_map(|m| {
        m.probes
            .iter()
            .find(|&&(_, p)| probe_item(p) == item)
            .map(|&(i, p)| (m, i, p))
    });
    let Some((m, i, probe)) = sent else {
        return not_run(
            item,
            "the bot was stopped before the match that tests it".into(),
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
            format!(
                "after {what}, at {}: {}: {}",
                c.at, c.fault.fault, c.fault.message
            ),
        ),
        (None, Some(d)) => pass(item, format!("{short}; {} answered", at_request(m, d))),
        (None, None) => not_run(
            item,
            format!(
                "the bot was not asked again after {what} (stopped in match {})",
                m.number
            ),
        ),
    }
}

fn decision_times(facts: &Facts) -> Option<DecisionTimes> {
    let times: Vec<f64> = facts
        .matches
        .iter()
        .flat_map(|m| &m.decisions)
        .filter(|d| d.answered)
        .map(|d| d.ms)
        .collect();
    DecisionTimes::of(&times)
}

fn decision_time(facts: &Facts) -> ItemReport {
    let detail = match decision_times(facts) {
        Some(t) => format!(
            "mean {:.2} ms, p99 {:.2} ms, max {:.2} ms over {} answers",
            t.mean_ms, t.p99_ms, t.max_ms, t.decisions
        ),
        None => "no answer was timed".into(),
    };
    report(ItemId::DecisionTime, Verdict::Info, detail, None)
}

fn memory(facts: &Facts) -> ItemReport {
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
        (None, None) => "not measured".into(),
    };
    report(ItemId::Memory, Verdict::Info, detail, None)
}

/// The verdict on `item` when the handshake failed with `fault`: the bot was stopped there.
fn judge_failed_hello(item: ItemId, facts: &Facts, fault: &Fault) -> ItemReport {
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
        (ItemId::Handshake, _) => got(""),
        (ItemId::ProtocolVersion, FaultKind::ProtocolMismatch) => got(""),
        (ItemId::Stdout, FaultKind::Malformed | FaultKind::LineTooLong) => {
            let mut out = got("its first line, instead of a hello: ");
            if let Some(line) = &fault.line {
                out.detail = format!(
                    "the line {line:?} came instead of a hello ({})",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::facts::{Exit, Hello};
    use protocol::Limits;

    fn fault(kind: FaultKind, line: Option<&str>) -> FaultRecord {
        FaultRecord {
            seat: 0,
            decision: Some(0),
            fault: kind,
            message: format!("a {kind} fault"),
            line: line.map(String::from),
        }
    }

    /// A match of three requests, one per phase, each answered cleanly.
    fn clean_match(number: usize, probes: Vec<(usize, Probe)>) -> MatchFacts {
        MatchFacts {
            number,
            seed: number as u64,
            seat: 0,
            decisions: ["chip", "card", "move"]
                .iter()
                .enumerate()
                .map(|(i, phase)| Decision {
                    id: (number * 3 + i) as u64,
                    phase: phase.to_string(),
                    answered: true,
                    ms: 1.0 + i as f64,
                    faults: Vec::new(),
                })
                .collect(),
            other_faults: Vec::new(),
            stopped: false,
            probes,
        }
    }

    fn clean() -> Facts {
        Facts {
            game: "vabanque",
            command: "python3 bot.py".into(),
            seed: 1,
            opponents: vec!["random".into(), "heuristic".into()],
            phases: &["chip", "card", "move"],
            limits: Limits::new(10_000, 1000),
            hello: Ok(Hello {
                name: "bot".into(),
                events: true,
            }),
            hello_ms: 40.0,
            matches: vec![
                clean_match(1, Vec::new()),
                clean_match(2, Vec::new()),
                clean_match(
                    3,
                    vec![(0, Probe::Unknown { event: true }), (1, Probe::Error)],
                ),
            ],
            exit: Some(Exit {
                by_itself: true,
                ms: 3.0,
            }),
            peak_memory: None,
        }
    }

    /// The required items that did not pass.
    fn failing(report: &Report) -> Vec<(ItemId, Verdict)> {
        report
            .items
            .iter()
            .filter(|i| i.required && i.verdict != Verdict::Pass)
            .map(|i| (i.item, i.verdict))
            .collect()
    }

    #[test]
    fn a_clean_run_passes_every_required_item() {
        let report = verdicts(&clean());
        assert!(report.passed, "{report:#?}");
        assert_eq!(failing(&report), []);
        assert_eq!(report.items.len(), ItemId::ALL.len());
        assert_eq!(report.decision_times.unwrap().decisions, 9);
        assert_eq!(report.item(ItemId::DecisionTime).verdict, Verdict::Info);
    }

    #[test]
    fn each_fault_is_charged_to_one_item_with_what_was_expected() {
        let cases = [
            (FaultKind::Timeout, None, ItemId::Time),
            (FaultKind::StaleId, Some("{\"id\":9}"), ItemId::IdEcho),
            (FaultKind::IllegalAction, None, ItemId::LegalActions),
            (FaultKind::WrongShape, None, ItemId::LegalActions),
            (FaultKind::WrongShape, Some("{\"x\":1}"), ItemId::Stdout),
            (FaultKind::Malformed, Some("debug"), ItemId::Stdout),
            (FaultKind::LineTooLong, None, ItemId::Stdout),
            (FaultKind::Exited, None, ItemId::Lifecycle),
            (FaultKind::WriteFailed, None, ItemId::Lifecycle),
            (FaultKind::ResourceLimit, None, ItemId::Lifecycle),
        ];
        for (kind, line, item) in cases {
            let mut facts = clean();
            // The second request of match 2, answered late or wrongly (no probe there).
            facts.matches[1].decisions[1].faults.push(fault(kind, line));
            let report = verdicts(&facts);
            assert_eq!(failing(&report), [(item, Verdict::Fail)], "{kind}");
            let failed = report.item(item);
            assert!(
                failed.detail.contains("request 7 (card, match 2)"),
                "{failed:?}"
            );
            assert!(!failed.expected.as_ref().unwrap().is_empty());
            if let (Some(line), ItemId::Stdout) = (line, item) {
                assert!(failed.detail.contains(&format!("{line:?}")), "{failed:?}");
            }
            assert!(report.summary.contains(item.as_str()), "{}", report.summary);
        }
    }

    #[test]
    fn a_fault_after_a_probe_is_the_probes() {
        for (request, item) in [(0, ItemId::ForwardCompat), (1, ItemId::ErrorMessage)] {
            let mut facts = clean();
            let probed = &mut facts.matches[2];
            probed.decisions[request].answered = false;
            probed.decisions[request]
                .faults
                .push(fault(FaultKind::Exited, None));
            probed.decisions.truncate(request + 1);
            probed.stopped = true;
            facts.exit = None;
            let report = verdicts(&facts);
            let mut expected = vec![(item, Verdict::Fail), (ItemId::Lifecycle, Verdict::NotRun)];
            if request == 0 {
                expected.push((ItemId::ErrorMessage, Verdict::NotRun));
            }
            expected.sort_by_key(|(i, _)| ItemId::ALL.iter().position(|x| x == i));
            assert_eq!(failing(&report), expected);
        }
    }

    #[test]
    fn a_phase_never_answered_fails_and_says_why() {
        let mut facts = clean();
        for m in &mut facts.matches {
            m.decisions.retain(|d| d.phase != "move");
        }
        let report = verdicts(&facts);
        assert_eq!(failing(&report), [(ItemId::Phases, Verdict::Fail)]);
        assert!(
            report
                .item(ItemId::Phases)
                .detail
                .contains("move: never asked"),
            "{:?}",
            report.item(ItemId::Phases)
        );
    }

    #[test]
    fn a_bot_still_running_after_goodbye_fails_lifecycle() {
        let mut facts = clean();
        facts.exit = Some(Exit {
            by_itself: false,
            ms: 1004.0,
        });
        let report = verdicts(&facts);
        assert_eq!(failing(&report), [(ItemId::Lifecycle, Verdict::Fail)]);
    }

    #[test]
    fn a_failed_handshake_leaves_the_rest_not_run() {
        let mut facts = clean();
        facts.matches.clear();
        facts.exit = None;
        facts.hello = Err(Fault::new(FaultKind::Exited, "it exited with code 3"));
        let report = verdicts(&facts);
        assert!(!report.passed);
        let failed: Vec<ItemId> = failing(&report)
            .into_iter()
            .filter(|(_, v)| *v == Verdict::Fail)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(failed, [ItemId::Handshake, ItemId::Lifecycle]);
        assert_eq!(report.item(ItemId::Phases).verdict, Verdict::NotRun);

        facts.hello = Err(Fault::new(FaultKind::Malformed, "not JSON").with_line("hi there"));
        let report = verdicts(&facts);
        assert!(report.item(ItemId::Stdout).detail.contains("\"hi there\""));

        facts.hello = Err(Fault::new(FaultKind::ProtocolMismatch, "speaks 2"));
        let report = verdicts(&facts);
        assert_eq!(report.item(ItemId::Handshake).verdict, Verdict::Pass);
        assert_eq!(report.item(ItemId::ProtocolVersion).verdict, Verdict::Fail);
    }
}
