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

/// /tmp in the sandbox (docs/security.md#tmp-and-where-a-bot-can-write): a tmpfs of the bot's
/// own, capped at `file_mb`, where every write succeeds and none reaches the host; of the host's
/// /tmp, the bot sees only the paths its command names and the referee's directory, read-only,
/// and its `workdir`, read-write.
#[test]
fn a_bot_under_tmp_sees_what_its_command_names_and_writes_to_a_private_tmp() {
    if !bwrap_works("a_bot_under_tmp_sees_what_its_command_names_and_writes_to_a_private_tmp") {
        return;
    }
    // The host's /tmp itself, whatever TMPDIR says: the sandbox's private one is at /tmp.
    let host = Path::new("/tmp").join(format!("referee-tmp-probe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&host);
    let bot_dir = host.join("bot");
    let work = host.join("work");
    std::fs::create_dir_all(&bot_dir).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    writable_by_bots(&work);
    std::fs::copy(
        root().join("tests/bots/tmp_prober.py"),
        bot_dir.join("tmp_prober.py"),
    )
    .unwrap();
    std::fs::write(bot_dir.join("beside.txt"), "a file beside the bot\n").unwrap();
    let out = temp_dir("tmp-probe");
    let config = out.join("match.toml");
    std::fs::write(
        &config,
        format!(
            "[[bot]]\nname = \"p\"\ncommand = [\"python3\", {:?}]\nworkdir = {:?}\n\
             [[bot]]\nname = \"r1\"\ncommand = \"builtin:random\"\n\
             [[bot]]\nname = \"r2\"\ncommand = \"builtin:random\"\n",
            bot_dir.join("tmp_prober.py").display().to_string(),
            work.display().to_string()
        ),
    )
    .unwrap();
    // What the bot `p=COMMAND` (or the config's, when COMMAND is empty) saw, run from `cwd`.
    let probe = |cwd: &Path, command: &str| -> Value {
        let stderr_dir = out.join("stderr");
        let _ = std::fs::remove_dir_all(&stderr_dir);
        let mut cmd = referee();
        cmd.current_dir(cwd).args(["match", "--game", "vabanque"]);
        match command {
            "" => cmd.arg(&config),
            command => cmd.args([
                "--bot",
                &format!("p={command}"),
                "--bot",
                "r1=builtin:random",
                "--bot",
                "r2=builtin:random",
            ]),
        };
        cmd.args([
            "--sandbox",
            "bwrap",
            "--seed",
            "1",
            "--time-limit-ms",
            LIMIT_MS,
            "--file-mb",
            "8",
            "--stderr-dir",
            stderr_dir.to_str().unwrap(),
        ]);
        let done = cmd.output().unwrap();
        assert!(done.status.success(), "{}", stderr(&done));
        assert_no_marked_survivors(&cmd);
        let text = std::fs::read_to_string(stderr_dir.join("p.stderr")).unwrap();
        let line = text.lines().find(|l| l.starts_with('{'));
        serde_json::from_str(line.unwrap_or_else(|| panic!("no report in {text:?}"))).unwrap()
    };
    let listed = |names: &[&str]| serde_json::json!(names);

    // Named by its path from elsewhere: that file alone, read-only; the directories above it are
    // the private /tmp's, where a write succeeds and is lost.
    let named = format!("python3 {}", bot_dir.join("tmp_prober.py").display());
    let seen = probe(&root(), &named);
    assert_eq!(seen["sees_itself"], true, "{seen}");
    assert_eq!(seen["beside"], listed(&["tmp_prober.py"]), "{seen}");
    assert_eq!(seen["write_tmp"], true, "{seen}");
    assert_eq!(seen["write_beside"], true, "{seen}");
    assert_eq!(seen["write_cwd"], false, "the referee's directory: {seen}");
    assert_eq!(seen["tmp_mib"], 8, "capped at file_mb: {seen}");
    assert_eq!(seen["home"], "/tmp", "{seen}");
    assert_eq!(seen["tmpdir"], "/tmp", "{seen}");
    assert!(!bot_dir.join("written-beside.txt").exists());
    assert!(!Path::new("/tmp/tmp-prober-scratch").exists());

    // Run from its directory: the whole directory, read-only.
    let seen = probe(&bot_dir, "python3 tmp_prober.py");
    assert_eq!(
        seen["beside"],
        listed(&["beside.txt", "tmp_prober.py"]),
        "{seen}"
    );
    assert_eq!(seen["write_beside"], false, "{seen}");
    assert_eq!(seen["write_cwd"], false, "{seen}");
    assert_eq!(seen["write_tmp"], true, "{seen}");

    // With a workdir under /tmp: it runs there, and what it writes there is on the host.
    let seen = probe(&root(), "");
    assert_eq!(seen["write_cwd"], true, "{seen}");
    assert_eq!(seen["home"], work.display().to_string(), "{seen}");
    assert_eq!(seen["beside"], listed(&["tmp_prober.py"]), "{seen}");
    assert!(work.join("written-in-cwd.txt").exists());
    assert!(!bot_dir.join("written-beside.txt").exists());
    std::fs::remove_dir_all(&host).unwrap();
}
