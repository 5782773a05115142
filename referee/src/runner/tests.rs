//! The match runner's tests, on Tally (`tally.rs`): built-in bots, and scripted bots that speak
//! the protocol in-process ([`ScriptedBot`](crate::seat::ScriptedBot)) under tokio's paused
//! clock — timeouts, overruns, noise, wrong shapes, crashes and the fault limit, each match's
//! log replayed to the same books. No process, no sleep on the wall clock: a script that waits
//! 150 ms waits 150 ms of virtual time, exactly.

use super::tally::{Options, Tally, builtin, logged_match, play, scripted};
use super::{FaultPolicy, LogRecord, MatchRecord, Penalty, Player, shutdown_players};
use crate::replay::replay_lines_as;
use crate::seat::{ScriptEnd, ScriptedBot, TimeControl};
use protocol::{FaultKind, Limits};
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a script heard from the referee, in order.
type Heard = Arc<Mutex<Vec<Value>>>;

/// One request's answer: after `ms` milliseconds, the lines written (`ID` in them stands for
/// the request's id, `NEXT` for the one after it; a line that starts with `RAW:` is written
/// without it and without a newline, one that starts with `ERR:` is written without it to
/// stderr); then, if `quit`, the script ends.
struct Answer {
    ms: u64,
    lines: Vec<String>,
    quit: bool,
}

/// Says `n` after `ms`.
fn say(ms: u64, n: i64) -> Answer {
    Answer {
        ms,
        lines: vec![format!(
            r#"{{"type":"action","id":ID,"action":{{"say":{n}}}}}"#
        )],
        quit: false,
    }
}

/// Answers each request in turn; once out of answers it quits (its output closes) at the next
/// request, or when its input ends. Keeps every message it reads in `heard`.
async fn run_script(mut end: ScriptEnd, answers: Vec<Answer>, heard: Heard) {
    let mut answers = answers.into_iter();
    loop {
        let mut seen = Vec::new();
        let request = end.request(&mut seen).await;
        heard.lock().unwrap().extend(seen);
        let (Some(request), Some(answer)) = (request, answers.next()) else {
            return;
        };
        tokio::time::sleep(Duration::from_millis(answer.ms)).await;
        for line in answer.lines {
            let id = request["id"].as_u64().unwrap();
            let line = line
                .replace(r#""id":ID"#, &format!(r#""id":{id}"#))
                .replace(r#""id":NEXT"#, &format!(r#""id":{}"#, id + 1));
            if let Some(text) = line.strip_prefix("ERR:") {
                end.send_stderr(text);
                continue;
            }
            let sent = match line.strip_prefix("RAW:") {
                Some(raw) => end.send_raw(raw).await,
                None => end.send_line(&line).await,
            };
            if sent.is_err() {
                return;
            }
        }
        if answer.quit {
            return;
        }
    }
}

/// A time control with a per-decision limit of `decision_ms`.
fn limit(decision_ms: u64) -> TimeControl {
    TimeControl {
        limits: Limits::new(10_000, decision_ms),
        ..TimeControl::default()
    }
}

/// A match of Tally (six decisions) between a script with `answers` in seat 0 and the built-in
/// counter in seat 1; the record, the log's lines and what the script heard (all of it: the
/// players are shut down before this returns).
async fn scripted_match(
    time: TimeControl,
    answers: Vec<Answer>,
    policy: FaultPolicy,
    max_faults: u32,
) -> (MatchRecord, Vec<String>, Vec<Value>) {
    let heard = Heard::default();
    let script_heard = heard.clone();
    let mut players: Vec<Player<Tally, ScriptedBot>> = vec![
        scripted("s", time, move |end| run_script(end, answers, script_heard)),
        builtin("counter"),
    ];
    let (record, lines) = play(&Options::default(), &mut players, policy, max_faults).await;
    shutdown_players(&mut players, Duration::from_secs(1)).await;
    let heard = heard.lock().unwrap().clone();
    (record, lines, heard)
}

/// The log replays, with the record's scores, ranks and faults.
fn assert_replays(lines: &[String], record: &MatchRecord) {
    let summary = replay_lines_as::<Tally>(lines).expect("the log replays");
    assert_eq!(summary.scores, record.scores);
    assert_eq!(summary.ranks, record.ranks);
    assert_eq!(summary.faults, record.faults.len() as u64);
}

/// The `(seat, decision, kind)` of each fault.
fn faults(record: &MatchRecord) -> Vec<(usize, Option<u64>, FaultKind)> {
    record
        .faults
        .iter()
        .map(|f| (f.seat, f.decision, f.fault))
        .collect()
}

/// The messages of `kind` heard.
fn of_type<'h>(heard: &'h [Value], kind: &str) -> Vec<&'h Value> {
    heard.iter().filter(|m| m["type"] == kind).collect()
}

