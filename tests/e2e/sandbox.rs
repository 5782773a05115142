//! The sandbox keeps hidden information hidden: a spy bot that reads its opponents' pipes
//! through /proc/PID/fd/0 steals their requests without a sandbox and sees nothing in one; a
//! probing bot finds a read-only file system, no network, no other process, only its own three
//! descriptors, and the referee's output hidden.

use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// Plays one match of a bot (`script` under tests/bots with `args`, in its own working
/// directory `dir/work`) against two `opponent` bots (scripts under tests/bots), with
/// `sandbox` and a decision limit of `limit_ms`; returns the log.
fn match_with(
    dir: &Path,
    script: &str,
    args: &[&str],
    opponent: &str,
    (sandbox, limit_ms): (&str, &str),
) -> Vec<Value> {
    match_in(
        dir,
        &dir.join("work"),
        script,
        args,
        opponent,
        (sandbox, limit_ms),
        &[],
    )
}

/// [`match_with`], with the bot's working directory `work` and the `extra` flags.
fn match_in(
    dir: &Path,
    work: &Path,
    script: &str,
    args: &[&str],
    opponent: &str,
    (sandbox, limit_ms): (&str, &str),
    extra: &[&str],
) -> Vec<Value> {
    std::fs::create_dir_all(work).unwrap();
    let mut command = vec!["python3".to_string(), file(&format!("tests/bots/{script}"))];
    command.extend(args.iter().map(|a| a.to_string()));
    let random = file(opponent);
    let config = format!(
        "game = \"vabanque\"\nseed = 7\ntime_limit_ms = {limit_ms}\nfile_mb = 4\n\
         [[bot]]\nname = \"probe\"\ncommand = {command:?}\nworkdir = {work:?}\n\
         [[bot]]\nname = \"a\"\ncommand = [\"python3\", {random:?}]\n\
         [[bot]]\nname = \"b\"\ncommand = [\"python3\", {random:?}]\n",
        work = work.display().to_string(),
    );
    let path = dir.join("match.toml");
    std::fs::write(&path, config).unwrap();
    let log = dir.join("log.jsonl");
    let mut cmd = referee();
    cmd.args([
        "match",
        path.to_str().unwrap(),
        "--sandbox",
        sandbox,
        "--log",
        log.to_str().unwrap(),
    ])
    .args(extra);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_no_marked_survivors(&cmd);
    json_lines(&log)
}

