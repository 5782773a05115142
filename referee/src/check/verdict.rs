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
    kind: FaultKind,
    message: &'a str,
    /// The bot's line, when the fault is about one.
    line: Option<&'a str>,
    /// Where, with its preposition ("at request 3 (chip, match 1)", "after goodbye").
    at: String,
    /// The match and the index of the request in it, when at a request.
    request: Option<(usize, usize)>,
}

impl<'a> Charged<'a> {
    fn of_record(f: &'a FaultRecord, at: String, request: Option<(usize, usize)>) -> Self {
        Charged {
            kind: f.fault,
            message: &f.message,
            line: f.line.as_deref(),
            at,
            request,
        }
    }

    fn of_fault(f: &'a Fault, at: String) -> Self {
        Charged {
            kind: f.fault,
            message: &f.message,
            line: f.line.as_deref(),
            at,
            request: None,
        }
    }
}

/// The item a fault of `kind` is charged to by its kind; `line` tells whether it is about a
/// line the bot wrote.
fn item_of(kind: FaultKind, line: bool) -> ItemId {
    match kind {
        FaultKind::StaleId => ItemId::IdEcho,
        FaultKind::Timeout => ItemId::Time,
        FaultKind::IllegalAction => ItemId::LegalActions,
        // A wrong shape that is not about a line is about the action of a reply.
        FaultKind::WrongShape if !line => ItemId::LegalActions,
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

/// The item a fault at request `d`, which `probe` came before (if any), is charged to.
///
/// Only a crash or a timeout right after a probe is the probe's doing, and a timeout only when
/// the bot times out nowhere else (`timeouts_elsewhere`): a slow bot is slow anyway. A timeout
/// at a request the bot answered with another id is the wrong id's doing: its real reply was
/// ignored. Every other fault is charged by its kind.
fn owner(f: &FaultRecord, d: &Decision, probe: Option<Probe>, timeouts_elsewhere: bool) -> ItemId {
    let wrong_id = d.faults.iter().any(|x| x.fault == FaultKind::StaleId);
    match (f.fault, probe) {
        (FaultKind::Timeout, _) if wrong_id => ItemId::IdEcho,
        (FaultKind::Timeout, Some(p)) if !timeouts_elsewhere => probe_item(p),
        (FaultKind::Exited | FaultKind::WriteFailed | FaultKind::ResourceLimit, Some(p)) => {
            probe_item(p)
        }
        _ => item_of(f.fault, f.line.is_some()),
    }
}

/// Every fault of the check charged to `item`, in order: at requests, elsewhere in matches,
/// between matches, and after `goodbye`.
fn charged(facts: &Facts, item: ItemId) -> Vec<Charged<'_>> {
    let timeouts_elsewhere = facts.matches.iter().any(|m| {
        m.decisions.iter().enumerate().any(|(i, d)| {
            m.probe_at(i).is_none() && d.faults.iter().any(|f| f.fault == FaultKind::Timeout)
        })
    });
    let mut out = Vec::new();
    for m in &facts.matches {
        for (i, d) in m.decisions.iter().enumerate() {
            let probe = m.probe_at(i);
            out.extend(
                d.faults
                    .iter()
                    .filter(|f| owner(f, d, probe, timeouts_elsewhere) == item)
                    .map(|f| {
                        let at = format!("at {}", at_request(m, d));
                        Charged::of_record(f, at, Some((m.number, i)))
                    }),
            );
        }
        out.extend(
            m.other_faults
                .iter()
                .filter(|f| item_of(f.fault, f.line.is_some()) == item)
                .map(|f| Charged::of_record(f, format!("in match {}", m.number), None)),
        );
        out.extend(
            m.after
                .iter()
                .filter(|f| item_of(f.fault, f.line.is_some()) == item)
                .map(|f| {
                    let at = format!("after the bot's last request of match {}", m.number);
                    Charged::of_fault(f, at)
                }),
        );
    }
    if let Some(exit) = &facts.exit {
        out.extend(
            exit.stray
                .iter()
                .filter(|f| item_of(f.fault, f.line.is_some()) == item)
                .map(|f| Charged::of_fault(f, "after goodbye".into())),
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
    let what = match (c.line, item) {
        (Some(line), ItemId::Stdout) if c.kind == FaultKind::LineTooLong => {
            format!("the line {line:?}… ({}: {})", c.kind, c.message)
        }
        (Some(line), ItemId::Stdout) => format!("the line {line:?} ({})", c.kind),
        (Some(line), ItemId::IdEcho) => format!("{line} ({})", c.message),
        _ => format!("{}: {}", c.kind, c.message),
    };
    let count = match (all.len(), item) {
        (1, _) => String::new(),
        (n, ItemId::Stdout) => format!("{n} stray lines; the first "),
        (n, _) => format!("{n} faults; the first "),
    };
    // A wrong id leaves its request unanswered: the timeout that follows is charged here too.
    let timed_out = if item == ItemId::IdEcho && all.iter().any(|c| c.kind == FaultKind::Timeout) {
        "; the request with the wrong id then timed out (counted here, not under time)"
    } else {
        ""
    };
    format!("{count}{}: {what}{timed_out}", c.at)
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
                    at_request(m, d)
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
    use crate::check::facts::{Exit, Gone, Hello};
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

    /// A match of four requests, every phase asked, each answered cleanly.
    fn clean_match(number: usize, probes: Vec<(usize, Probe)>) -> MatchFacts {
        MatchFacts {
            number,
            seed: number as u64,
            seat: 0,
            decisions: ["chip", "card", "move", "card"]
                .iter()
                .enumerate()
                .map(|(i, phase)| Decision {
                    id: (number * 4 + i) as u64,
                    phase: phase.to_string(),
                    answered: true,
                    ms: 1.0 + i as f64,
                    faults: Vec::new(),
                })
                .collect(),
            other_faults: Vec::new(),
            stopped: false,
            probes,
            after: Vec::new(),
        }
    }

    fn exit(by_itself: bool) -> Exit {
        Exit {
            by_itself,
            ms: if by_itself { 3.0 } else { 1004.0 },
            failure: None,
            stray: Vec::new(),
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
                    vec![(1, Probe::Unknown { event: true }), (2, Probe::Error)],
                ),
            ],
            gone: None,
            exit: Some(exit(true)),
            eof_exit: Some(exit(true)),
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
        assert_eq!(report.decision_times.unwrap().decisions, 12);
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
                failed.detail.contains("request 9 (card, match 2)"),
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
        for (request, item) in [(1, ItemId::ForwardCompat), (2, ItemId::ErrorMessage)] {
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
            if request == 1 {
                expected.push((ItemId::ErrorMessage, Verdict::NotRun));
            }
            // Phases all answered before the crash, so phases still pass.
            expected.sort_by_key(|(i, _)| ItemId::ALL.iter().position(|x| x == i));
            assert_eq!(failing(&report), expected);
        }
    }

    #[test]
    fn only_a_crash_or_a_lone_timeout_after_a_probe_is_the_probes() {
        let timeout = || fault(FaultKind::Timeout, None);
        // A debug line right after a probe is stdout's.
        let mut facts = clean();
        facts.matches[2].decisions[1]
            .faults
            .push(fault(FaultKind::Malformed, Some("debug")));
        assert_eq!(
            failing(&verdicts(&facts)),
            [(ItemId::Stdout, Verdict::Fail)]
        );
        // A timeout after a probe is the probe's, unless the bot times out elsewhere too.
        let mut facts = clean();
        facts.matches[2].decisions[1].faults.push(timeout());
        assert_eq!(
            failing(&verdicts(&facts)),
            [(ItemId::ForwardCompat, Verdict::Fail)]
        );
        facts.matches[0].decisions[3].faults.push(timeout());
        assert_eq!(failing(&verdicts(&facts)), [(ItemId::Time, Verdict::Fail)]);
        // A timeout after a wrong id is the id's.
        let mut facts = clean();
        let d = &mut facts.matches[0].decisions[0];
        d.faults.push(fault(FaultKind::StaleId, Some("{\"id\":9}")));
        d.faults.push(timeout());
        let report = verdicts(&facts);
        assert_eq!(failing(&report), [(ItemId::IdEcho, Verdict::Fail)]);
        assert!(report.item(ItemId::IdEcho).detail.contains("timed out"));
    }

    #[test]
    fn a_bot_gone_before_goodbye_or_unclean_at_the_end_fails_lifecycle() {
        let gone = |after_match| {
            let mut facts = clean();
            facts.matches.truncate(after_match);
            facts.exit = None;
            facts.gone = Some(Gone {
                after_match,
                how: Fault::new(FaultKind::Exited, "gone; it exited with code 3"),
            });
            verdicts(&facts)
        };
        let report = gone(3);
        assert_eq!(failing(&report), [(ItemId::Lifecycle, Verdict::Fail)]);
        assert!(report.item(ItemId::Lifecycle).detail.contains("code 3"));
        assert_eq!(
            failing(&gone(2)),
            [
                (ItemId::Lifecycle, Verdict::Fail),
                (ItemId::ForwardCompat, Verdict::NotRun),
                (ItemId::ErrorMessage, Verdict::NotRun)
            ]
        );
        let mut facts = clean();
        facts.exit.as_mut().unwrap().failure =
            Some(Fault::new(FaultKind::Exited, "it exited with code 1"));
        assert_eq!(
            failing(&verdicts(&facts)),
            [(ItemId::Lifecycle, Verdict::Fail)]
        );
        let mut facts = clean();
        facts.eof_exit = Some(exit(false));
        assert_eq!(
            failing(&verdicts(&facts)),
            [(ItemId::Lifecycle, Verdict::Fail)]
        );
        let mut facts = clean();
        facts.exit.as_mut().unwrap().stray =
            vec![Fault::new(FaultKind::Malformed, "not JSON").with_line("bye")];
        let report = verdicts(&facts);
        assert_eq!(failing(&report), [(ItemId::Stdout, Verdict::Fail)]);
        assert!(report.item(ItemId::Stdout).detail.contains("after goodbye"));
    }

    #[test]
    fn phases_never_asked_of_a_stopped_bot_are_not_run() {
        let mut facts = clean();
        facts.matches.truncate(1);
        facts.matches[0].decisions.truncate(1);
        facts.matches[0].stopped = true;
        facts.exit = None;
        let report = verdicts(&facts);
        assert_eq!(report.item(ItemId::Phases).verdict, Verdict::NotRun);
        assert!(!report.passed);
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
        facts.exit = Some(exit(false));
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
