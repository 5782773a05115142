use super::*;
use crate::runner::LogRecord;
use serde_json::json;

/// The match log of docs/match-log.md's example: seat 0 a bot that plays, seat 1 one whose
/// every line is not JSON (stopped after its third fault), seat 2 the built-in heuristic.
fn example() -> Vec<LogRecord> {
    include_str!("../../../tests/fixtures/logs/machiavelli.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn actions_of(log: &[LogRecord], seat: usize) -> Vec<(String, serde_json::Value)> {
    log.iter()
        .filter_map(|r| match r {
            LogRecord::Action {
                seat: s,
                phase,
                action,
                ..
            } if *s == seat => Some((phase.clone(), action.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_seat_that_played_every_turn_is_its_actions_in_order() {
    let log = example();
    let script = stand_in_script(&log, 2);
    let expected: Vec<StandInStep> = actions_of(&log, 2)
        .into_iter()
        .map(|(phase, action)| StandInStep::Action { phase, action })
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(script, expected);
}

#[test]
fn a_faulted_decision_is_its_fault_and_a_stopped_bot_is_asked_no_more() {
    let script = stand_in_script(&example(), 1);
    let malformed = StandInStep::Fault {
        phase: "turn".into(),
        fault: FaultKind::Malformed,
        reply: None,
    };
    // Three faults, then stopped: the referee played its other turns without asking it.
    assert_eq!(
        script,
        vec![malformed.clone(), malformed.clone(), malformed]
    );
}

#[test]
fn faults_outside_the_turns_are_steps_at_the_start_or_the_end() {
    let fault = |n: Option<u64>, seat, fault| LogRecord::Fault {
        n,
        seat,
        fault,
        message: "x".into(),
    };
    let action = |n, seat, substituted| LogRecord::Action {
        n,
        seat,
        phase: "play".into(),
        action: json!({"card": n}),
        substituted,
        ms: 1.0,
        overrun: false,
        cpu_ms: None,
    };
    let log = vec![
        fault(None, 1, FaultKind::StartupTimeout),
        action(0, 0, false),
        action(1, 1, true),
        fault(Some(2), 0, FaultKind::IllegalAction),
        action(2, 0, true),
        fault(None, 0, FaultKind::Exited),
    ];
    assert_eq!(
        stand_in_script(&log, 1),
        vec![StandInStep::Outside {
            at: Outside::Start,
            fault: FaultKind::StartupTimeout
        }]
    );
    assert_eq!(
        stand_in_script(&log, 0),
        vec![
            StandInStep::Action {
                phase: "play".into(),
                action: json!({"card": 0})
            },
            StandInStep::Fault {
                phase: "play".into(),
                fault: FaultKind::IllegalAction,
                reply: None
            },
            StandInStep::Outside {
                at: Outside::End,
                fault: FaultKind::Exited
            },
        ]
    );
}

#[test]
fn an_illegal_action_keeps_the_action_its_message_quoted() {
    let log = vec![
        LogRecord::Fault {
            n: Some(0),
            seat: 0,
            fault: FaultKind::IllegalAction,
            message: r#"{"table":9} is illegal: there is no table 9"#.into(),
        },
        LogRecord::Action {
            n: 0,
            seat: 0,
            phase: "chip".into(),
            action: json!({"table": 1}),
            substituted: true,
            ms: 1.0,
            overrun: false,
            cpu_ms: None,
        },
    ];
    assert_eq!(
        stand_in_script(&log, 0),
        vec![StandInStep::Fault {
            phase: "chip".into(),
            fault: FaultKind::IllegalAction,
            reply: Some(json!({"table": 9}))
        }]
    );
}

#[test]
fn a_script_written_reads_back_the_same() {
    let mut script = stand_in_script(&example(), 0);
    script.push(StandInStep::Outside {
        at: Outside::End,
        fault: FaultKind::Exited,
    });
    let mut text = Vec::new();
    write_script(&script, &mut text).unwrap();
    let lines = String::from_utf8(text.clone()).unwrap();
    assert!(
        lines.starts_with("{\"phase\":\"turn\",\"action\":"),
        "{lines}"
    );
    assert!(
        lines.ends_with("{\"at\":\"end\",\"fault\":\"exited\"}\n"),
        "{lines}"
    );
    assert_eq!(read_script(&text[..]).unwrap(), script);
}

#[test]
fn a_line_that_is_no_step_is_refused_with_its_number() {
    let text = "{\"phase\":\"turn\",\"action\":{\"draw\":true}}\n\n{\"phase\":\"turn\"}\n";
    let error = read_script(text.as_bytes()).unwrap_err();
    assert!(
        matches!(error, ScriptError::Step { line: 3, .. }),
        "{error}"
    );
    assert!(
        error.to_string().starts_with("line 3: not a step"),
        "{error}"
    );
}