fn report(work: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(work.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_spy_reads_nothing_in_the_sandbox_and_steals_requests_without_it() {
    let test = "spy";
    if !bwrap_works(test) {
        return;
    }
    let dir = temp_dir("spy-bwrap");
    // The victims read their input 20 ms late, so that a spy that can open their pipes gets
    // there first (all the assertions below need is one theft of their 52 requests). A stolen
    // request the spy does not answer in the victim's name times out: a short limit, which the
    // victims' own answers meet with a wide margin.
    let victim = "tests/bots/lazy_reader.py";
    let log = match_with(&dir, "spy.py", &[], victim, ("bwrap", SHORT_LIMIT_MS));
    let seen = report(&dir.join("work"), "spy-report.json");
    assert_eq!(seen["siblings"], 0, "{seen}");
    assert_eq!(seen["bytes"], 0, "{seen}");
    let victims_faults = log
        .iter()
        .filter(|r| r["type"] == "fault" && r["seat"] != 0)
        .count();
    assert_eq!(victims_faults, 0, "the victims were not disturbed");

    // Without a sandbox, and with every bot the referee's user, the same bot opens its
    // opponents' stdin, steals their requests (their views, hands included) and answers them in
    // their names through their stdout — which is why the sandbox is the default, and why as
    // root each bot runs as a uid of its own (docs/security.md; tests/e2e/privileges.rs).
    let dir = temp_dir("spy-none");
    let log = match_in(
        &dir,
        &dir.join("work"),
        "spy.py",
        &[],
        victim,
        ("none", SHORT_LIMIT_MS),
        &["--bot-uids", "off"],
    );
    let stolen = report(&dir.join("work"), "spy-report.json");
    assert_eq!(stolen["siblings"], 2, "{stolen}");
    assert!(stolen["bytes"].as_u64().unwrap() > 0, "{stolen}");
    let requests = stolen["requests"].as_u64().unwrap();
    assert!(requests > 0, "{stolen}");
    assert!(stolen["forged"].as_u64().unwrap() > 0, "{stolen}");
    // A victim never sees a stolen request, so each one ends as a forged reply accepted in its
    // name or as a substituted decision; fewer substitutions than thefts means forgeries passed.
    let substituted = log
        .iter()
        .filter(|r| r["type"] == "action" && r["seat"] != 0 && r["substituted"] == true)
        .count() as u64;
    assert!(
        substituted < requests,
        "{substituted} substituted of {requests} stolen: the forged replies were taken as the victims'"
    );
}

#[test]
fn a_sandboxed_bot_sees_no_process_no_network_no_output_and_writes_only_its_directory() {
    let test = "probe";
    if !bwrap_works(test) {
        return;
    }
    let dir = temp_dir("probe");
    let outside = temp_dir("probe-outside");
    let hidden = dir.join("log.jsonl");
    let log = match_with(
        &dir,
        "prober.py",
        &[outside.to_str().unwrap(), dir.to_str().unwrap()],
        "sample-bots/python/vabanque_random.py",
        ("bwrap", LIMIT_MS),
    );
    assert!(log.iter().all(|r| r["type"] != "fault"), "{log:?}");
    let seen = report(&dir.join("work"), "probe-report.json");
    assert_eq!(seen["fds"], serde_json::json!([0, 1, 2]), "{seen}");
    assert!(
        seen["pids"].as_u64().unwrap() <= 3,
        "its own namespace: {seen}"
    );
    assert_eq!(seen["write_cwd"], true, "{seen}");
    assert_eq!(seen["write_dir"], false, "{seen}");
    assert_eq!(seen["network"], false, "{seen}");
    assert_eq!(
        seen["parent"], 1,
        "the referee is not in its namespace: {seen}"
    );
    // The directory holding the match log is visible, but the log itself is not (it holds
    // every hand): it is replaced by an empty file.
    let listed = seen["read_dir"].as_array().unwrap();
    assert!(listed.iter().any(|e| e == "log.jsonl"), "{seen}");
    assert_eq!(seen["log_bytes"], 0, "{seen}");
    assert_eq!(
        seen["config_bytes"], 0,
        "the config (with the seed) is hidden too: {seen}"
    );
    assert_eq!(seen["write_dev_shm_past_cap"], false, "{seen}");
    assert_eq!(seen["write_run"], false, "{seen}");
    assert!(std::fs::metadata(&hidden).unwrap().len() > 0);

    // A bot whose working directory holds the log and the config sees neither.
    let dir = temp_dir("probe-workdir-holds-log");
    match_in(
        &dir,
        &dir,
        "prober.py",
        &[outside.to_str().unwrap(), dir.to_str().unwrap()],
        "sample-bots/python/vabanque_random.py",
        ("bwrap", LIMIT_MS),
        &[],
    );
    let seen = report(&dir, "probe-report.json");
    assert_eq!(seen["write_cwd"], true, "{seen}");
    assert_eq!(seen["log_bytes"], 0, "{seen}");
    assert_eq!(seen["config_bytes"], 0, "{seen}");

    // Without the sandbox too, a bot inherits no descriptor but its own three.
    let dir = temp_dir("probe-none");
    match_with(
        &dir,
        "prober.py",
        &[outside.to_str().unwrap(), dir.to_str().unwrap()],
        "sample-bots/python/vabanque_random.py",
        ("none", LIMIT_MS),
    );
    let seen = report(&dir.join("work"), "probe-report.json");
    assert_eq!(seen["fds"], serde_json::json!([0, 1, 2]), "{seen}");
}

/// A bot named by a relative path that runs through a symbolic link into /tmp (a build
/// directory there, say) is still found under the sandbox's private /tmp.
#[test]
fn a_bot_reached_through_a_link_into_tmp_runs_in_the_sandbox() {
    if !bwrap_works("a_bot_reached_through_a_link_into_tmp_runs_in_the_sandbox") {
        return;
    }
    let real = std::env::temp_dir().join(format!("referee-link-{}", std::process::id()));
    std::fs::create_dir_all(&real).unwrap();
    std::fs::copy(
        root().join("sample-bots/python/vabanque_random.py"),
        real.join("bot.py"),
    )
    .unwrap();
    let dir = temp_dir("link-into-tmp");
    let link = dir.join("build");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = referee()
        .current_dir(&dir)
        .args([
            "match",
            "--game",
            "vabanque",
            "--sandbox",
            "bwrap",
            "--seed",
            "3",
            "--format",
            "json",
            "--time-limit-ms",
            LIMIT_MS,
            "--bot",
            "linked=python3 build/bot.py",
            "--bot",
            "r1=builtin:random",
            "--bot",
            "r2=builtin:random",
        ])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&real).unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["faults"], serde_json::json!([]), "{record}");
}
