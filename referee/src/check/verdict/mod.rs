//! From facts to verdicts: the one place that decides what passed. A pure function, so the
//! decision table is tested without a bot.
//!
//! Each fault is charged to exactly one item: a fault at a request that followed a probe to the
//! probe's item, any other by its kind (a reply with another id to `id_echo`, a line that is not
//! a protocol message to `stdout`, an exit or a crash to `lifecycle`, …).

use super::facts::{Decision, Facts, MatchFacts, Probe};
use super::items::ItemId;
use super::report::{DecisionTimes, ItemReport, MatchPlayed, Report, Verdict};
use crate::seat::Fault;
use crate::untrusted::quoted;
use protocol::FaultKind;

mod charging;

use charging::{Charged, charged, decision_at, first_of, probe_item};

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

/// The one-line summary: a pass only when every required item passed; the items failed, and
/// those not run with why.
fn summary(failed: &[&str], not_run: &[&str], required: usize, facts: &Facts) -> String {
    if failed.is_empty() && not_run.is_empty() {
        return format!(
            "PASS: all {required} required items passed ({} matches, {} requests)",
            facts.matches.len(),
            requests(facts)
        );
    }
    let not_run = match not_run.len() {
        0 => String::new(),
        n => format!(
            "{n}{} not run ({}): {}",
            if failed.is_empty() {
                format!(" of {required}")
            } else {
                String::new()
            },
            not_run.join(", "),
            why_not_run(facts)
        ),
    };
    match failed {
        [] => format!("FAIL: no required item failed, but {not_run}"),
        _ => format!(
            "FAIL: {} of {required} required items failed ({}){}{not_run}",
            failed.len(),
            failed.join(", "),
            if not_run.is_empty() { "" } else { "; " }
        ),
    }
}

/// Why items could not be checked, for the summary: what cut the check short.
fn why_not_run(facts: &Facts) -> String {
    if let Err(fault) = &facts.hello {
        return format!(
            "the handshake failed ({}), so the bot was stopped",
            fault.fault
        );
    }
    let mut why = Vec::new();
    match (requests(facts), answers(facts)) {
        (0, _) => why.push("the bot was asked no request".to_string()),
        (_, 0) => why.push("the bot answered no request correctly".to_string()),
        _ => {}
    }
    if let Some(m) = facts.matches.iter().find(|m| m.stopped) {
        why.push(format!("the referee stopped it in match {}", m.number));
    }
    if let Some(gone) = &facts.gone {
        why.push(format!("it exited after match {}", gone.after_match));
    }
    match why.is_empty() {
        true => "see why under each".into(),
        false => why.join(", and "),
    }
}

/// The requests the bot was sent in all.
fn requests(facts: &Facts) -> usize {
    facts.matches.iter().map(|m| m.decisions.len()).sum()
}

/// The bot's answers that were accepted (played as sent, or refused by the rules as a move).
fn answers(facts: &Facts) -> usize {
    facts
        .matches
        .iter()
        .flat_map(|m| &m.decisions)
        .filter(|d| d.answered)
        .count()
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

#[cfg(test)]
mod tests;