/// The `ms` of each action of seat 0 in the log.
fn seat0_ms(lines: &[String]) -> Vec<f64> {
    lines
        .iter()
        .filter_map(|l| match serde_json::from_str(l).unwrap() {
            LogRecord::Action { seat: 0, ms, .. } => Some(ms),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_scripted_bot_is_timed_to_the_millisecond_of_virtual_time() {
    let answers = vec![say(30, 3), say(40, 3), say(50, 3)];
    let (record, lines, heard) =
        scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert_eq!(record.scores, [9, 9], "the counter says 1, 3, 5");
    let stats = &record.stats[0];
    assert_eq!((stats.decisions, stats.substituted), (3, 0));
    assert_eq!((stats.total_ms, stats.max_ms), (120.0, 50.0));
    assert_eq!(seat0_ms(&lines), [30.0, 40.0, 50.0]);
    assert_eq!(of_type(&heard, "match_start").len(), 1);
    let requests = of_type(&heard, "request");
    assert_eq!(requests.len(), 3);
    assert!(requests.iter().all(|r| r["time_left_ms"] == 100));
    assert_eq!(
        of_type(&heard, "match_end")[0]["scores"],
        serde_json::json!([9, 9])
    );
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn a_late_reply_is_a_timeout_and_its_late_answer_is_dropped_silently() {
    // The first reply comes at 150 ms, over the limit of 100 ms: the referee plays 0 instead and
    // asks again at 100 ms; the late reply arrives while it waits for the next one.
    let answers = vec![say(150, 3), say(20, 3), say(0, 3)];
    let (record, lines, heard) =
        scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
    assert_eq!(faults(&record), [(0, Some(0), FaultKind::Timeout)]);
    // The first decision names its own limit, and the record tells when the late reply came
    // (the bot was told at the timeout).
    let told = "no reply within the time limit of 100 ms; it was the bot's first decision of the \
                match: --first-decision-ms MS (first_decision_ms in a TOML file) gives it longer \
                (docs/time-controls.md#the-settings)";
    assert_eq!(
        record.faults[0].message,
        format!("{told}; its reply came 50 ms after the limit")
    );
    let errors = of_type(&heard, "error");
    assert_eq!(errors.len(), 1);
    assert_eq!(
        *errors[0],
        serde_json::json!({"type": "error", "id": 0, "fault": "timeout",
            "message": told, "substituted": {"say": 0}})
    );
    // Asked at 100 ms, answered at 150 + 20: 70 ms.
    assert_eq!(seat0_ms(&lines), [100.0, 70.0, 0.0]);
    assert_eq!((record.stats[0].substituted, record.scores[0]), (1, 6));
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn a_fault_records_the_bots_own_turn_and_the_requests_phase() {
    // Seat 0 decides at decisions 0, 2 and 4: its second reply is late, at decision 2.
    let answers = vec![say(0, 3), say(150, 3), say(0, 3)];
    let (record, _, _) = scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
    let fault = &record.faults[0];
    assert_eq!((fault.decision, fault.turn), (Some(2), Some(2)));
    assert_eq!((fault.phase.as_deref(), fault.outside), (Some("say"), None));
    assert_eq!(
        fault.moment(7).to_string(),
        "match 7, its 2nd turn (phase say; log decision 2)"
    );
    // Not written when absent: results of a clean match read as before.
    let json = serde_json::to_value(fault).unwrap();
    assert_eq!(
        (json["turn"].clone(), json["phase"].clone()),
        (2.into(), "say".into())
    );
    assert!(json.get("outside").is_none());
}

#[tokio::test(start_paused = true)]
async fn a_soft_overrun_covers_one_late_reply_and_a_bank_names_its_limit() {
    let time = TimeControl {
        limits: Limits {
            bank_ms: Some(250),
            ..Limits::new(10_000, 100)
        },
        overruns: 1,
        overrun_ms: 50,
        ..TimeControl::default()
    };
    // 120 ms: an overrun (130 ms left in the bank); 120 ms again: no overrun left, a timeout
    // at 100 ms (30 ms left); then 20 ms, within the 30 ms the bank has left.
    let answers = vec![say(120, 3), say(120, 3), say(0, 3)];
    let (record, lines, heard) = scripted_match(time, answers, FaultPolicy::default(), 3).await;
    assert_eq!(faults(&record), [(0, Some(2), FaultKind::Timeout)]);
    assert_eq!(
        record.faults[0].message,
        "no reply within the time limit of 100 ms (the smaller of the per-decision limit and the time left in the bank); its reply came 20 ms after the limit"
    );
    assert_eq!(record.stats[0].overruns, 1);
    let overruns: Vec<bool> = lines
        .iter()
        .filter_map(|l| match serde_json::from_str(l).unwrap() {
            LogRecord::Action {
                seat: 0, overrun, ..
            } => Some(overrun),
            _ => None,
        })
        .collect();
    assert_eq!(overruns, [true, false, false]);
    let told: Vec<&Value> = of_type(&heard, "request")
        .iter()
        .map(|r| &r["time_left_ms"])
        .collect();
    assert_eq!(told, [100, 100, 30]);
    assert_eq!(seat0_ms(&lines), [120.0, 100.0, 20.0]);
    assert_replays(&lines, &record);
}

/// The `say` reply to request `ID` (or `NEXT`) as a line.
fn reply(id: &str, n: i64) -> String {
    format!(r#"{{"type":"action","id":{id},"action":{{"say":{n}}}}}"#)
}

#[tokio::test(start_paused = true)]
async fn a_bad_line_is_the_answer_it_costs_one_fault_and_the_default_action_at_once() {
    for (bad, kind, message) in [
        (
            "thinking...",
            FaultKind::Malformed,
            "not valid JSON (expected ident at line 1 column 2): thinking...",
        ),
        (
            r#"{"type":"action","id":1000,"action":{"say":3}}"#,
            FaultKind::StaleId,
            "a reply to request 1000 while request 0 is pending (a repeated or invented id)",
        ),
        (
            r#"{"type":"hello","name":"again"}"#,
            FaultKind::WrongShape,
            "a hello while request 0 is pending",
        ),
    ] {
        // The bad line, then the reply, 10 ms after the request: the bad line is the answer.
        let mut first = say(10, 3);
        first.lines.insert(0, bad.to_string());
        let answers = vec![first, say(0, 3), say(0, 3)];
        let (record, lines, heard) =
            scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
        assert_eq!(faults(&record), [(0, Some(0), kind)], "{bad}");
        assert_eq!(record.faults[0].message, message);
        assert_eq!(record.faults[0].line.as_deref(), Some(bad));
        // Substituted at 10 ms, not at the limit; the reply after the line is dropped silently.
        assert_eq!(seat0_ms(&lines), [10.0, 0.0, 0.0], "{bad}");
        assert_eq!((record.stats[0].substituted, record.scores[0]), (1, 6));
        let errors = of_type(&heard, "error");
        assert_eq!(errors.len(), 1, "{bad}");
        assert_eq!(errors[0]["id"], 0);
        assert_eq!(errors[0]["substituted"], serde_json::json!({"say": 0}));
        assert_replays(&lines, &record);
    }
}

#[tokio::test(start_paused = true)]
async fn a_flood_of_blank_lines_is_one_fault_per_request_and_a_few_are_none() {
    let allowed = "\n".repeat(crate::seat::BLANK_ALLOWANCE as usize - 1);
    let flood = "\n".repeat(30_000);
    let answers = vec![
        // 16 blank lines (the last written by the reply's line): allowed.
        Answer {
            lines: vec![allowed, reply("ID", 3)],
            ..say(5, 3)
        },
        // 30,000 blank lines (within the pipe's 64 KiB) and no reply, then the same with a reply
        // after them.
        Answer {
            lines: vec![flood.clone()],
            ..say(5, 3)
        },
        Answer {
            lines: vec![flood, reply("ID", 3)],
            ..say(5, 3)
        },
    ];
    let (record, lines, heard) =
        scripted_match(limit(100), answers, FaultPolicy::default(), 9).await;
    assert_eq!(
        faults(&record),
        [
            (0, Some(2), FaultKind::Malformed),
            (0, Some(4), FaultKind::Malformed)
        ]
    );
    assert_eq!(
        record.faults[0].message,
        "more than 16 blank lines while request 1 is pending"
    );
    assert_eq!(record.faults[0].line, None);
    // Ended at once, at the 17th blank line.
    assert_eq!(seat0_ms(&lines), [5.0, 5.0, 5.0]);
    assert_eq!((record.stats[0].substituted, record.scores[0]), (2, 3));
    assert_eq!(of_type(&heard, "error").len(), 2);
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn lines_written_before_a_request_are_stray_never_its_reply() {
    // With each reply, the script also answers the request to come (`NEXT`), before it is
    // written: once whole, once begun (the rest of the line comes after the request).
    let answers = vec![
        Answer {
            lines: vec![reply("ID", 3), reply("NEXT", 3)],
            ..say(20, 3)
        },
        Answer {
            lines: vec![reply("ID", 3), format!("RAW:{}", reply("NEXT", 3))],
            ..say(30, 3)
        },
        // The end of the line begun, then the reply.
        Answer {
            lines: vec![String::new(), reply("ID", 3)],
            ..say(40, 3)
        },
    ];
    let (record, lines, heard) =
        scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
    assert_eq!(
        faults(&record),
        [
            (0, Some(2), FaultKind::StaleId),
            (0, Some(4), FaultKind::StaleId)
        ]
    );
    for (fault, id) in record.faults.iter().zip([1, 2]) {
        assert_eq!(
            fault.message,
            format!(
                "a reply to request {id} before request {id} was written (written before its request); it is ignored"
            )
        );
    }
    // Every decision is the bot's own, timed from its request: the early lines are no reply.
    assert_eq!(seat0_ms(&lines), [20.0, 30.0, 40.0]);
    assert_eq!((record.stats[0].substituted, record.scores[0]), (0, 9));
    let errors = of_type(&heard, "error");
    assert!(errors.iter().all(|e| e.get("id").is_none()), "{errors:?}");
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn stray_lines_before_a_request_that_use_up_the_faults_end_the_decision_unasked() {
    let junk = || Answer {
        lines: vec![reply("ID", 3), "junk".to_string(), "junk".to_string()],
        ..say(0, 3)
    };
    let (record, lines, heard) =
        scripted_match(limit(100), vec![junk(), junk()], FaultPolicy::default(), 2).await;
    // Two stray lines before the second request: the bot's two faults, and it is stopped
    // without being asked again.
    assert_eq!(
        faults(&record),
        [
            (0, Some(2), FaultKind::Malformed),
            (0, Some(2), FaultKind::Malformed)
        ]
    );
    assert_eq!(of_type(&heard, "request").len(), 1);
    assert!(
        of_type(&heard, "error")
            .iter()
            .all(|e| e.get("id").is_none())
    );
    assert_eq!(
        (record.stats[0].substituted, record.stats[0].ejected),
        (2, true)
    );
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn a_500_kb_action_of_the_wrong_shape_is_cut_in_every_message() {
    let huge = format!(
        r#"{{"type":"action","id":ID,"action":{{"shout":"{}"}}}}"#,
        "x".repeat(500_000)
    );
    let answers = vec![
        Answer {
            lines: vec![huge],
            ..say(0, 3)
        },
        say(0, 3),
        say(0, 3),
    ];
    let (record, lines, heard) =
        scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
    assert_eq!(faults(&record), [(0, Some(0), FaultKind::WrongShape)]);
    let message = &record.faults[0].message;
    assert!(message.len() < 600, "{} bytes", message.len());
    assert!(
        message.starts_with(r#"the action {"shout":"xxxx"#)
            && message.ends_with(r#"… (500012 bytes) is not a say action: expected {"say": N}"#),
        "{message}"
    );
    let told = of_type(&heard, "error")[0]["message"].as_str().unwrap();
    assert_eq!(told, message);
    assert!(
        lines.iter().all(|l| l.len() < 2000),
        "the log holds no echo"
    );
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn a_bot_that_quits_forfeits_or_is_substituted_by_the_policy() {
    for (crash, forfeited, ranks) in [
        (Penalty::Forfeit, true, [2, 1]),
        (Penalty::Substitute, false, [1, 1]),
    ] {
        let policy = FaultPolicy {
            crash,
            ..FaultPolicy::default()
        };
        // It says 9 once, then quits when asked again: 9 against 1 + 3 + 5 = 9, a tie that
        // only a forfeit breaks.
        let (record, lines, _) = scripted_match(limit(100), vec![say(0, 9)], policy, 3).await;
        assert_eq!(faults(&record), [(0, Some(2), FaultKind::Exited)]);
        let note = if forfeited {
            "; the bot forfeits the match (ranked last) and the referee plays for it for the rest of the match"
        } else {
            "; the referee plays for this seat for the rest of the match"
        };
        assert_eq!(
            record.faults[0].message,
            format!("the bot closed its standard output{note}")
        );
        assert_eq!(record.scores, [9, 9]);
        let stats = &record.stats[0];
        assert_eq!((stats.ejected, stats.forfeited), (true, forfeited));
        assert_eq!(record.ranks, ranks, "{crash:?}");
        assert_replays(&lines, &record);
    }
}

#[tokio::test(start_paused = true)]
async fn a_bot_that_cannot_take_its_match_end_is_charged_at_the_end_for_nothing() {
    // It answers its three requests, then quits before the match ends.
    let last = Answer {
        quit: true,
        ..say(0, 1)
    };
    let answers = vec![say(0, 1), say(0, 1), last];
    let (record, lines, _) = scripted_match(limit(100), answers, FaultPolicy::default(), 3).await;
    assert_eq!(faults(&record), [(0, None, FaultKind::Exited)]);
    assert_eq!(record.faults[0].when(), crate::runner::When::End);
    assert!(
        record.faults[0]
            .message
            .starts_with("writing to the bot failed ("),
        "{}",
        record.faults[0].message
    );
    let stats = &record.stats[0];
    assert_eq!((stats.ejected, stats.forfeited), (true, false));
    assert_eq!(record.ranks, [2, 1], "3 against 9, no forfeit");
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn the_fault_limit_stops_a_scripted_bot_and_tells_it_why() {
    let answers = vec![say(0, 42), say(0, 42), say(0, 3)];
    let (record, lines, heard) =
        scripted_match(limit(100), answers, FaultPolicy::default(), 2).await;
    assert_eq!(
        faults(&record),
        [
            (0, Some(0), FaultKind::IllegalAction),
            (0, Some(2), FaultKind::IllegalAction)
        ]
    );
    // Told of both faults, then its input closed: no third request, no match_end.
    let errors = of_type(&heard, "error");
    assert_eq!(errors.len(), 2);
    assert!(
        errors[1]["message"]
            .as_str()
            .unwrap()
            .ends_with("; fault limit reached: the bot is stopped and the referee plays for it for the rest of the match")
    );
    assert_eq!(of_type(&heard, "request").len(), 2);
    assert!(of_type(&heard, "match_end").is_empty());
    assert_eq!(
        (record.stats[0].substituted, record.stats[0].ejected),
        (3, true)
    );
    assert_replays(&lines, &record);
}

#[tokio::test(start_paused = true)]
async fn an_illegal_builtin_is_charged_until_the_fault_limit_stops_it() {
    let (record, lines) = logged_match(&Options::default(), &["counter", "loud"], 2).await;
    // Seat 1 decides at 1, 3 and 5: it faults at 1 and 3, and is stopped at its second fault.
    assert_eq!(
        faults(&record),
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

mod log_records;
