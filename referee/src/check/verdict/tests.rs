//! The decision table of `referee check`, tested without a bot.

use super::verdicts;
use crate::check::facts::{Decision, Exit, Facts, Gone, Hello, MatchFacts, Probe};
use crate::check::items::ItemId;
use crate::check::report::{Report, Verdict};
use crate::runner::FaultRecord;
use crate::seat::Fault;
use protocol::FaultKind;
use protocol::Limits;

pub(super) fn fault(kind: FaultKind, line: Option<&str>) -> FaultRecord {
    FaultRecord {
        seat: 0,
        decision: Some(0),
        turn: None,
        phase: None,
        outside: None,
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
                n: (i * 3 + 2) as u64,
                turn: i as u64 + 1,
                id: (number * 4 + i) as u64,
                phase: phase.to_string(),
                answered: true,
                ms: 1.0 + i as f64,
                faults: Vec::new(),
                refused: None,
                stderr: None,
            })
            .collect(),
        other_faults: Vec::new(),
        stopped: false,
        probes,
        after: Vec::new(),
        before: None,
    }
}

pub(super) fn exit(by_itself: bool) -> Exit {
    Exit {
        by_itself,
        ms: if by_itself { 3.0 } else { 1004.0 },
        failure: None,
        stray: Vec::new(),
    }
}

pub(super) fn clean() -> Facts {
    Facts {
        game: "vabanque",
        command: "python3 bot.py".into(),
        seed: 1,
        opponents: vec!["random".into(), "heuristic".into()],
        phases: &["chip", "card", "move"],
        lists_actions: true,
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
        stderr_end: String::new(),
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

/// Asserts that the detail of `item` says `words`.
fn assert_detail(report: &Report, item: ItemId, words: &str) {
    let got = report.item(item);
    assert!(got.detail.contains(words), "{words:?} not in {got:?}");
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
fn a_game_that_lists_no_actions_counts_the_plays_its_rules_refused() {
    let mut facts = clean();
    facts.game = "machiavelli";
    facts.lists_actions = false;
    let detail = |facts: &Facts| verdicts(facts).item(ItemId::LegalActions).detail.clone();
    assert_eq!(
        detail(&facts),
        "12 answers, none refused by the rules (machiavelli lists no actions)"
    );
    facts.matches[1].decisions[2].refused = Some("meld 4 (QC) has one card".into());
    facts.matches[2].decisions[0].refused = Some("5H is not in your hand".into());
    let report = verdicts(&facts);
    assert!(
        report.passed,
        "a refused play is a move of the game, not a fault"
    );
    assert_eq!(
        report.item(ItemId::LegalActions).detail,
        "12 answers, 2 refused by the rules with machiavelli's penalty; the first, at match 2, its \
         3rd turn (phase move; log decision 8; request id 10): meld 4 (QC) has one card"
    );
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
            failed
                .detail
                .contains("match 2, its 2nd turn (phase card; log decision 5; request id 9)"),
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
    assert_detail(&report, ItemId::Phases, "move: never asked");
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

/// A bot that answered with a wrong id every time, stopped after three faults in match 1.
fn no_answer_accepted() -> Facts {
    let mut facts = clean();
    facts.matches.truncate(1);
    let m = &mut facts.matches[0];
    m.decisions.truncate(3);
    for d in &mut m.decisions {
        d.answered = false;
        d.faults = vec![
            fault(FaultKind::StaleId, Some("{\"id\":1000}")),
            fault(FaultKind::Timeout, None),
        ];
    }
    m.stopped = true;
    facts.exit = None;
    facts
}

#[test]
fn items_with_nothing_to_judge_are_not_run_and_the_summary_says_why() {
    let report = verdicts(&no_answer_accepted());
    assert!(!report.passed);
    let verdict = |item| report.item(item).verdict;
    assert_eq!(verdict(ItemId::IdEcho), Verdict::Fail);
    assert_eq!(verdict(ItemId::Phases), Verdict::Fail);
    for item in [
        ItemId::LegalActions,
        ItemId::Time,
        ItemId::Lifecycle,
        ItemId::ForwardCompat,
        ItemId::ErrorMessage,
        ItemId::DecisionTime,
    ] {
        assert_eq!(verdict(item), Verdict::NotRun, "{item:?}");
    }
    // Its three lines were protocol messages: that much was checked.
    assert_eq!(verdict(ItemId::Stdout), Verdict::Pass);
    assert_eq!(
        report.item(ItemId::Time).detail,
        "no answer accepted in 3 requests: no answer to time (see the failed items)"
    );
    assert_eq!(
        report.summary,
        "FAIL: 2 of 11 required items failed (phases, id_echo); 5 not run (legal_actions, time, \
         lifecycle, forward_compat, error_message): the bot answered no request correctly, and \
         the referee stopped it in match 1"
    );
}

#[test]
fn a_bot_asked_no_request_has_no_stdout_passed() {
    let mut facts = clean();
    for m in &mut facts.matches {
        m.decisions.clear();
        m.probes.clear();
    }
    let report = verdicts(&facts);
    assert_eq!(report.item(ItemId::Stdout).verdict, Verdict::NotRun);
    assert_eq!(report.item(ItemId::IdEcho).verdict, Verdict::NotRun);
    assert!(
        report.summary.ends_with(": the bot was asked no request"),
        "{}",
        report.summary
    );
}

#[test]
fn a_probe_followed_by_no_accepted_answer_is_not_run_nor_passed() {
    let mut facts = clean();
    // A slow bot: a timeout elsewhere and one after the probe, both time's.
    for (m, d) in [(0, 3), (2, 1)] {
        let d = &mut facts.matches[m].decisions[d];
        d.answered = false;
        d.faults.push(fault(FaultKind::Timeout, None));
    }
    let report = verdicts(&facts);
    assert_eq!(
        failing(&report),
        [
            (ItemId::Time, Verdict::Fail),
            (ItemId::ForwardCompat, Verdict::NotRun)
        ]
    );
    assert_detail(
        &report,
        ItemId::ForwardCompat,
        "match 3, its 2nd turn (phase card; log decision 5; request id 13) got no accepted answer",
    );
    assert_eq!(report.item(ItemId::ErrorMessage).verdict, Verdict::Pass);
}

#[test]
fn a_check_with_nothing_failed_but_items_not_run_is_no_pass() {
    let mut facts = clean();
    facts.matches[2].decisions[2].answered = false;
    let report = verdicts(&facts);
    assert_eq!(failing(&report), [(ItemId::ErrorMessage, Verdict::NotRun)]);
    assert!(!report.passed);
    assert!(
        report
            .summary
            .starts_with("FAIL: no required item failed, but 1 of 11 not run (error_message): "),
        "{}",
        report.summary
    );
}
