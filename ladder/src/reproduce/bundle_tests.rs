//! Bundles that are not what they should be (made by a hostile server, or edited): each a
//! clear error before any bot starts.

use super::*;
use crate::reproduce::test_fixtures::{example_log, example_record, example_spec};
use crate::reproduce::{Caller, ReproduceOptions, reproduce, visible_bundle};

/// bob's bundle of the example, written in a fresh directory (his artifact unpacked).
fn written() -> (tempfile::TempDir, PathBuf, Bundle) {
    let log = example_log();
    let bundle = visible_bundle(
        &example_spec(),
        &example_record(&log),
        &log,
        Caller::Owner("bob"),
        false,
    )
    .unwrap();
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("bundle");
    bundle.write(&dir).unwrap();
    std::fs::create_dir_all(artifact_dir(&dir, &"b".repeat(64))).unwrap();
    (temp, dir, bundle)
}

#[test]
fn links_in_a_bundle_are_refused() {
    let (temp, dir, _) = written();
    let hash = "b".repeat(64);
    let elsewhere = temp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::remove_dir(artifact_dir(&dir, &hash)).unwrap();
    std::os::unix::fs::symlink(&elsewhere, artifact_dir(&dir, &hash)).unwrap();
    let error = Bundle::read(&dir).unwrap_err();
    assert!(
        matches!(&error, ReproduceError::File(e) if e.to_string().contains("symbolic link")),
        "{error}"
    );
    std::fs::remove_file(artifact_dir(&dir, &hash)).unwrap();
    std::fs::create_dir(artifact_dir(&dir, &hash)).unwrap();
    let script = dir.join(STAND_IN_DIR).join("notes.v1.jsonl");
    std::fs::rename(&script, temp.path().join("script")).unwrap();
    std::os::unix::fs::symlink(temp.path().join("script"), &script).unwrap();
    let error = Bundle::read(&dir).unwrap_err();
    assert!(
        matches!(&error, ReproduceError::File(e) if e.to_string().contains("symbolic link")),
        "{error}"
    );
}

#[test]
fn a_spec_whose_artifact_is_no_hash_or_whose_seat_names_no_file_is_refused() {
    let (_temp, dir, bundle) = written();
    let mut spec = bundle.spec.clone();
    spec.seats[1].artifact = Some("../../etc".into());
    std::fs::write(dir.join(SPEC_FILE), serde_json::to_vec(&spec).unwrap()).unwrap();
    let error = Bundle::read(&dir).unwrap_err();
    assert!(error.to_string().contains("is not a sha256"), "{error}");
    let mut spec = bundle.spec.clone();
    spec.seats[0].bot.name = "../notes".into();
    std::fs::write(dir.join(SPEC_FILE), serde_json::to_vec(&spec).unwrap()).unwrap();
    let error = Bundle::read(&dir).unwrap_err();
    assert!(error.to_string().contains("cannot name a file"), "{error}");
}

#[test]
fn a_line_of_the_log_that_is_no_record_is_named() {
    let (_temp, dir, _) = written();
    let mut log = std::fs::read_to_string(dir.join(LOG_FILE)).unwrap();
    let lines = log.lines().count() + 1;
    log.push_str("{\"type\":\"nonsense\"}\n");
    std::fs::write(dir.join(LOG_FILE), log).unwrap();
    let error = Bundle::read(&dir).unwrap_err();
    assert!(
        error
            .to_string()
            .contains(&format!("line {lines}: not a log record")),
        "{error}"
    );
}

/// Plays `bundle` from `dir`: each of these is refused before a bot starts.
fn refused(bundle: &Bundle, dir: &Path) -> ReproduceError {
    let options = ReproduceOptions {
        referee: PathBuf::from("/nonexistent/referee"),
        sandbox: None,
        stderr_dir: None,
    };
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(reproduce(bundle, dir, &options))
        .unwrap_err()
}

#[test]
fn a_bundle_that_does_not_hold_together_is_refused_before_a_bot_starts() {
    let (_temp, dir, bundle) = written();
    let mut other = bundle.clone();
    other.record.players.swap(0, 1);
    let error = refused(&other, &dir);
    assert!(
        error
            .to_string()
            .contains("the spec's seats are notes.v1, garbage.v2, heuristic.v1, the record's players garbage.v2, notes.v1"),
        "{error}"
    );
    let mut other = bundle.clone();
    other.seats.pop();
    assert!(matches!(
        refused(&other, &dir),
        ReproduceError::Inconsistent(_)
    ));
    // A log of another match: a difference found in it would be blamed on the bots.
    let mut other = bundle.clone();
    if let LogRecord::Header { match_id, .. } = &mut other.log[0] {
        *match_id = "match-2".into();
    }
    let error = refused(&other, &dir);
    assert!(
        matches!(&error, ReproduceError::Log(why) if why.starts_with("the log of another match")),
        "{error}"
    );
}
