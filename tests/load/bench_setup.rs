//! What the ladder's benches (`ladder_load`, `ladder_board`) start with: their settings from
//! the environment, and a fresh release build of the referee they drive.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A setting from the environment, or its default.
pub fn setting<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a number")),
        Err(_) => default,
    }
}

/// Builds the referee the bench drives (a release build, beside the bench's binary), so that
/// it never measures a stale one, and returns its path.
pub fn build_referee(root: &Path) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "-p",
            "referee-cli",
            "--bin",
            "referee",
        ])
        .current_dir(root)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build of the referee failed");
    // target/release/deps/BENCH-HASH → target/release/referee
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().parent().unwrap().join("referee");
    assert!(path.exists(), "{} is missing", path.display());
    path
}
