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
