//! The rule of [`seen_log`] on docs/match-log.md's example (a Machiavelli match of three seats,
//! with stderr, faults and events told to one seat): every private card of the other seats is
//! searched for in what each viewer gets.

use super::*;
use crate::reproduce::test_fixtures::example_log;

/// The log as one JSON text, as the API would send it.
fn text(log: &[LogRecord]) -> String {
    serde_json::to_string(log).unwrap()
}

/// What no viewer but the admin and seat `seat`'s owner may find: the seat's start view, and
/// its hand in it, as JSON; and the truth's hands and stock.
fn private_of(log: &[LogRecord], seat: usize) -> Vec<String> {
    let Some(LogRecord::Start { truth, views }) = log.get(1) else {
        panic!("the example's second record is its start")
    };
    vec![
        views[seat].to_string(),
        views[seat]["hand"].to_string(),
        truth["hands"][seat].to_string(),
        truth["stock"].to_string(),
        truth.to_string(),
    ]
}

#[test]
fn the_admin_sees_the_whole_log() {
    let log = example_log();
    assert_eq!(seen_log(&log, Audience::Truth), log);
}

#[test]
fn an_owner_sees_its_seat_and_nothing_private_of_the_others() {
    let log = example_log();
    for own in 0..3 {
        let seen = seen_log(&log, Audience::Seat(own));
        let served = text(&seen);
        for other in (0..3).filter(|&s| s != own) {
            for secret in private_of(&log, other) {
                assert!(!served.contains(&secret), "seat {own} is served {secret}");
            }
        }
        // Its own start view is there.
        let Some(LogRecord::Start { views, truth }) = seen.get(1) else {
            panic!()
        };
        assert!(truth.is_null());
        for (seat, view) in views.iter().enumerate() {
            assert_eq!(
                view.is_null(),
                seat != own,
                "seat {seat}'s view, seen by {own}"
            );
        }
        for record in &seen {
            match record {
                LogRecord::Header { seed, .. } => assert_eq!(*seed, 0),
                LogRecord::Event { to, .. } => {
                    assert!(matches!(to, LogAudience::All) || *to == LogAudience::Seat(own))
                }
                LogRecord::Stderr { seat, .. } => assert_eq!(*seat, own),
                LogRecord::Action {
                    seat, action, ms, ..
                } if *seat != own => {
                    assert!(action.is_null() && *ms == 0.0, "{record:?}")
                }
                LogRecord::Fault { seat, message, .. } if *seat != own => {
                    assert_eq!(message, HIDDEN_MESSAGE)
                }
                LogRecord::Result { truth, .. } => assert!(truth.is_null()),
                _ => {}
            }
        }
        // Every event told to everyone or to it, every decision, every score.
        let count = |log: &[LogRecord], keep: &dyn Fn(&LogRecord) -> bool| {
            log.iter().filter(|r| keep(r)).count()
        };
        let told = |r: &LogRecord| {
            matches!(r, LogRecord::Event { to, .. }
                if matches!(to, LogAudience::All) || *to == LogAudience::Seat(own))
        };
        assert_eq!(count(&seen, &told), count(&log, &told));
        let decided = |r: &LogRecord| matches!(r, LogRecord::Action { .. });
        assert_eq!(count(&seen, &decided), count(&log, &decided));
        let scored = |r: &LogRecord| matches!(r, LogRecord::Scores { .. });
        assert_eq!(count(&seen, &scored), count(&log, &scored));
    }
}

#[test]
fn the_public_sees_no_hand_no_action_and_no_stderr() {
    let log = example_log();
    let seen = seen_log(&log, Audience::Public);
    let served = text(&seen);
    for seat in 0..3 {
        for secret in private_of(&log, seat) {
            assert!(!served.contains(&secret), "the public is served {secret}");
        }
    }
    for record in &seen {
        match record {
            LogRecord::Start { truth, views } => {
                assert!(truth.is_null() && views.iter().all(Value::is_null))
            }
            LogRecord::Event { to, .. } => assert!(matches!(to, LogAudience::All)),
            LogRecord::Stderr { .. } => panic!("{record:?}"),
            LogRecord::Action { action, .. } => assert!(action.is_null()),
            LogRecord::Fault { message, .. } => assert_eq!(message, HIDDEN_MESSAGE),
            LogRecord::Header { players, seed, .. } => {
                assert_eq!(*seed, 0);
                assert!(
                    players
                        .iter()
                        .all(|p| p.bot == HIDDEN_COMMAND || p.bot.starts_with("builtin:"))
                );
            }
            _ => {}
        }
    }
    // The result's scores and ranks are everyone's.
    assert!(matches!(seen.last(), Some(LogRecord::Result { truth, .. }) if truth.is_null()));
}

#[test]
fn a_void_matchs_message_is_the_admins() {
    let mut log = example_log();
    let secret = "the game refused to play 9C: not in your hand";
    *log.last_mut().unwrap() = LogRecord::InternalError {
        n: Some(3),
        message: secret.into(),
        truth: serde_json::json!({"hands": [["9C"]]}),
    };
    for audience in [Audience::Seat(0), Audience::Public] {
        let seen = seen_log(&log, audience);
        let Some(LogRecord::InternalError { message, truth, n }) = seen.last() else {
            panic!("{audience:?}")
        };
        assert_eq!(
            (message.as_str(), truth, *n),
            (VOID_MESSAGE, &Value::Null, Some(3))
        );
        assert!(!text(&seen).contains("9C: not"));
    }
    assert_eq!(seen_log(&log, Audience::Truth), log);
}
