//! Every runtime a bot is likely written for starts and passes `referee check` under the
//! referee's system-call filter, with the sandbox and without: Python, Node.js, a JVM, Go and C
//! (the last three are the minimal bots of `tests/bots/lang/`, built here into a temporary
//! directory). The runtimes must be installed (`.ci/run` installs what is missing).

use crate::util::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Runs `referee check --game vabanque` on `command` under each sandbox mode that works here
/// and asserts that it passes, with no process left.
fn passes_in_every_mode(test: &str, command: &[String]) {
    let mut modes = vec!["none"];
    if bwrap_works(test) {
        modes.push("bwrap");
    }
    for mode in modes {
        let mut cmd = referee();
        cmd.args(["check", "--game", "vabanque", "--format", "json"])
            .args(["--sandbox", mode, "--time-limit-ms", LIMIT_MS])
            // A JVM compiling its bot on a loaded machine is slow to say hello; the limit costs
            // nothing to a bot that is not.
            .args(["--startup-limit-ms", "60000"])
            .args(command);
        let out = cmd.output().unwrap();
        assert_no_marked_survivors(&cmd);
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{command:?} ({mode}): not JSON ({e}): {}", stderr(&out)));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{command:?} ({mode}): {report:#}"
        );
        assert_eq!(report["passed"], true, "{command:?} ({mode}): {report:#}");
    }
}

/// Runs a build command, failing with what to install when its tool is missing.
fn build(mut cmd: Command, package: &str) {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("{cmd:?}: {e}: install {package} (.ci/run installs it)");
    });
    assert!(out.status.success(), "{cmd:?}: {}", stderr(&out));
}

/// A runtime's program, failing with what to install when it is missing.
fn need(program: &str, package: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|out| out.status.success());
    assert!(
        found,
        "{program} is missing: install {package} (.ci/run installs it)"
    );
}

fn bot(rel: &str) -> String {
    file(&format!("tests/bots/lang/{rel}"))
}

#[test]
fn a_python_bot_passes_the_check_under_the_filter() {
    let bot = file("sample-bots/python/vabanque_random.py");
    passes_in_every_mode(
        "a_python_bot_passes_the_check_under_the_filter",
        &["python3".into(), bot],
    );
}

#[test]
fn a_node_bot_passes_the_check_under_the_filter() {
    need("node", "nodejs");
    let bot = file("sample-bots/javascript/vabanque_random.js");
    passes_in_every_mode(
        "a_node_bot_passes_the_check_under_the_filter",
        &["node".into(), bot],
    );
}

/// The JVM takes a `flock` at start (its performance-data file) and prints a warning on stdout
/// when that fails, before the bot's hello: the filter lets `flock` succeed, doing nothing.
#[test]
fn a_jvm_bot_passes_the_check_under_the_filter() {
    need("java", "default-jdk-headless");
    passes_in_every_mode(
        "a_jvm_bot_passes_the_check_under_the_filter",
        &["java".into(), bot("Bot.java")],
    );
}

#[test]
fn a_go_bot_passes_the_check_under_the_filter() {
    let dir = temp_dir("lang-go");
    let exe = dir.join("bot");
    let mut go = Command::new("go");
    go.args(["build", "-o", exe.to_str().unwrap(), &bot("bot.go")])
        .env(
            "GOCACHE",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-cache"),
        )
        .env("GOPATH", dir.join("gopath"));
    build(go, "golang-go");
    passes_in_every_mode(
        "a_go_bot_passes_the_check_under_the_filter",
        &[exe.display().to_string()],
    );
}

#[test]
fn a_c_bot_passes_the_check_under_the_filter() {
    let dir = temp_dir("lang-c");
    let exe = dir.join("bot");
    let mut gcc = Command::new("gcc");
    gcc.args([
        "-std=c99",
        "-O2",
        "-Wall",
        "-Werror",
        "-o",
        exe.to_str().unwrap(),
    ])
    .arg(bot("bot.c"));
    build(gcc, "gcc");
    passes_in_every_mode(
        "a_c_bot_passes_the_check_under_the_filter",
        &[exe.display().to_string()],
    );
}
