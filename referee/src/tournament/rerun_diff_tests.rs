use super::*;
use serde_json::json;

fn action(n: u64, seat: usize, chip: u64) -> LogRecord {
    LogRecord::Action {
        n,
        seat,
        phase: "chip".into(),
        action: json!({ "chip": chip }),
        substituted: false,
        ms: n as f64,
        overrun: false,
        cpu_ms: None,
    }
}

fn fault(n: u64, seat: usize, message: &str) -> LogRecord {
    LogRecord::Fault {
        n: Some(n),
        seat,
        fault: FaultKind::Timeout,
        message: message.into(),
    }
}

fn result(scores: Vec<i64>) -> LogRecord {
    LogRecord::Result {
        ranks: vec![1; scores.len()],
        scores,
        truth: json!(null),
    }
}

/// Seats 0 and 1 taking turns, seat `n % 2` choosing `chips[n]`.
fn game(chips: &[u64]) -> Vec<LogRecord> {
    let mut records: Vec<LogRecord> = chips
        .iter()
        .enumerate()
        .map(|(n, &c)| action(n as u64, n % 2, c))
        .collect();
    records.push(result(vec![1, 2]));
    records
}

fn recorded(records: &[LogRecord]) -> RecordedLog {
    RecordedLog::Kept(records.iter().filter(|r| compared(r)).cloned().collect())
}

fn bots() -> Vec<String> {
    vec!["alice".into(), "bob".into()]
}

#[test]
fn the_same_moves_with_other_timings_and_messages_are_the_same() {
    let was = game(&[1, 2, 3, 4]);
    let mut now = game(&[1, 2, 3, 4]);
    if let LogRecord::Action { ms, .. } = &mut now[2] {
        *ms = 99.0;
    }
    now.insert(1, fault(1, 1, "late by 12 ms"));
    let mut was_with_fault = was.clone();
    was_with_fault.insert(1, fault(1, 1, "late by 40 ms"));
    assert_eq!(
        compare(&recorded(&was_with_fault), &now, &bots()),
        LogComparison::Same
    );
}

#[test]
fn a_different_action_is_named_by_seat_bot_turn_phase_and_decision() {
    let was = game(&[1, 2, 3, 4, 5, 6]);
    let now = game(&[1, 2, 3, 9, 5, 6]);
    let LogComparison::Differs(first) = compare(&recorded(&was), &now, &bots()) else {
        panic!("a difference");
    };
    assert_eq!(first.decision, Some(3));
    assert_eq!(first.seat, Some(1));
    assert_eq!(first.bot.as_deref(), Some("bob"));
    assert_eq!(first.turn, Some(2), "bob's decisions 1 and 3");
    assert_eq!(first.phase.as_deref(), Some("chip"));
    assert_eq!(
        first.recorded,
        Moment::Action {
            action: json!({"chip": 4}),
            substituted: false
        }
    );
    assert_eq!(
        first.now,
        Moment::Action {
            action: json!({"chip": 9}),
            substituted: false
        }
    );
}

#[test]
fn a_fault_where_the_record_has_an_action_and_a_log_cut_short_are_named() {
    let was = game(&[1, 2, 3]);
    let mut now = game(&[1, 2, 3]);
    now.insert(2, fault(2, 0, "no reply within 100 ms"));
    let LogComparison::Differs(first) = compare(&recorded(&was), &now, &bots()) else {
        panic!("a difference");
    };
    assert_eq!(
        (first.decision, first.seat, first.turn),
        (Some(2), Some(0), Some(2))
    );
    assert!(matches!(first.recorded, Moment::Action { .. }));
    assert!(matches!(
        first.now,
        Moment::Fault {
            fault: FaultKind::Timeout,
            ..
        }
    ));
    // A recorded log that stops before the end.
    let cut = &game(&[1, 2, 3])[..2];
    let LogComparison::Differs(first) = compare(&recorded(cut), &game(&[1, 2, 3]), &bots()) else {
        panic!("a difference");
    };
    assert_eq!(first.recorded, Moment::Nothing);
    assert_eq!(first.decision, Some(2));
}

#[test]
fn without_a_recorded_log_nothing_is_compared() {
    assert_eq!(
        compare(&RecordedLog::NotKept, &game(&[1]), &bots()),
        LogComparison::NotKept
    );
    assert_eq!(
        compare(&RecordedLog::Unreadable("why".into()), &game(&[1]), &bots()),
        LogComparison::Unreadable { why: "why".into() }
    );
}

#[test]
fn with_another_deal_the_difference_is_the_recorded_seats_turn() {
    // Another first player: seat 2 decides first now, where seat 1 did.
    let recorded = RecordedLog::Kept(vec![action(0, 1, 2), action(1, 2, 3)]);
    let now = [action(0, 2, 6), action(1, 0, 3)];
    let bots = ["a".to_string(), "b".into(), "c".into()];
    let LogComparison::Differs(first) = compare(&recorded, &now, &bots) else {
        panic!("they differ")
    };
    assert_eq!(
        (
            first.seat,
            first.bot.as_deref(),
            first.turn,
            first.phase.as_deref(),
            first.decision
        ),
        (Some(1), Some("b"), Some(1), Some("chip"), Some(0))
    );
}
