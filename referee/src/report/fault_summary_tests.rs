use super::*;
use crate::report::data::{BotFault, BotMatch};

fn played(id: u64, stderr: Option<&str>) -> BotMatch {
    BotMatch {
        id,
        group: id,
        seed: "1".into(),
        seat: 2,
        rank: 3,
        score: 0,
        players: vec!["a".into(), "b".into(), "me".into()],
        faults: 1,
        forfeited: false,
        log: false,
        stderr_range: None,
        stderr: stderr.map(|text| StderrExcerpt {
            file: "me.stderr".into(),
            from: 0,
            to: text.len() as u64,
            text: text.into(),
            cut: 0,
        }),
        stderr_unread: None,
    }
}

fn fault(id: u64, turn: u64, fault: FaultKind, message: &str) -> BotFault {
    BotFault {
        id,
        decision: Some(turn * 3),
        turn: Some(turn),
        phase: Some("turn".into()),
        moment: format!("match {id}, its {} turn", crate::runner::ordinal(turn)),
        fault,
        message: message.into(),
    }
}

#[test]
fn shapes_collapse_numbers_quoted_values_and_lists() {
    assert_eq!(
        shape("not valid JSON (expected value at line 1 column 1): debug: hand ['raise', 'bluff']"),
        "not valid JSON (expected value at line # column #): debug: hand […]"
    );
    assert_eq!(
        shape(r#"no reply within 200 ms to request 8 "abc \" d" {"x": [1]}"#),
        r#"no reply within # ms to request # "…" {…}"#
    );
    // An apostrophe that closes nothing, a bracket that closes nothing: kept.
    assert_eq!(shape("it's [open"), "it's [open");
    assert_eq!(shape("KeyError: 'discard_pile'"), "KeyError: '…'");
}

#[test]
fn a_debug_printing_bot_s_malformed_lines_are_one_group_whatever_their_cost() {
    let matches: Vec<BotMatch> = (0..3).map(|id| played(id, None)).collect();
    let line = |hand: &str, note: &str| {
        format!("not valid JSON (expected value at line 1 column 1): debug: hand {hand}{note}")
    };
    let faults = vec![
        fault(0, 1, FaultKind::Malformed, &line("['raise']", "")),
        fault(0, 2, FaultKind::Malformed, &line("['bluff', 'trap']", "")),
        fault(0, 3, FaultKind::Malformed, &line("['trap']", COST_NOTES[1])),
        fault(2, 1, FaultKind::Malformed, &line("[]", "")),
        fault(
            2,
            2,
            FaultKind::Timeout,
            "no reply within the time limit of 200 ms",
        ),
    ];
    let summary = summarize(&matches, &faults);
    assert_eq!(summary.len(), 2, "{summary:#?}");
    let malformed = &summary[0];
    assert_eq!(
        (
            malformed.fault,
            malformed.count,
            malformed.matches,
            malformed.played
        ),
        (FaultKind::Malformed, 4, 2, 3)
    );
    assert_eq!(malformed.groups.len(), 1, "{:#?}", malformed.groups);
    assert_eq!(malformed.groups[0].count, 4);
    assert_eq!(
        malformed.line,
        "malformed ×4 in 2 of its 3 matches: not valid JSON (expected value at line 1 column 1): \
         debug: hand ['raise']; first in match 0, its 1st turn"
    );
    assert_eq!(summary[1].fault, FaultKind::Timeout);
    assert_eq!(summary[1].first.moment, "match 2, its 2nd turn");
}

#[test]
fn debug_prints_of_plain_words_are_one_group_by_their_first_words() {
    let matches: Vec<BotMatch> = (0..2).map(|id| played(id, None)).collect();
    let line = |text: &str| format!("not valid JSON (expected ident at line 1 column 2): {text}");
    let faults = vec![
        fault(
            0,
            1,
            FaultKind::Malformed,
            &line("turn 1: my hand is 2D KD 4H"),
        ),
        fault(
            0,
            2,
            FaultKind::Malformed,
            &line("turn 2: my hand is AS JC"),
        ),
        fault(
            1,
            1,
            FaultKind::Malformed,
            &line("turn 1: my hand is QH QD 9S 10S"),
        ),
        // Too short to cut: its words are its shape.
        fault(1, 2, FaultKind::Malformed, &line("thinking ...")),
    ];
    let summary = summarize(&matches, &faults);
    let groups: Vec<(usize, &str)> = summary[0]
        .groups
        .iter()
        .map(|g| (g.count, g.shape.as_str()))
        .collect();
    assert_eq!(
        groups,
        [
            (
                3,
                "not valid JSON (expected ident at line # column #): turn #: my hand is …"
            ),
            (
                1,
                "not valid JSON (expected ident at line # column #): thinking ..."
            ),
        ]
    );
}

#[test]
fn a_crash_is_named_by_the_last_line_of_its_traceback() {
    let traceback = |key: &str, n: u32| {
        format!(
            "Traceback (most recent call last):\n  File \"bot.py\", line {n}, in <module>\n\
             KeyError: '{key}'\n\n"
        )
    };
    let matches = vec![
        played(3, Some(&traceback("discard_pile", 10))),
        played(4, Some(&traceback("discard_pile", 12))),
        played(5, Some(&traceback("hand", 10))),
        // No stderr kept: the message's quote of the last lines names it.
        played(6, None),
    ];
    let exited = |id, quote: &str| {
        fault(
            id,
            5,
            FaultKind::Exited,
            &format!(
                "the bot exited with status 1; its last stderr lines: Traceback | {quote}{}",
                COST_NOTES[0]
            ),
        )
    };
    let faults = vec![
        exited(3, "KeyError: 'discard_pile'"),
        exited(4, "KeyError: 'discard_pile'"),
        exited(5, "KeyError: 'hand'"),
        exited(6, "KeyError: 'discard_pile'"),
    ];
    let summary = summarize(&matches, &faults);
    assert_eq!(summary.len(), 1);
    let crash = &summary[0];
    let groups: Vec<(&str, usize)> = crash
        .groups
        .iter()
        .map(|g| (g.name.as_str(), g.count))
        .collect();
    assert_eq!(
        groups,
        [("KeyError: 'discard_pile'", 3), ("KeyError: 'hand'", 1)]
    );
    assert_eq!(
        crash.line,
        "exited ×4 in all 4 of its matches: KeyError: 'discard_pile' (and 1 other message); \
         first in match 3, its 5th turn"
    );
    assert_eq!(crash.first.stderr, matches[0].stderr);
    assert_eq!(crash.first.seat, 2);
}

#[test]
fn a_kind_keeps_its_biggest_groups_and_counts_the_others() {
    let matches = vec![played(0, None)];
    let faults: Vec<BotFault> = (0..MAX_GROUPS as u64 + 5)
        .map(|k| fault(0, k + 1, FaultKind::WrongShape, &"x".repeat(k as usize + 1)))
        .collect();
    let summary = summarize(&matches, &faults);
    assert_eq!(summary[0].groups.len(), MAX_GROUPS);
    assert_eq!(summary[0].other_groups, 5);
    assert!(
        summary[0]
            .line
            .contains(&format!("(and {} other messages)", MAX_GROUPS + 4)),
        "{}",
        summary[0].line
    );
}
