//! Hostile builds, each a Rust crate whose build script does the harm: one that never ends,
//! fills its disk, eats memory, reaches for the network or looks around, and one whose crate is
//! missing; each fails with a log that says so.

use super::*;
use crate::upload::test_archives::{self as make, file};
use std::path::PathBuf;
use std::time::Instant;

/// A Rust crate whose build script is `build_rs`.
fn crate_with_build_script(build_rs: &str, dependencies: &str) -> Vec<u8> {
    let manifest = format!(
        "[package]\nname = \"b\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{dependencies}\n[workspace]\n"
    );
    make::tar(&[
        file(b"Cargo.toml", manifest.as_bytes()),
        file(b"build.rs", build_rs.as_bytes()),
        file(b"src/main.rs", b"fn main() {}\n"),
    ])
}

/// Builds, for `test`, the Rust crate whose build script is `build_rs` (with `dependencies`)
/// under `settings`, with `hidden` hidden; `None` where the test is skipped.
async fn hostile(
    test: &str,
    build_rs: &str,
    dependencies: &str,
    settings: BuildSettings,
    hidden: &[PathBuf],
) -> Option<BuildOutcome> {
    let mut sandbox = sandbox(test)?;
    sandbox.hidden.extend_from_slice(hidden);
    let dir = tempfile::tempdir().unwrap();
    let built = source(
        &crate_with_build_script(build_rs, dependencies),
        "rust",
        dir.path(),
    );
    Some(
        build(&spec("rust"), &built, &settings, &sandbox)
            .await
            .unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_that_never_ends_is_stopped_at_its_time_cap() {
    let started = Instant::now();
    let settings = BuildSettings {
        time_s: 5,
        ..BuildSettings::default()
    };
    let endless = "fn main() { loop {} }\n";
    let Some(outcome) = hostile("endless build", endless, "", settings, &[]).await else {
        return;
    };
    assert!(!outcome.ok);
    assert_eq!(outcome.stopped, Some(BuildStop::Time { seconds: 5 }));
    assert!(
        outcome.log.contains("stopped at its time cap of 5 s"),
        "{}",
        outcome.log
    );
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_that_fills_its_disk_is_stopped_at_its_disk_cap() {
    let settings = BuildSettings {
        disk_mb: 64,
        ..BuildSettings::default()
    };
    let fill = r#"
fn main() {
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    for i in 0.. {
        std::fs::write(out.join(format!("fill{i}")), vec![1u8; 1 << 20]).unwrap();
    }
}
"#;
    let Some(outcome) = hostile("disk-filling build", fill, "", settings, &[]).await else {
        return;
    };
    assert!(!outcome.ok);
    assert!(
        matches!(outcome.stopped, Some(BuildStop::Disk { .. })),
        "{outcome:#?}"
    );
    assert!(
        outcome.log.contains("stopped at its disk cap"),
        "{}",
        outcome.log
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_over_its_memory_cap_fails() {
    let settings = BuildSettings {
        memory_mb: 384,
        ..BuildSettings::default()
    };
    let hungry = r#"
fn main() {
    let mut held = Vec::new();
    for _ in 0..64 {
        held.push(vec![1u8; 32 << 20]);
    }
    println!("held {} MiB", held.iter().map(Vec::len).sum::<usize>() >> 20);
}
"#;
    let Some(outcome) = hostile("memory-hungry build", hungry, "", settings, &[]).await else {
        return;
    };
    assert!(!outcome.ok, "{}", outcome.log);
    match outcome.memory_cap {
        Some(MemoryCap::Cgroup) => {
            assert_eq!(outcome.stopped, Some(BuildStop::Memory { mb: 384 }));
            assert!(
                outcome.log.contains("stopped at its memory cap of 384 MiB"),
                "{}",
                outcome.log
            );
        }
        _ => assert!(outcome.log.contains("memory allocation"), "{}", outcome.log),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_cannot_reach_the_network() {
    // A server the build could reach from outside the sandbox.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let reach = format!(
        r#"
fn main() {{
    match std::net::TcpStream::connect("127.0.0.1:{port}") {{
        Ok(_) => println!("reached the network"),
        Err(e) => panic!("the connection failed: {{e}}"),
    }}
}}
"#
    );
    let settings = BuildSettings::default();
    let Some(outcome) = hostile("networked build", &reach, "", settings, &[]).await else {
        return;
    };
    assert!(!outcome.ok, "{}", outcome.log);
    assert!(
        outcome.log.contains("the connection failed"),
        "{}",
        outcome.log
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_sees_neither_the_hidden_places_nor_the_home_but_its_toolchains() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("store");
    std::fs::create_dir(&secret).unwrap();
    std::fs::write(secret.join("other-owner.tar.gz"), "secret source").unwrap();
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let look = format!(
        r#"
fn main() {{
    let secret = std::fs::read_to_string("{}");
    let shadow = std::fs::read_to_string("/etc/shadow");
    assert!(shadow.as_deref().unwrap_or("").is_empty(), "read /etc/shadow");
    let home: Vec<String> = std::fs::read_dir("{}")
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    panic!("secret: {{secret:?}}; home: {{home:?}}");
}}
"#,
        secret.join("other-owner.tar.gz").display(),
        home.display()
    );
    let settings = BuildSettings::default();
    let Some(outcome) = hostile("build that looks around", &look, "", settings, &[secret]).await
    else {
        return;
    };
    assert!(outcome.log.contains("secret: Err("), "{}", outcome.log);
    assert!(!outcome.log.contains("secret source"), "{}", outcome.log);
    let kept: Vec<_> = mounts::kept_in_home(&home)
        .iter()
        .filter_map(|p| {
            p.strip_prefix(&home)
                .ok()?
                .iter()
                .next()
                .map(|c| c.to_owned())
        })
        .collect();
    for entry in std::fs::read_dir(&home).unwrap() {
        let name = entry.unwrap().file_name();
        if !kept.contains(&name) {
            let quoted = format!("{:?}", name.to_string_lossy());
            assert!(!outcome.log.contains(&quoted), "{quoted}: {}", outcome.log);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_crate_fails_the_build_with_cargos_message() {
    let missing = "no-such-crate-for-the-ladder = \"1\"\n";
    let settings = BuildSettings::default();
    let Some(outcome) = hostile("missing crate", "fn main() {}\n", missing, settings, &[]).await
    else {
        return;
    };
    assert!(!outcome.ok);
    assert_eq!(outcome.stopped, None);
    assert!(
        outcome.log.contains("no-such-crate-for-the-ladder"),
        "{}",
        outcome.log
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_source_over_the_disk_cap_is_not_built() {
    let Some(sandbox) = sandbox("build of a source over its disk cap") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut main = b"package main\nfunc main() {}\n".to_vec();
    main.extend(b"// padding\n".repeat(200_000));
    let built = source(&make::tar(&[file(b"main.go", &main)]), "go", dir.path());
    let settings = BuildSettings {
        disk_mb: 1,
        ..BuildSettings::default()
    };
    let outcome = build(&spec("go"), &built, &settings, &sandbox)
        .await
        .unwrap();
    assert!(!outcome.ok);
    assert!(
        matches!(outcome.stopped, Some(BuildStop::Disk { .. })),
        "{outcome:#?}"
    );
    assert!(outcome.log.contains("not started"), "{}", outcome.log);
}
