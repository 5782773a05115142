//! The checklist as a whole: every item judged, the pass (every required item passed) and the
//! one-line summary that says what failed and what could not be checked.

use super::counts::{answers, requests};
use super::judge::{judge, judge_failed_hello};
use super::measures::decision_times;
use super::stderr_lines;
use crate::check::facts::Facts;
use crate::check::items::ItemId;
use crate::check::report::{ItemReport, MatchPlayed, Report, Verdict};

/// The checklist for what the check saw.
pub fn verdicts(facts: &Facts) -> Report {
    let mut items = match &facts.hello {
        Ok(_) => ItemId::ALL.map(|item| judge(item, facts)).to_vec(),
        Err(fault) => ItemId::ALL
            .map(|item| judge_failed_hello(item, facts, fault))
            .to_vec(),
    };
    stderr_lines::attach(&mut items, facts);
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
