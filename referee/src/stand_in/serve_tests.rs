use super::*;
use crate::runner::Outside;
use serde_json::json;

const HELLO: &str = r#"{"type":"hello","protocol":1,"game":"tally","options":{},"limits":{"startup_ms":10000,"decision_ms":1000}}"#;

fn request(id: u64, phase: &str) -> String {
    format!(r#"{{"type":"request","id":{id},"phase":"{phase}","view":{{}},"time_left_ms":1000}}"#)
}

fn play(phase: &str, n: u64) -> StandInStep {
    StandInStep::Action {
        phase: phase.into(),
        action: json!({"n": n}),
    }
}

/// Serves `steps` against the referee's `lines`: how it ended, and the lines it wrote.
fn run(steps: &[StandInStep], lines: &[String]) -> (Served, Vec<String>) {
    let input = lines.join("\n") + "\n";
    let mut output = Vec::new();
    let served = serve(steps, input.as_bytes(), &mut output).unwrap();
    let written = String::from_utf8(output)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    (served, written)
}

#[test]
fn it_says_hello_and_answers_each_request_with_its_next_action() {
    let (served, written) = run(
        &[play("a", 0), play("b", 1)],
        &[
            HELLO.into(),
            r#"{"type":"match_start","match_id":"m","seat":0,"players":["x","y"],"seed":1,"options":{}}"#.into(),
            request(0, "a"),
            r#"{"type":"event","event":{"kind":"k"}}"#.into(),
            request(1, "b"),
            r#"{"type":"goodbye"}"#.into(),
        ],
    );
    assert_eq!(served, Served::Done);
    assert_eq!(
        written,
        [
            r#"{"type":"hello","name":"stand-in","protocol":1,"events":false}"#,
            r#"{"type":"action","id":0,"action":{"n":0}}"#,
            r#"{"type":"action","id":1,"action":{"n":1}}"#,
        ]
    );
}

#[test]
fn a_request_past_its_script_is_a_divergence_named_by_its_turn() {
    let (served, written) = run(
        &[play("a", 0)],
        &[HELLO.into(), request(0, "a"), request(1, "a")],
    );
    assert_eq!(written.len(), 2);
    assert_eq!(
        served,
        Served::Exit {
            code: DIVERGED_EXIT,
            note: "stand-in: the match played again asks this seat for its 2nd turn (phase a), where the recorded match asked it for 1 turn only: it has parted from the recorded match".into()
        }
    );
}

#[test]
fn a_request_in_another_phase_is_a_divergence() {
    let (served, _) = run(&[play("a", 0)], &[HELLO.into(), request(0, "b")]);
    assert!(
        matches!(&served, Served::Exit { code: DIVERGED_EXIT, note } if note.contains("its 1st turn (phase b), where the recorded match asked it in phase a")),
        "{served:?}"
    );
}

#[test]
fn recorded_faults_are_made_again() {
    let fault = |fault, reply| StandInStep::Fault {
        phase: "a".into(),
        fault,
        reply,
    };
    let steps = [
        fault(FaultKind::Timeout, None),
        fault(FaultKind::Malformed, None),
        fault(FaultKind::WrongShape, None),
        fault(FaultKind::StaleId, None),
        fault(FaultKind::IllegalAction, Some(json!({"n": 99}))),
        fault(FaultKind::Exited, None),
    ];
    let lines: Vec<String> = std::iter::once(HELLO.to_string())
        .chain((0..6).map(|id| request(id, "a")))
        .collect();
    let (served, written) = run(&steps, &lines);
    assert_eq!(
        written[1..],
        [
            "stand-in: the recorded reply was not JSON",
            r#"{"type":"action","id":2,"action":"stand-in: the recorded reply had the wrong shape"}"#,
            r#"{"type":"action","id":1000003,"action":null}"#,
            r#"{"type":"action","id":4,"action":{"n":99}}"#,
        ]
    );
    assert_eq!(
        served,
        Served::Exit {
            code: RECORDED_EXIT,
            note: "stand-in: the recorded bot's process ended at its 6th turn (exited)".into()
        }
    );
}

#[test]
fn faults_at_start_up_and_at_the_end_are_made_again() {
    let at = |at, fault| StandInStep::Outside { at, fault };
    let (served, written) = run(
        &[at(Outside::Start, FaultKind::StartupTimeout)],
        &[HELLO.into()],
    );
    assert_eq!((served, written.len()), (Served::Done, 0));
    let (_, written) = run(
        &[at(Outside::Start, FaultKind::ProtocolMismatch)],
        &[HELLO.into()],
    );
    assert_eq!(
        written,
        [r#"{"type":"hello","name":"stand-in","protocol":2,"events":false}"#]
    );
    let (served, _) = run(
        &[play("a", 0), at(Outside::End, FaultKind::Exited)],
        &[
            HELLO.into(),
            request(0, "a"),
            r#"{"type":"match_end","match_id":"m","scores":[1,2],"ranks":[2,1]}"#.into(),
        ],
    );
    assert!(matches!(
        served,
        Served::Exit {
            code: RECORDED_EXIT,
            ..
        }
    ));
}
