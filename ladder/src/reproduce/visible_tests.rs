use super::*;
use crate::reproduce::test_fixtures::{example_log, example_record, example_spec};

#[test]
fn an_owner_gets_its_own_code_and_stand_ins_for_the_others_but_built_ins() {
    let log = example_log();
    let (spec, record) = (example_spec(), example_record(&log));
    let bundle = visible_bundle(&spec, &record, &log, Caller::Owner("bob"), false).unwrap();
    assert_eq!(
        bundle.seats,
        vec![
            SeatSource::StandIn {
                steps: stand_in_script(&log, 0)
            },
            SeatSource::Artifact {
                hash: "b".repeat(64)
            },
            SeatSource::Builtin,
        ]
    );
    // alice's code is not in it, nor how it is run.
    assert_eq!(bundle.spec.seats[0].artifact, None);
    assert_eq!(bundle.spec.seats[0].bot.command, HIDDEN_COMMAND);
    assert_eq!(bundle.spec.seats[1], spec.seats[1]);
    assert_eq!(bundle.spec.seats[2], spec.seats[2]);
    assert_eq!((bundle.spec.seed, &bundle.spec.options), (1, &spec.options));
}

#[test]
fn an_owner_does_not_see_the_others_stderr_fault_messages_or_timings() {
    let log = example_log();
    let (spec, record) = (example_spec(), example_record(&log));
    let bundle = visible_bundle(&spec, &record, &log, Caller::Owner("bob"), false).unwrap();
    let stderr_of = |log: &[LogRecord], of: usize| {
        log.iter()
            .filter(|r| matches!(r, LogRecord::Stderr { seat, .. } if *seat == of))
            .count()
    };
    assert!(stderr_of(&log, 0) > 0);
    assert_eq!(stderr_of(&bundle.log, 0), 0);
    for record in &bundle.log {
        match record {
            LogRecord::Action {
                seat: 0,
                ms,
                cpu_ms,
                ..
            } => {
                assert_eq!((*ms, *cpu_ms), (0.0, None));
            }
            LogRecord::Header { players, .. } => {
                assert_eq!(players[0].bot, HIDDEN_COMMAND);
                assert_eq!(players[0].hello_name, None);
                assert_eq!(players[1], {
                    let LogRecord::Header { players, .. } = &log[0] else {
                        panic!()
                    };
                    players[1].clone()
                });
            }
            _ => {}
        }
    }
    // bob's own faults keep their words; what is decided by the seed and the moves is all there.
    assert!(
        bundle
            .record
            .faults
            .iter()
            .all(|f| f.message.starts_with("not valid JSON"))
    );
    assert_eq!(bundle.record.stats[0].total_ms, 0.0);
    assert_eq!(bundle.record.stats[1].total_ms, 12.5);
    let decided = |log: &[LogRecord]| {
        log.iter()
            .filter(|r| {
                matches!(
                    r,
                    LogRecord::Event { .. } | LogRecord::Start { .. } | LogRecord::Result { .. }
                )
            })
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(decided(&bundle.log), decided(&log));
}

#[test]
fn alices_view_hides_bobs_fault_messages() {
    let log = example_log();
    let (spec, record) = (example_spec(), example_record(&log));
    let bundle = visible_bundle(&spec, &record, &log, Caller::Owner("alice"), false).unwrap();
    assert!(
        bundle
            .record
            .faults
            .iter()
            .all(|f| f.message == HIDDEN_MESSAGE)
    );
    assert!(
        bundle
            .log
            .iter()
            .all(|r| !matches!(r, LogRecord::Fault { message, .. } if message != HIDDEN_MESSAGE))
    );
}

#[test]
fn the_admin_gets_everything() {
    let log = example_log();
    let (spec, record) = (example_spec(), example_record(&log));
    let bundle = visible_bundle(&spec, &record, &log, Caller::Admin, true).unwrap();
    assert_eq!(
        (&bundle.spec, &bundle.record, &bundle.log),
        (&spec, &record, &log)
    );
    assert!(matches!(bundle.seats[0], SeatSource::Artifact { .. }));
    assert!(matches!(bundle.seats[1], SeatSource::Artifact { .. }));
}

#[test]
fn an_owner_gets_only_its_own_matches_and_only_once_their_deal_is_played_out() {
    let log = example_log();
    let (spec, record) = (example_spec(), example_record(&log));
    assert_eq!(
        visible_bundle(&spec, &record, &log, Caller::Owner("carol"), false),
        Err(NotVisible::NotAtTable {
            owner: "carol".into()
        })
    );
    assert_eq!(
        visible_bundle(&spec, &record, &log, Caller::Owner("alice"), true),
        Err(NotVisible::SeedInPlay)
    );
}

#[test]
fn a_bundle_written_reads_back_the_same_with_its_artifacts_unpacked() {
    let log = example_log();
    let (spec, record) = (example_spec(), example_record(&log));
    let bundle = visible_bundle(&spec, &record, &log, Caller::Owner("bob"), false).unwrap();
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("bundle");
    bundle.write(&dir).unwrap();
    let error = Bundle::read(&dir).unwrap_err();
    assert!(
        matches!(&error, crate::reproduce::ReproduceError::NoSource { seat: 1, bot } if bot == "garbage.v2"),
        "{error}"
    );
    std::fs::create_dir_all(crate::reproduce::artifact_dir(&dir, &"b".repeat(64))).unwrap();
    assert_eq!(Bundle::read(&dir).unwrap(), bundle);
    assert!(dir.join("stand-in/notes.v1.jsonl").is_file());
}
