//! Sample bots, and a source that is not of its language.

use super::*;
use crate::upload::test_archives::{self as make, file};
use referee::seat::Sandbox;

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
    let artifact = outcome.artifact.clone().unwrap();
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
