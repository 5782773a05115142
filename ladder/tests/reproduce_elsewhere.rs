//! A reproduction does not depend on the caller's working directory: from another directory,
//! and with the bundle named by a relative path, it gives the recorded scores. A test binary of
//! its own, as it changes the process's directory.

mod support;

use referee_ladder::reproduce::{Bundle, Caller, reproduce};
use support::{options, record, temp_dir};

#[tokio::test(flavor = "current_thread")]
async fn a_match_reproduced_from_another_directory_gives_the_recorded_scores() {
    let dir = temp_dir("elsewhere");
    let recorded = record("vabanque", 11, &dir).await;
    let bundle_dir = dir.join("bundle");
    recorded.bundle(Caller::Owner("bob"), &bundle_dir);
    let elsewhere = dir.join("somewhere/else");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::env::set_current_dir(&elsewhere).unwrap();
    let again = reproduce(&Bundle::read(&bundle_dir).unwrap(), &bundle_dir, &options())
        .await
        .unwrap();
    assert!(again.same_result, "{:?}", again.first_difference);
    assert_eq!(again.record.scores, recorded.record.scores);
    // The bundle named from here.
    std::env::set_current_dir(&dir).unwrap();
    let relative = std::path::Path::new("bundle");
    let again = reproduce(&Bundle::read(relative).unwrap(), relative, &options())
        .await
        .unwrap();
    assert!(again.same_result, "{:?}", again.first_difference);
    assert_eq!(again.record.scores, recorded.record.scores);
    let _ = std::fs::remove_dir_all(&dir);
}
