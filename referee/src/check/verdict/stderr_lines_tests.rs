//! The bot's stderr under a failed item, tested without a bot.

use super::tests::{clean, exit, fault};
use super::verdicts;
use crate::check::items::ItemId;
use crate::check::report::Verdict;
use protocol::FaultKind;

#[test]
fn a_failed_item_shows_the_bots_last_stderr_lines_up_to_its_failure() {
    let mut facts = clean();
    let words =
        |from: usize, to: usize| -> String { (from..to).map(|k| format!("line {k}\n")).collect() };
    // Match 1 writes lines 0-3, match 2 lines 4-7 at its first request (and a blank line),
    // then an illegal action at its second request with lines 8-9; later lines come after it.
    facts.matches[0].decisions[0].stderr = Some(words(0, 4));
    facts.matches[1].decisions[0].stderr = Some(format!("{}\n  \n", words(4, 8)));
    let d = &mut facts.matches[1].decisions[1];
    d.stderr = Some(format!("{}\u{1b}[31mred\n", words(8, 10)));
    d.answered = false;
    d.faults = vec![fault(FaultKind::IllegalAction, None)];
    facts.matches[2].decisions[0].stderr = Some("after it\n".into());
    facts.stderr_end = "the very end\n".into();
    let report = verdicts(&facts);
    let item = report.item(ItemId::LegalActions);
    assert_eq!(item.verdict, Verdict::Fail);
    let stderr = item.stderr.as_ref().expect("its stderr");
    assert!(
        stderr.until.contains("match 2, its 2nd turn"),
        "{}",
        stderr.until
    );
    assert_eq!(
        stderr.lines,
        [
            "line 5",
            "line 6",
            "line 7",
            "line 8",
            "line 9",
            "\\u{1b}[31mred"
        ],
        "the last lines up to the failure, escaped for a terminal"
    );
    assert!(stderr.earlier);
    // A passed item has none.
    assert_eq!(report.item(ItemId::Handshake).stderr, None);
}

#[test]
fn a_failure_at_no_request_shows_the_end_of_the_run_and_long_lines_are_cut() {
    let mut facts = clean();
    facts.exit = Some(exit(false));
    facts.stderr_end = format!("still thinking\n{}\n", "x".repeat(500));
    let report = verdicts(&facts);
    let item = report.item(ItemId::Lifecycle);
    assert_eq!(item.verdict, Verdict::Fail);
    let stderr = item.stderr.as_ref().expect("its stderr");
    assert_eq!(stderr.until, "the end of its run");
    assert_eq!(stderr.lines[0], "still thinking");
    assert_eq!(stderr.lines[1], format!("{}…", "x".repeat(200)));
    assert!(!stderr.earlier);
    // Nothing written: nothing shown.
    facts.stderr_end.clear();
    assert_eq!(verdicts(&facts).item(ItemId::Lifecycle).stderr, None);
}

#[test]
fn what_the_bot_wrote_before_a_match_is_among_its_lines_up_to_a_failure_in_it() {
    // A bot that writes at its start (before match 1) and between matches, then plays an
    // illegal action at the first request of match 2: "all it wrote" is all of it.
    let mut facts = clean();
    facts.matches[0].before = Some("loading the model\n".into());
    facts.matches[0].decisions[0].stderr = Some("thinking\n".into());
    facts.matches[1].before = Some("between matches\n".into());
    let d = &mut facts.matches[1].decisions[0];
    d.stderr = Some("choosing table 99\n".into());
    d.answered = false;
    d.faults = vec![fault(FaultKind::IllegalAction, None)];
    let report = verdicts(&facts);
    let stderr = report
        .item(ItemId::LegalActions)
        .stderr
        .clone()
        .expect("its stderr");
    assert_eq!(
        stderr.lines,
        [
            "loading the model",
            "thinking",
            "between matches",
            "choosing table 99"
        ]
    );
    assert!(!stderr.earlier);
}
