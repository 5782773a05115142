//! What the generic part tells of the bots themselves — faults with their messages, the
//! referee playing for a bot, slow replies, standard error — and only to whom: told in full,
//! or to the seat concerned, never to another seat. And the logs it refuses.

use super::*;
use crate::narrative::NarrativeError;
use engine::vabanque::{Options, Vabanque};
use serde_json::json;

/// A Vabanque match in which B replies slowly (60 of its 100 ms), then with a line that is not
/// JSON, then too late; everyone else plays the first legal action at once.
async fn faulty_match() -> Vec<LogRecord> {
    let options = Options::default();
    let game = Vabanque::new(&options, 3, 4).unwrap();
    let b = vec![
        Reply {
            ms: 60,
            ..Reply::play(json!({"table": 0}))
        },
        Reply {
            line: Some("this is not JSON".into()),
            ..Reply::default()
        },
        Reply {
            ms: 150,
            ..Reply::play(json!({"table": 0}))
        },
    ];
    let players = vec![
        scripted("A", Vec::new()),
        scripted("B", b),
        scripted("C", Vec::new()),
    ];
    logged(game, &options, 4, players).await
}

/// The index of the first line of `lines` after `from` that starts with `prefix`.
fn find(lines: &[&str], from: usize, prefix: &str) -> usize {
    from + lines[from..]
        .iter()
        .position(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} after line {from} in {lines:#?}"))
}

#[tokio::test(start_paused = true)]
async fn faults_substitutions_and_slow_replies_are_told_to_their_seat_alone() {
    let records = faulty_match().await;
    let story = told(&records, Perspective::Everything);
    let round = section(&story, "Round 1");
    let slow = find(&round, 0, "B took 60 ms of the 100 ms it had.");
    assert!(round[slow + 1].starts_with("B puts a chip of 5 on table 0 "));
    let malformed = find(
        &round,
        slow,
        "B: fault malformed, its 2nd turn (phase chip; log decision 5): ",
    );
    assert!(round[malformed + 1].starts_with("The referee plays {\"table\":"));
    assert!(round[malformed + 1].ends_with("} for B."));
    assert!(round[malformed + 2].starts_with("B puts a chip"));
    let timeout = find(&round, malformed, "B: fault timeout, ");
    assert_eq!(
        round[timeout],
        "B: fault timeout, its 3rd turn (phase chip; log decision 8): no reply within the time limit of 100 ms"
    );
    assert!(round[timeout + 1].starts_with("The referee plays "));
    // Its late reply is dropped; the next request, sent when the limit ran out, is answered
    // when the script wakes: 50 ms of virtual time later.
    let late = find(&round, timeout, "B took 50 ms of the 100 ms it had.");
    let result = section(&story, "Result");
    assert_eq!(
        result.last(),
        Some(&"B committed 2 faults: malformed ×1 and timeout ×1.")
    );
    let kinds: Vec<LineKind> = story
        .lines()
        .filter(|l| l.text.starts_with("B: fault") || l.text.starts_with("B took"))
        .map(|l| l.kind)
        .collect();
    assert_eq!(kinds, [LineKind::Conduct; 4]);

    let b = all_text(&told(&records, Perspective::Seat(1)));
    for line in [
        &round[slow],
        &round[malformed],
        &round[timeout],
        &round[late],
    ] {
        assert!(b.contains(*line), "B is told its own {line}");
    }
    for seat in [0, 2] {
        let other = told(&records, Perspective::Seat(seat));
        let text = all_text(&other);
        assert!(
            !text.contains("B took") && !text.contains("B: fault"),
            "{text}"
        );
        assert!(!text.contains("referee plays"), "{text}");
        let name = ["A", "B", "C"][seat];
        assert_eq!(
            section(&other, "Result").last(),
            Some(&format!("{name} committed no fault.").as_str())
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_bot_that_no_longer_plays_is_said_so_once() {
    let options = Options::default();
    let game = Vabanque::new(&options, 3, 4).unwrap();
    let quits = vec![
        Reply::play(json!({"table": 0})),
        Reply {
            quit: true,
            ..Reply::default()
        },
    ];
    let players = vec![
        scripted("A", Vec::new()),
        scripted("B", quits),
        scripted("C", Vec::new()),
    ];
    let records = logged(game, &options, 4, players).await;
    let story = told(&records, Perspective::Everything);
    let about_b: Vec<&str> = story
        .lines()
        .filter(|l| l.kind == LineKind::Conduct)
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(about_b.len(), 4, "{about_b:#?}");
    assert!(
        about_b[0].starts_with("B: fault exited, its "),
        "{}",
        about_b[0]
    );
    assert!(about_b[1].starts_with("The referee plays {\"table\":"));
    assert!(about_b[2].starts_with("B no longer plays: the referee plays {\"table\":"));
    assert!(about_b[2].ends_with("} for it, and each of its decisions from now on."));
    assert_eq!(about_b[3], "B committed 1 fault: exited ×1.");
    // Its 25 later decisions are still told, as the game saw them.
    let placed = story
        .lines()
        .filter(|l| l.text.starts_with("B places a "))
        .count();
    assert_eq!(placed, 12);
}

#[tokio::test(start_paused = true)]
async fn what_a_bot_wrote_to_its_standard_error_is_marked_and_kept_from_the_others() {
    let mut records = faulty_match().await;
    let at = records
        .iter()
        .position(|r| matches!(r, LogRecord::Action { seat: 1, .. }))
        .unwrap();
    let LogRecord::Action { n, .. } = records[at] else {
        unreachable!()
    };
    records.insert(
        at,
        LogRecord::Stderr {
            n,
            seat: 1,
            text: "my hand: raise bluff trap\nthinking".into(),
            cut: 10,
        },
    );
    let story = told(&records, Perspective::Everything);
    let lines: Vec<&Line> = story.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.text == "B wrote to its standard error (10 bytes cut before this):")
        .unwrap();
    assert_eq!(lines[i].kind, LineKind::Conduct);
    assert_eq!(
        (lines[i + 1].kind, lines[i + 1].text.as_str()),
        (LineKind::Stderr, "my hand: raise bluff trap")
    );
    assert_eq!(lines[i + 2].text, "thinking");
    assert!(all_text(&told(&records, Perspective::Seat(1))).contains("my hand: raise"));
    assert!(!all_text(&told(&records, Perspective::Seat(0))).contains("my hand"));
    assert!(!all_text(&told(&records, Perspective::Seat(0))).contains("standard error ("));
}

#[tokio::test(start_paused = true)]
async fn a_seat_the_match_lacks_and_a_log_without_events_are_refused() {
    let records = faulty_match().await;
    match tell(&records, Perspective::Seat(3)) {
        Err(e @ NarrativeError::NoSuchSeat { seat: 3, seats: 3 }) => {
            assert_eq!(
                e.to_string(),
                "there is no seat 3: the match has 3 seats, 0 to 2"
            );
        }
        other => panic!("{other:?}"),
    }
    // A log of version 2: the header, the actions and the result, no events.
    let old: Vec<LogRecord> = records
        .into_iter()
        .filter(|r| {
            matches!(
                r,
                LogRecord::Header { .. } | LogRecord::Action { .. } | LogRecord::Result { .. }
            )
        })
        .collect();
    assert!(matches!(
        tell(&old, Perspective::Everything),
        Err(NarrativeError::NoEvents { .. })
    ));
    assert!(matches!(
        tell(&old[1..], Perspective::Everything),
        Err(NarrativeError::NoHeader)
    ));
}
