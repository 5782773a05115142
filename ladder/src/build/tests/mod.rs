//! Builds in real bubblewrap: sample bots build and pass their check ([`samples`]); hostile
//! builds each fail with a log that says why ([`hostile`]). Under CI a missing bubblewrap fails
//! the tests.

mod hostile;
mod samples;

use super::*;
use referee::seat::{ResourceLimits, Sandbox};
use referee::tournament::meta::MetaBot;
use std::path::PathBuf;

/// The sandbox of these tests: bubblewrap, or `None` (skipped, but under CI).
pub(super) fn sandbox(test: &str) -> Option<BuildSandbox> {
    match Sandbox::usable(None) {
        Ok(bwrap) => Some(BuildSandbox::new(Sandbox::Bwrap(bwrap), Vec::new())),
        Err(why) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "{test} needs bubblewrap ({why}), and under CI a test does not skip"
            );
            eprintln!("SKIPPED {test}: {why}");
            None
        }
    }
}

pub(super) fn spec(lang: &str) -> BuildSpec {
    BuildSpec {
        version: 1,
        name: "bot.v1".into(),
        lang: lang.into(),
        source: String::new(),
        game: "vabanque".into(),
        options: serde_json::json!({}),
        sandbox: Default::default(),
        bot: MetaBot {
            name: "bot.v1".into(),
            command: String::new(),
            limits: protocol::Limits::new(10_000, 2_000),
            overruns: 0,
            overrun_ms: 0,
            resources: ResourceLimits::default(),
            time_basis: Default::default(),
            turn_isolation: false,
        },
    }
}

/// `upload` unpacked as the worker would have it: its source artifact, unpacked.
pub(super) fn source(upload: &[u8], lang: &str, dir: &Path) -> PathBuf {
    let unpacked =
        crate::upload::unpack(upload, lang, &BuildSettings::default(), &dir.join("u")).unwrap();
    let built = dir.join("build");
    crate::artifacts::unpack_artifact(&unpacked.source, &built, &BuildSettings::default()).unwrap();
    built
}

pub(super) fn sample(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../sample-bots")
            .join(path),
    )
    .unwrap()
}
