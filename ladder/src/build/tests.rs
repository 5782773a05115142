//! Builds in real bubblewrap: sample bots build and pass their check; a build that never ends,
//! one that fills its disk, one that reaches for the network and one whose crate is missing
//! each fail with a log that says so. Under CI a missing bubblewrap fails the tests.

use super::*;
use crate::upload::test_archives::{self as make, file};
use referee::seat::{ResourceLimits, Sandbox};
use referee::tournament::meta::MetaBot;
use std::path::PathBuf;
use std::time::Instant;

/// The sandbox of these tests: bubblewrap, or `None` (skipped, but under CI).
fn sandbox(test: &str) -> Option<BuildSandbox> {
    match Sandbox::usable(None) {
        Ok(bwrap) => Some(BuildSandbox {
            sandbox: Sandbox::Bwrap(bwrap),
            hidden: Vec::new(),
        }),
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

fn spec(lang: &str) -> BuildSpec {
    BuildSpec {
        version: 1,
        name: "bot.v1".into(),
        lang: lang.into(),
        source: String::new(),
        game: "vabanque".into(),
        options: serde_json::json!({}),
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
fn source(upload: &[u8], lang: &str, dir: &Path) -> PathBuf {
    let unpacked =
        crate::upload::unpack(upload, lang, &BuildSettings::default(), &dir.join("u")).unwrap();
    let built = dir.join("build");
    crate::artifacts::unpack_artifact(&unpacked.source, &built, &BuildSettings::default()).unwrap();
    built
}

fn sample(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../sample-bots")
            .join(path),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_bot_and_a_go_bot_build_and_pass_their_check() {
    let Some(sandbox) = sandbox("build of sample bots") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let python = source(
        &sample("python/vabanque_random.py"),
        "python",
        &dir.path().join("py"),
    );
    let outcome = build_and_check(
        &spec("python"),
        &python,
        &BuildSettings::default(),
        &sandbox,
    )
    .await
    .unwrap();
    assert_eq!(outcome.run_command, "python3 bot.py");
    assert!(outcome.passed, "{outcome:#?}");
    let go = make::tar(&[
        file(b"main.go", &sample("go/vabanque_random.go")),
        file(b"go.mod", &sample("go/go.mod")),
    ]);
    let go = source(&go, "go", &dir.path().join("go"));
    let outcome = build_and_check(&spec("go"), &go, &BuildSettings::default(), &sandbox)
        .await
        .unwrap();
    assert!(outcome.ok && outcome.passed, "{outcome:#?}");
    assert_eq!(outcome.run_command, "./bot");
    assert!(
        outcome.log.contains("$ go build -o bot ."),
        "{}",
        outcome.log
    );
    let artifact = outcome.artifact.unwrap();
    crate::artifacts::verify(&outcome.artifact_sha256.unwrap(), &artifact).unwrap();
    let cached = dir.path().join("cache");
    crate::artifacts::unpack_artifact(&artifact, &cached, &BuildSettings::default()).unwrap();
    assert!(
        cached.join("bot").is_file(),
        "the artifact holds the built bot"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_starter_builds_offline_from_the_host_registry_and_passes_its_check() {
    let Some(sandbox) = sandbox("build of the Rust starter") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let upload = make::tar(&[
        file(b"Cargo.toml", &sample("rust-starter/Cargo.toml")),
        file(b"src/main.rs", &sample("rust-starter/src/main.rs")),
    ]);
    let built = source(&upload, "rust", dir.path());
    let outcome = build_and_check(&spec("rust"), &built, &BuildSettings::default(), &sandbox)
        .await
        .unwrap();
    assert_eq!(outcome.run_command, "target/release/random-starter");
    assert!(outcome.ok && outcome.passed, "{outcome:#?}");
    let packed = crate::artifacts::pack_dir(&built).unwrap();
    assert!(
        packed.len() < 4 << 20,
        "{} bytes: target/ is pruned",
        packed.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_java_bot_with_inner_classes_builds_into_an_artifact_a_worker_unpacks() {
    let Some(sandbox) = sandbox("build of a Java bot") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bot = String::from_utf8(sample("java/vabanque_random.java")).unwrap();
    let bot = format!(
        "{bot}\nclass Extra {{ static Runnable r = new Runnable() {{ public void run() {{}} }}; }}\n"
    );
    let upload = make::zip(&[
        ("Bot.java", bot.as_bytes()),
        ("Json.java", &sample("java/Json.java")),
    ]);
    let built = source(&upload, "java", dir.path());
    let outcome = build(&spec("java"), &built, &BuildSettings::default(), &sandbox)
        .await
        .unwrap();
    assert!(outcome.ok, "{}", outcome.log);
    assert!(built.join("build/Extra$1.class").is_file());
    let cached = dir.path().join("cache");
    crate::artifacts::unpack_artifact(
        &outcome.artifact.unwrap(),
        &cached,
        &BuildSettings::default(),
    )
    .unwrap();
    assert!(cached.join("build/Extra$1.class").is_file());
}

#[tokio::test]
async fn a_source_not_of_its_language_fails_its_build_and_no_language_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "no bot").unwrap();
    let none = BuildSandbox {
        sandbox: Sandbox::None,
        hidden: Vec::new(),
    };
    let outcome = build(
        &spec("python"),
        dir.path(),
        &BuildSettings::default(),
        &none,
    )
    .await
    .unwrap();
    assert!(!outcome.ok && outcome.artifact.is_none());
    assert!(outcome.log.contains("needs bot.py"), "{}", outcome.log);
    assert!(matches!(
        build(&spec("cobol"), dir.path(), &BuildSettings::default(), &none).await,
        Err(BuildError::Spec(_))
    ));
}

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

/// Builds the Rust crate `upload` under `settings`.
async fn build_rust(
    upload: &[u8],
    settings: &BuildSettings,
    sandbox: &BuildSandbox,
) -> BuildOutcome {
    let dir = tempfile::tempdir().unwrap();
    let built = source(upload, "rust", dir.path());
    build(&spec("rust"), &built, settings, sandbox)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_that_never_ends_is_stopped_at_its_time_cap() {
    let Some(sandbox) = sandbox("endless build") else {
        return;
    };
    let settings = BuildSettings {
        time_s: 5,
        ..BuildSettings::default()
    };
    let started = Instant::now();
    let upload = crate_with_build_script("fn main() { loop {} }\n", "");
    let outcome = build_rust(&upload, &settings, &sandbox).await;
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
    let Some(sandbox) = sandbox("disk-filling build") else {
        return;
    };
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
    let outcome = build_rust(&crate_with_build_script(fill, ""), &settings, &sandbox).await;
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
    let Some(sandbox) = sandbox("memory-hungry build") else {
        return;
    };
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
    let outcome = build_rust(&crate_with_build_script(hungry, ""), &settings, &sandbox).await;
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
    let Some(sandbox) = sandbox("networked build") else {
        return;
    };
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
    let outcome = build_rust(
        &crate_with_build_script(&reach, ""),
        &BuildSettings::default(),
        &sandbox,
    )
    .await;
    assert!(!outcome.ok, "{}", outcome.log);
    assert!(
        outcome.log.contains("the connection failed"),
        "{}",
        outcome.log
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_sees_neither_the_hidden_places_nor_the_home_but_its_toolchains() {
    let Some(mut sandbox) = sandbox("build that looks around") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("store");
    std::fs::create_dir(&secret).unwrap();
    std::fs::write(secret.join("other-owner.tar.gz"), "secret source").unwrap();
    sandbox.hidden.push(secret.clone());
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let look = format!(
        r#"
fn main() {{
    let secret = std::fs::read_to_string("{}");
    let home: Vec<String> = std::fs::read_dir("{}")
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    panic!("secret: {{secret:?}}; home: {{home:?}}");
}}
"#,
        secret.join("other-owner.tar.gz").display(),
        home.display()
    );
    let outcome = build_rust(
        &crate_with_build_script(&look, ""),
        &BuildSettings::default(),
        &sandbox,
    )
    .await;
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
    let Some(sandbox) = sandbox("build of a missing crate") else {
        return;
    };
    let upload =
        crate_with_build_script("fn main() {}\n", "no-such-crate-for-the-ladder = \"1\"\n");
    let outcome = build_rust(&upload, &BuildSettings::default(), &sandbox).await;
    assert!(!outcome.ok);
    assert_eq!(outcome.stopped, None);
    assert!(
        outcome.log.contains("no-such-crate-for-the-ladder"),
        "{}",
        outcome.log
    );
}
