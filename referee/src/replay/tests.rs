//! Replay's tests on Tally's logs: what each kind of record that does not hold is told as.

use super::*;
use crate::runner::tally::{Options, Tally, logged_match};

/// Replays a log of Tally given as lines.
fn replay(lines: &[String]) -> Result<ReplaySummary, ReplayError> {
    replay_lines_as::<Tally>(lines)
}

fn mismatch_of(lines: &[String]) -> (usize, String) {
    match replay(lines) {
        Err(ReplayError::Mismatch { line, message }) => (line, message),
        other => panic!("expected a mismatch, got {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_log_with_faults_and_a_stop_replays_and_its_causes_are_checked() {
    let (record, lines) = logged_match(&Options::default(), &["counter", "loud"], 2).await;
    let summary = replay(&lines).unwrap();
    assert_eq!((summary.decisions, summary.substituted), (6, 3));
    assert_eq!(summary.faults, 2);
    assert_eq!(
        (summary.scores, summary.ranks),
        (record.scores, record.ranks)
    );
    assert_eq!(summary.internal_error, None);
    // Without its faults, the substituted actions have no cause.
    let unfaulted: Vec<String> = lines
        .iter()
        .filter(|l| !l.contains(r#""type":"fault""#))
        .cloned()
        .collect();
    let (_, message) = mismatch_of(&unfaulted);
    assert!(message.contains("with no fault to cause it"), "{message}");
}

#[tokio::test(start_paused = true)]
async fn a_void_match_replays_when_the_game_fails_the_same_way() {
    let options = Options {
        refuse_at: Some(3),
        ..Options::default()
    };
    let (record, lines) = logged_match(&options, &["counter", "counter"], 3).await;
    let summary = replay(&lines).unwrap();
    assert_eq!(summary.decisions, 3, "the refused action is not played");
    assert_eq!(summary.internal_error, record.internal_error);
    assert_eq!((summary.scores, summary.ranks), (vec![0, 0], vec![1, 1]));

    // Without the internal error, the refused action is a line that does not hold.
    let cut = &lines[..lines.len() - 1];
    let (line, message) = mismatch_of(cut);
    assert_eq!(line, cut.len(), "the refused action's line");
    assert_eq!(message, "illegal action: tally refuses decision 3");

    // The internal error must be the game's: another refusal message does not hold.
    let mut edited = lines.clone();
    let last = edited.last_mut().unwrap();
    *last = last.replace("tally refuses decision 3", "something else");
    let (_, message) = mismatch_of(&edited);
    assert!(
        message.contains("does not end with the game's refusal"),
        "{message}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_internal_error_where_the_game_plays_on_does_not_hold() {
    let (_, mut lines) = logged_match(&Options::default(), &["counter"], 3).await;
    let LogRecord::Result { truth, .. } = serde_json::from_str(lines.last().unwrap()).unwrap()
    else {
        panic!("a finished match ends with its result");
    };
    *lines.last_mut().unwrap() = serde_json::to_string(&LogRecord::InternalError {
        n: Some(5),
        message: "the game refused to play".into(),
        truth,
    })
    .unwrap();
    let (line, message) = mismatch_of(&lines);
    assert_eq!(line, lines.len());
    assert_eq!(
        message,
        "an internal error, but the game plays on from this point"
    );
}

/// A log of Tally between two counters: line 1 the header, 2 the start, 3 the opening event, 4
/// the opening scores, 5 action 0, 6 its event (saying 0 changes no score), 7 action 1, 8 its
/// event, 9 its scores, and so on.
async fn counters() -> Vec<String> {
    let (_, lines) = logged_match(&Options::default(), &["counter", "counter"], 3).await;
    let types: Vec<String> = lines
        .iter()
        .take(9)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["type"].to_string())
        .collect();
    assert_eq!(
        types,
        [
            "header", "start", "event", "scores", "action", "event", "action", "event", "scores"
        ]
        .map(|t| format!("{t:?}"))
    );
    lines
}

/// `lines` with the record on line `line` (1-based) changed by `edit`.
fn edited(lines: &[String], line: usize, edit: impl FnOnce(&mut serde_json::Value)) -> Vec<String> {
    let mut lines = lines.to_vec();
    let mut record: serde_json::Value = serde_json::from_str(&lines[line - 1]).unwrap();
    edit(&mut record);
    lines[line - 1] = record.to_string();
    lines
}

#[tokio::test(start_paused = true)]
async fn an_altered_or_readdressed_event_is_named_by_its_line() {
    let lines = counters().await;
    let said = edited(&lines, 8, |r| r["event"]["say"] = 7.into());
    assert_eq!(
        mismatch_of(&said),
        (
            8,
            r#"the event {"say":7,"seat":1} to all of decision 1, but the game's next record is the event {"say":1,"seat":1} to all of decision 1"#.into()
        )
    );
    let private = edited(&lines, 6, |r| r["to"] = 1.into());
    let (line, message) = mismatch_of(&private);
    assert_eq!(line, 6);
    assert!(
        message.contains("to seat 1 of decision 0, but"),
        "{message}"
    );
    let opening = edited(&lines, 3, |r| r["n"] = 0.into());
    let (line, message) = mismatch_of(&opening);
    assert_eq!(line, 3);
    assert!(message.ends_with("to all of the opening"), "{message}");
}

#[tokio::test(start_paused = true)]
async fn a_dropped_moved_or_added_event_is_named_by_its_line() {
    let lines = counters().await;
    // Decision 0's event dropped: decision 1's action comes where it was due.
    let mut dropped = lines.clone();
    dropped.remove(5);
    assert_eq!(
        mismatch_of(&dropped),
        (
            6,
            r#"missing before this line: the event {"say":0,"seat":0} to all of decision 0"#.into()
        )
    );
    // Decision 1's event after its scores.
    let mut moved = lines.clone();
    moved.swap(7, 8);
    let (line, message) = mismatch_of(&moved);
    assert_eq!(line, 8);
    assert!(
        message.starts_with(
            "the scores [0, 1] of decision 1, but the game's next record is the event"
        ),
        "{message}"
    );
    // Decision 0's event told twice.
    let mut doubled = lines.clone();
    doubled.insert(6, lines[5].clone());
    let (line, message) = mismatch_of(&doubled);
    assert_eq!(line, 7);
    assert!(
        message.ends_with("of decision 0, but the game gave nothing more here"),
        "{message}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_altered_score_or_start_is_named_by_its_line() {
    let lines = counters().await;
    let scores = edited(&lines, 9, |r| r["scores"][1] = 2.into());
    assert_eq!(
        mismatch_of(&scores),
        (
            9,
            "the scores [0, 2] of decision 1, but the game's next record is the scores [0, 1] of decision 1".into()
        )
    );
    let truth = edited(&lines, 2, |r| r["truth"]["totals"][0] = 5.into());
    assert_eq!(
        mismatch_of(&truth),
        (
            2,
            "the recorded start state is not the one the seed deals".into()
        )
    );
    let view = edited(&lines, 2, |r| r["views"][1]["n"] = 3.into());
    assert_eq!(
        mismatch_of(&view),
        (
            2,
            "seat 1's view at the start is not the one the rules give it".into()
        )
    );
    let mut no_start = lines.clone();
    no_start.remove(1);
    assert_eq!(
        mismatch_of(&no_start),
        (
            2,
            "the start record is missing (a version 3 log has it on line 2)".into()
        )
    );
    let named = edited(&lines, 1, |r| r["higher_is_better"] = false.into());
    assert_eq!(
        mismatch_of(&named),
        (
            1,
            r#"the header says the score is "points", lower is better, but tally's is "points", higher is better"#.into()
        )
    );
}

#[tokio::test(start_paused = true)]
async fn a_stderr_record_is_checked_for_its_shape_only() {
    let lines = counters().await;
    let stderr = |n: u64, seat: usize| {
        serde_json::to_string(&LogRecord::Stderr {
            n,
            seat,
            text: "anything\n".into(),
            cut: 0,
        })
        .unwrap()
    };
    // Seat 1 (a process, say) wrote something during decision 1: its record before the action.
    let process = edited(&lines, 1, |r| {
        r["players"][1]["bot"] = "python3 bot.py".into()
    });
    let mut good = process.clone();
    good.insert(6, stderr(1, 1));
    assert!(replay(&good).is_ok());
    for (n, seat, message) in [
        (
            2,
            1,
            "a stderr record of seat 1 at decision 2, but decision 1 is seat 1's",
        ),
        (
            1,
            0,
            "a stderr record of seat 0 at decision 1, but decision 1 is seat 1's",
        ),
    ] {
        let mut bad = process.clone();
        bad.insert(6, stderr(n, seat));
        assert_eq!(mismatch_of(&bad), (7, message.into()));
    }
    // A built-in bot writes no stderr.
    let mut builtin = lines.clone();
    builtin.insert(6, stderr(1, 1));
    let (line, message) = mismatch_of(&builtin);
    assert_eq!(line, 7);
    assert!(message.contains("a built-in bot"), "{message}");
    // After its action, its place is gone.
    let mut late = process.clone();
    late.insert(7, stderr(1, 1));
    assert_eq!(mismatch_of(&late).0, 8);
}

/// `lines` as a version 2 log had them: no start, events, scores or stderr, and a header without
/// the score's name and direction.
fn as_version_2(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| {
            let mut record: serde_json::Value = serde_json::from_str(l).unwrap();
            match record["type"].as_str().unwrap() {
                "start" | "event" | "scores" | "stderr" => None,
                "header" => {
                    let header = record.as_object_mut().unwrap();
                    header.insert("log_version".into(), 2.into());
                    header.remove("score_name");
                    header.remove("higher_is_better");
                    Some(record.to_string())
                }
                _ => Some(l.clone()),
            }
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_version_2_log_replays_and_reads_as_the_version_3_log_of_its_match() {
    // With faults at decisions and a stop, so that made records go between them.
    let (record, lines) = logged_match(&Options::default(), &["counter", "loud"], 2).await;
    let old = as_version_2(&lines);
    assert!(old.len() < lines.len());
    let summary = replay(&old).unwrap();
    assert_eq!(summary.scores, record.scores);
    let read = read_lines_as::<Tally>(&old).unwrap();
    assert_eq!(read.log_version, 2);
    let recorded: Vec<LogRecord> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(read.records, recorded, "made again, each in its place");
    assert_eq!(read_lines_as::<Tally>(&lines).unwrap().records, recorded);
    // A version 3 record in a version 2 log does not hold.
    let mut mixed = old.clone();
    mixed.insert(1, lines[1].clone());
    assert_eq!(
        mismatch_of(&mixed),
        (2, "a record of log version 3 in a version 2 log".into())
    );
}

#[tokio::test(start_paused = true)]
async fn a_log_of_another_version_is_refused_with_the_versions_read() {
    let lines = counters().await;
    let future = edited(&lines, 1, |r| r["log_version"] = 4.into());
    assert_eq!(
        mismatch_of(&future),
        (
            1,
            "log version 4; this referee reads versions 2 to 3".into()
        )
    );
}
