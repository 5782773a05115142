//! The match runner's tests with built-in bots: faults of a bot that breaks the rules, and a
//! game that fails (an internal error).

use super::LogRecord;
use super::tally::{Options, logged_match};
use protocol::FaultKind;

#[tokio::test(start_paused = true)]
async fn an_illegal_builtin_is_charged_until_the_fault_limit_stops_it() {
    let (record, lines) = logged_match(&Options::default(), &["counter", "loud"], 2).await;
    // Seat 1 decides at 1, 3 and 5: it faults at 1 and 3, and is stopped at its second fault.
    let faults: Vec<_> = record
        .faults
        .iter()
        .map(|f| (f.seat, f.decision, f.fault))
        .collect();
    assert_eq!(
        faults,
        [
            (1, Some(1), FaultKind::IllegalAction),
            (1, Some(3), FaultKind::IllegalAction)
        ]
    );
    assert_eq!(
        record.faults[0].message,
        r#"{"say":42} is illegal: say a number from 0 to 9"#
    );
    assert!(
        record.faults[1]
            .message
            .ends_with("; fault limit reached: the bot is stopped and the referee plays for it for the rest of the match"),
        "{}",
        record.faults[1].message
    );
    let loud = &record.stats[1];
    assert_eq!((loud.decisions, loud.substituted), (3, 3));
    assert!(loud.ejected && !loud.forfeited);
    assert_eq!(record.scores, [6, 0], "counter says 0, 2, 4; loud gets 0s");
    assert!(record.internal_error.is_none());
    let result: LogRecord = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert!(matches!(result, LogRecord::Result { .. }));
}

#[tokio::test(start_paused = true)]
async fn a_game_that_refuses_an_action_it_accepted_ends_the_match_void() {
    let options = Options {
        refuse_at: Some(3),
        ..Options::default()
    };
    let (record, lines) = logged_match(&options, &["counter", "counter"], 3).await;
    assert_eq!(
        record.internal_error.as_deref(),
        Some(
            r#"the game refused to play {"say":3} at decision 3, an action its rules check had accepted: tally refuses decision 3"#
        )
    );
    assert!(record.is_void());
    assert_eq!((record.scores, record.ranks), (vec![0, 0], vec![1, 1]));
    assert!(record.faults.is_empty(), "no bot is charged");
    assert_eq!(record.stats[1].decisions, 2, "decisions 1 and 3 were taken");
    let last: LogRecord = serde_json::from_str(lines.last().unwrap()).unwrap();
    let LogRecord::InternalError { n, message, truth } = last else {
        panic!("the log ends with {last:?}");
    };
    assert_eq!(n, Some(3));
    assert_eq!(Some(message), record.internal_error);
    assert_eq!(truth["n"], 3);
}

#[tokio::test(start_paused = true)]
async fn a_finished_match_has_no_internal_error_key() {
    let (record, _) = logged_match(&Options::default(), &["counter"], 3).await;
    let json = serde_json::to_string(&record).unwrap();
    assert!(!json.contains("internal_error"), "{json}");
    let (_, last_field) = json.rsplit_once(",\"").unwrap();
    assert!(last_field.starts_with("duration_ms\":"), "{json}");
}
