//! The match log the runner writes (version 3), on Tally with a scripted seat: the start, each
//! decision's records in their order (faults, stderr, action, events, scores), and the stderr
//! of a decision, capped.

use super::{Answer, assert_replays, limit, reply, say, scripted_match};
use crate::runner::tally::{Options, Tally, builtin, play};
use crate::runner::{
    FaultPolicy, LOG_VERSION, LogAudience, LogRecord, Player, STDERR_PER_DECISION,
};
use crate::seat::{Fault, Seat};
use protocol::FaultKind;
use serde_json::json;

/// The log's records.
fn records(lines: &[String]) -> Vec<LogRecord> {
    lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect()
}

/// Each record as its type and decision (`-` for none, `null` for the opening's).
fn shape(records: &[LogRecord]) -> Vec<String> {
    let n = |n: &Option<u64>| n.map_or("null".to_string(), |n| n.to_string());
    records
        .iter()
        .map(|r| match r {
            LogRecord::Header { .. } => "header".into(),
            LogRecord::Start { .. } => "start".into(),
            LogRecord::Event { n: at, .. } => format!("event {}", n(at)),
            LogRecord::Scores { n: at, .. } => format!("scores {}", n(at)),
            LogRecord::Stderr { n, .. } => format!("stderr {n}"),
            LogRecord::Fault { n: at, .. } => format!("fault {}", n(at)),
            LogRecord::Action { n, .. } => format!("action {n}"),
            LogRecord::Result { .. } => "result".into(),
            LogRecord::InternalError { .. } => "internal_error".into(),
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_decision_is_logged_as_faults_stderr_action_events_and_changed_scores() {
    // Seat 0 (the script) decides at 0, 2 and 4; seat 1 (the counter) says 1, 3 and 5.
    let answers = vec![
        // Notes to stderr, then a line that is not JSON: a fault, and the default action (0),
        // which changes no score.
        Answer {
            lines: vec!["ERR:thinking about 0\n".into(), "junk".into()],
            ..say(5, 0)
        },
        Answer {
            lines: vec!["ERR:two\n".into(), "ERR:lines\n".into(), reply("ID", 3)],
            ..say(5, 3)
        },
        say(5, 3),
    ];
    let (record, lines, _) = scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
    let records = records(&lines);
    let expected = [
        "header",
        "start",
        "event null",
        "scores null",
        "fault 0",
        "stderr 0",
        "action 0",
        "event 0",
        "action 1",
        "event 1",
        "scores 1",
        "stderr 2",
        "action 2",
        "event 2",
        "scores 2",
        "action 3",
        "event 3",
        "scores 3",
        "action 4",
        "event 4",
        "scores 4",
        "action 5",
        "event 5",
        "scores 5",
        "result",
    ];
    assert_eq!(shape(&records), expected);
    let LogRecord::Header {
        log_version,
        score_name,
        higher_is_better,
        ..
    } = &records[0]
    else {
        panic!("a header first");
    };
    assert_eq!((*log_version, score_name.as_str()), (LOG_VERSION, "points"));
    assert!(*higher_is_better);
    assert_eq!(
        records[1],
        LogRecord::Start {
            truth: json!({"n": 0, "totals": [0, 0]}),
            views: vec![json!({"n": 0, "totals": [0, 0]}); 2],
        }
    );
    assert_eq!(
        records[2],
        LogRecord::Event {
            n: None,
            to: LogAudience::All,
            event: json!({"kind": "open"}),
        }
    );
    assert_eq!(
        records[5],
        LogRecord::Stderr {
            n: 0,
            seat: 0,
            text: "thinking about 0\n".into(),
            cut: 0,
        }
    );
    assert_eq!(
        records[7],
        LogRecord::Event {
            n: Some(0),
            to: LogAudience::All,
            event: json!({"seat": 0, "say": 0}),
        }
    );
    let LogRecord::Stderr { text, .. } = &records[11] else {
        panic!("stderr at 2");
    };
    assert_eq!(text, "two\nlines\n", "what came between its two requests");
    let running: Vec<&Vec<i64>> = records
        .iter()
        .filter_map(|r| match r {
            LogRecord::Scores { scores, .. } => Some(scores),
            _ => None,
        })
        .collect();
    assert_eq!(
        running,
        [[0, 0], [0, 1], [3, 1], [3, 4], [6, 4], [6, 9]]
            .map(Vec::from)
            .iter()
            .collect::<Vec<_>>()
    );
    assert_eq!(*running[running.len() - 1], record.scores);
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn a_decisions_stderr_is_capped_to_its_last_lines_and_counts_the_rest() {
    // 100 lines of 100 bytes at decision 0, nothing at 2, one line at 4.
    let flood: Vec<String> = (0..100)
        .map(|i| format!("ERR:{:<99}\n", format!("line {i}")))
        .collect();
    let answers = vec![
        Answer {
            lines: flood.into_iter().chain([reply("ID", 1)]).collect(),
            ..say(1, 1)
        },
        say(1, 1),
        Answer {
            lines: vec!["ERR:last\n".into(), reply("ID", 1)],
            ..say(1, 1)
        },
    ];
    let (record, lines, _) = scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
    let logged: Vec<(u64, String, u64)> = records(&lines)
        .into_iter()
        .filter_map(|r| match r {
            LogRecord::Stderr { n, text, cut, .. } => Some((n, text, cut)),
            _ => None,
        })
        .collect();
    assert_eq!(logged.len(), 2, "nothing written at decision 2: no record");
    let (n, text, cut) = &logged[0];
    assert_eq!(*n, 0);
    assert!(text.len() <= STDERR_PER_DECISION);
    assert!(text.starts_with("line 80 "), "whole lines: {text}");
    assert_eq!(*cut, 10_000 - text.len() as u64);
    assert_eq!(logged[1], (4, "last\n".to_string(), 0));
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn a_seat_absent_from_the_start_is_charged_between_the_start_and_the_opening() {
    let mut absent: Player<Tally> = Player::new("gone", "gone", Seat::Absent);
    absent.startup_fault = Some(Fault::new(FaultKind::SpawnFailed, "cannot start 'gone'"));
    let mut players = vec![absent, builtin("counter")];
    let (record, lines) = play(&Options::default(), &mut players, FaultPolicy::default(), 3).await;
    let records = records(&lines);
    assert_eq!(
        shape(&records[..6]),
        [
            "header",
            "start",
            "fault null",
            "event null",
            "scores null",
            "action 0"
        ]
    );
    assert_replays(&lines, &record);
    // Read back as version 3 records, they are the log's own.
    let read = crate::replay::read_lines_as::<Tally>(&lines).unwrap();
    assert_eq!(read.records, records);
}
