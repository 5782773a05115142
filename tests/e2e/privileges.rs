//! Bots never run with the referee's privileges: as root, each bot process runs as a uid of its
//! own, without capabilities and with `no_new_privs`, in both sandbox modes. A signaller and a
//! ptracer that attack the referee and the other bots fail at every attempt, the honest bots'
//! results are those of the same match without them, and no process is left; a bot whose files
//! are out of reach of such a user runs as root after a warning, or, with `--bot-uids` given,
//! does not start (docs/security.md#bot-users).
//!
//! The bots are copied into a directory that every user can reach (under /var/tmp), so that these
//! tests give bots uids of their own wherever the checkout is (under /root, mode 700, its bots
//! would run as root). The attackers are run with `--bot-uids` given, so that a bot that could
//! not run as a uid of its own would not start rather than attack as root.

use crate::util::*;
use referee::seat::users::reach;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The range the tests ask for: the default one.
const UIDS: &str = "60000-60999";
/// The bots the tests copy, with the modules they import.
const BOTS: [&str; 7] = [
    "botlib.py",
    "intruder.py",
    "scripted.py",
    "signaller.py",
    "ptracer.py",
    "identity.py",
    "diary.py",
];

/// Whether these tests can run here: as root, with a Python and a directory for the bots that
/// every user can reach; says so visibly when not. Returns the Python and the directory.
fn can_run(test: &str) -> Option<(PathBuf, PathBuf)> {
    // SAFETY: geteuid only reads the caller's id.
    if unsafe { libc::geteuid() } != 0 {
        skipped(
            test,
            "bots get uids of their own only when the referee runs as root",
        );
        return None;
    }
    // A group no file has: what is found must be within reach of any user.
    let anyone = u32::MAX - 1;
    let Some(python) = reach::runnable_on_path("python3", anyone) else {
        skipped(test, "no python3 on PATH that every user can run");
        return None;
    };
    // Not /tmp, which is the bot's own in bubblewrap.
    let base = [
        Path::new("/var/tmp"),
        Path::new(env!("CARGO_TARGET_TMPDIR")),
    ]
    .into_iter()
    .find(|dir| dir.is_dir() && reach::check(dir, anyone, reach::Access::Search).is_ok());
    let Some(base) = base else {
        skipped(
            test,
            "neither /var/tmp nor the target directory is reachable by every user",
        );
        return None;
    };
    Some((python, base.to_path_buf()))
}

/// A fresh directory under `base` that every user can reach, holding the test bots in `bots/`.
fn world_dir(base: &Path, name: &str) -> PathBuf {
    let dir = base.join(format!(
        "referee-e2e-{}-privileges-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bots")).unwrap();
    for path in [dir.clone(), dir.join("bots")] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for bot in BOTS {
        let to = dir.join("bots").join(bot);
        std::fs::copy(root().join("tests/bots").join(bot), &to).unwrap();
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::write(dir.join("empty.json"), "[]").unwrap();
    dir
}

/// The command line of test bot `script` (in `dir/bots` unless given a path).
fn bot(python: &Path, dir: &Path, script: &str) -> Vec<String> {
    let mut command = vec![
        python.display().to_string(),
        dir.join("bots").join(script).display().to_string(),
    ];
    if script == "scripted.py" {
        command.push(dir.join("empty.json").display().to_string());
    }
    command
}

/// A match's outcome: its record, the referee's stderr and pid.
struct Played {
    record: Value,
    stderr: String,
    referee: u32,
}

/// Plays one vabanque match of `bots` (name, command), each in its own working directory
/// `dir/work/NAME`, under `sandbox` with `extra` flags; checks that it ended well and left no
/// process behind.
fn play(dir: &Path, bots: &[(&str, Vec<String>)], sandbox: &str, extra: &[&str]) -> Played {
    // Fresh working directories: what an earlier match's bots wrote is gone.
    let _ = std::fs::remove_dir_all(dir.join("work"));
    let config = vabanque_file(bots, |name| dir.join("work").join(name));
    let path = dir.join("match.toml");
    std::fs::write(&path, config).unwrap();
    let mut cmd = referee();
    cmd.args(["match", path.to_str().unwrap(), "--sandbox", sandbox])
        .args(["--format", "json"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = cmd.spawn().unwrap();
    let referee = child.id();
    let out = child.wait_with_output().unwrap();
    assert_no_marked_survivors(&cmd);
    assert!(out.status.success(), "{sandbox}: {}", stderr(&out));
    Played {
        record: serde_json::from_slice(&out.stdout).unwrap(),
        stderr: stderr(&out),
        referee,
    }
}

/// The report bot `name` left in its working directory.
fn report(dir: &Path, name: &str, file: &str) -> Value {
    let path = dir.join("work").join(name).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// Checks that the bot of `report` ran as a uid and group of the range, the same real,
/// effective, saved and file-system ids, with no supplementary group, no capability,
/// `no_new_privs` and umask 007; returns its uid and gid.
fn assert_unprivileged(report: &Value, what: &str) -> (u64, u64) {
    let ids = |key: &str| -> Vec<u64> {
        report[key]
            .as_array()
            .unwrap_or_else(|| panic!("{what}: no {key} in {report}"))
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect()
    };
    let (uids, gids) = (ids("uid"), ids("gid"));
    for (kind, all) in [("uid", &uids), ("gid", &gids)] {
        assert!(
            all.iter().all(|&id| id == all[0]),
            "{what}: {kind}s {all:?}"
        );
        assert!(
            (60_000..=60_999).contains(&all[0]),
            "{what}: {kind} {all:?}"
        );
    }
    assert_eq!(report["groups"], serde_json::json!([]), "{what}: {report}");
    for (cap, value) in report["caps"].as_object().unwrap() {
        assert_eq!(value, "0000000000000000", "{what}: {cap} in {report}");
    }
    assert_eq!(report["caps"].as_object().unwrap().len(), 5, "{what}");
    assert_eq!(report["no_new_privs"], "1", "{what}: {report}");
    assert_eq!(report["umask"], "0007", "{what}: {report}");
    (uids[0], gids[0])
}

/// Checks what an attacker saw and that each of its attempts failed: without a sandbox, its
/// parent is the referee and it sees the `others` other bots, and every attempt is refused for
/// want of permission; in bubblewrap, its parent is
/// its own sandbox's and it sees no other process at all.
fn assert_every_attempt_failed(report: &Value, sandbox: &str, referee: u32, others: usize) {
    let attempts = report["attempts"].as_object().unwrap();
    if sandbox == "none" {
        assert_eq!(report["parent"], referee, "{report}");
        assert_eq!(report["parent_comm"], "referee", "{report}");
        assert_eq!(
            report["others"].as_array().unwrap().len(),
            others,
            "{report}"
        );
    } else {
        assert_eq!(report["parent_comm"], "bwrap", "{report}");
        assert_eq!(report["others"], serde_json::json!([]), "{report}");
    }
    assert!(!attempts.is_empty() || sandbox != "none", "{report}");
    for (attempt, result) in attempts {
        // kill(-1) fails only when there is no other process at all (as in bubblewrap): the
        // kernel does not say whether it signalled any. That it did not is the honest bots'
        // results, compared with a match without the attacker.
        let expected: &[&str] = if attempt.starts_with("kill(-1") {
            &["ok", "ESRCH"]
        } else {
            &["EPERM", "EACCES"]
        };
        assert!(
            expected.iter().any(|e| result == e),
            "{sandbox}: {attempt} gave {result}, not one of {expected:?}: {report}"
        );
    }
}

/// The sandbox modes to test in: none, and bubblewrap where it works here.
fn sandboxes(test: &str) -> Vec<&'static str> {
    let mut modes = vec!["none"];
    if bwrap_works(test) {
        modes.push("bwrap");
    }
    modes
}

/// The scores and ranks of a match, and its faults: what an attacker must not change for the
/// honest bots when it plays as they do.
fn outcome(record: &Value) -> Value {
    serde_json::json!([record["scores"], record["ranks"], record["faults"]])
}

/// Plays the match of `seats` (name, script in `dir/bots`) under `sandbox` with the uids
/// required, and the same match with an honest bot (`scripted.py`, which plays legal[0] as the
/// attackers do) in every seat; checks that the referee said bots run as uids of their own and
/// that the attackers changed nothing for the honest bots: the same scores, ranks and faults.
/// Returns the match with the attackers.
fn attacked(python: &Path, dir: &Path, sandbox: &str, seats: &[(&str, &str)]) -> Played {
    let seated = |honest: bool| -> Vec<(&str, Vec<String>)> {
        seats
            .iter()
            .map(|&(name, script)| {
                let script = if honest { "scripted.py" } else { script };
                (name, bot(python, dir, script))
            })
            .collect()
    };
    let control = play(dir, &seated(true), sandbox, &["--bot-uids", UIDS]);
    let attacked = play(dir, &seated(false), sandbox, &["--bot-uids", UIDS]);
    let line = format!(
        "referee: bots run as uids {UIDS} (one per bot process), without capabilities, no_new_privs"
    );
    assert!(attacked.stderr.contains(&line), "{}", attacked.stderr);
    assert_eq!(
        outcome(&attacked.record),
        outcome(&control.record),
        "{sandbox}"
    );
    attacked
}

#[test]
fn as_root_a_signaller_can_signal_neither_the_referee_nor_another_bot() {
    let test = "as_root_a_signaller_can_signal_neither_the_referee_nor_another_bot";
    let Some((python, base)) = can_run(test) else {
        return;
    };
    for sandbox in sandboxes(test) {
        let dir = world_dir(&base, &format!("signaller-{sandbox}"));
        let seats = [
            ("signaller", "signaller.py"),
            ("a", "scripted.py"),
            ("b", "scripted.py"),
        ];
        let played = attacked(&python, &dir, sandbox, &seats);
        assert_eq!(played.record["faults"], serde_json::json!([]), "{sandbox}");
        let seen = report(&dir, "signaller", "signaller-report.json");
        assert_unprivileged(&seen, sandbox);
        assert_every_attempt_failed(&seen, sandbox, played.referee, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn as_root_a_ptracer_can_neither_trace_nor_read_the_referee_or_another_bot_nor_leave_its_group() {
    let test = "as_root_a_ptracer_can_neither_trace_nor_read_the_referee_or_another_bot_nor_leave_its_group";
    let Some((python, base)) = can_run(test) else {
        return;
    };
    for sandbox in sandboxes(test) {
        let dir = world_dir(&base, &format!("ptracer-{sandbox}"));
        // Two attackers of the same program, each also the other's victim.
        let seats = [
            ("p1", "ptracer.py"),
            ("p2", "ptracer.py"),
            ("honest", "scripted.py"),
        ];
        let played = attacked(&python, &dir, sandbox, &seats);
        let mut users = Vec::new();
        for name in ["p1", "p2"] {
            let seen = report(&dir, name, "ptracer-report.json");
            users.push(assert_unprivileged(&seen, &format!("{sandbox} {name}")));
            assert_every_attempt_failed(&seen, sandbox, played.referee, 2);
            let attempts = seen["attempts"].as_object().unwrap();
            if sandbox == "none" {
                // The referee and the two other bots, five ways each, and the control groups.
                let traced = attempts.keys().filter(|k| !k.starts_with("join ")).count();
                assert_eq!(traced, 15, "{seen}");
                assert!(
                    attempts.keys().any(|k| k.starts_with("join ")) || !cgroups_available(),
                    "{seen}"
                );
            }
        }
        assert_ne!(users[0].0, users[1].0, "{sandbox}: one uid per bot process");
        assert_ne!(users[0].1, users[1].1, "{sandbox}: one group per bot");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_bot_out_of_reach_of_a_uid_of_its_own_runs_as_root_after_a_warning_or_with_uids_required_not_at_all()
 {
    let test = "a_bot_out_of_reach_of_a_uid_of_its_own_runs_as_root_after_a_warning_or_with_uids_required_not_at_all";
    let Some((python, base)) = can_run(test) else {
        return;
    };
    let dir = world_dir(&base, "reach");
    // The same bot in a directory only root may enter.
    let locked = dir.join("locked");
    std::fs::create_dir(&locked).unwrap();
    for module in ["identity.py", "botlib.py", "intruder.py"] {
        std::fs::copy(dir.join("bots").join(module), locked.join(module)).unwrap();
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o700)).unwrap();
    let script = locked.join("identity.py");
    let bots = [
        (
            "locked",
            vec![python.display().to_string(), script.display().to_string()],
        ),
        ("free", bot(&python, &dir, "identity.py")),
        ("honest", bot(&python, &dir, "scripted.py")),
    ];

    // The warning in full (`--verbose`; by default one short line, rerun_trust.rs).
    let fallback = play(&dir, &bots, "none", &["--verbose"]);
    let warning = format!(
        "referee: warning: bot 'locked' runs as root, not as a uid of its own: a uid of its own cannot reach {}: {} is drwx------ (700, owner uid 0, gid 0); fix: chmod o+x {}, or move the bot where every user can reach it; without a sandbox a bot has every capability: it can signal, ptrace and read the memory of the referee and of every bot, move itself out of its control group, and read and change every file of the machine\n",
        script.display(),
        locked.display(),
        locked.display()
    );
    assert!(fallback.stderr.contains(&warning), "{}", fallback.stderr);
    let locked_report = report(&dir, "locked", "identity-report.json");
    assert_eq!(locked_report["uid"], serde_json::json!([0, 0, 0, 0]));
    assert_unprivileged(&report(&dir, "free", "identity-report.json"), "free");
    assert_eq!(fallback.record["faults"], serde_json::json!([]));

    let required = play(&dir, &bots, "none", &["--bot-uids", UIDS]);
    assert!(
        !required.stderr.contains("runs as root"),
        "{}",
        required.stderr
    );
    let faults = required.record["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0]["seat"], 0);
    assert_eq!(faults[0]["fault"], "spawn_failed");
    let message = faults[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "the bot cannot run as a uid of its own (--bot-uids {UIDS}): a uid of its own cannot reach {}: {} is drwx------",
            script.display(),
            locked.display()
        )),
        "{message}"
    );
    assert!(!dir.join("work/locked/identity-report.json").exists());
    assert_unprivileged(&report(&dir, "free", "identity-report.json"), "free");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_processes_of_a_bot_each_a_uid_of_its_own_share_its_workdir() {
    let test = "the_processes_of_a_bot_each_a_uid_of_its_own_share_its_workdir";
    let Some((python, base)) = can_run(test) else {
        return;
    };
    let dir = world_dir(&base, "workdir");
    let work = dir.join("shared");
    std::fs::create_dir(&work).unwrap();
    // A file of the bot's author, as root made it.
    let author = work.join("author.txt");
    std::fs::write(&author, "author\n").unwrap();
    std::fs::set_permissions(&author, std::fs::Permissions::from_mode(0o644)).unwrap();
    // Two entries of one bot in one working directory: two processes, one group.
    let diary = bot(&python, &dir, "diary.py");
    let mut config = vabanque_file(&[("honest", bot(&python, &dir, "scripted.py"))], |name| {
        dir.join("work").join(name)
    });
    for name in ["diary-1", "diary-2"] {
        config += &format!(
            "[[bot]]\nname = {name:?}\ncommand = {diary:?}\nworkdir = {:?}\n",
            work.display().to_string()
        );
    }
    let path = dir.join("match.toml");
    std::fs::write(&path, config).unwrap();
    let mut cmd = referee();
    cmd.args(["match", path.to_str().unwrap(), "--sandbox", "none"])
        .args(["--bot-uids", UIDS, "--format", "json"]);
    let out = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["faults"], serde_json::json!([]));

    let uids = |file: &Path| -> Vec<u64> {
        std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter_map(|l| l.parse().ok())
            .collect()
    };
    let written = uids(&work.join("diary.txt"));
    assert_eq!(written.len(), 2, "{written:?}");
    assert_ne!(written[0], written[1], "one uid per process");
    assert!(written.iter().all(|u| (60_000..=60_999).contains(u)));
    let mut appended = uids(&author);
    appended.sort();
    let mut both = written.clone();
    both.sort();
    assert_eq!(appended, both, "each process wrote the author's file too");
    use std::os::unix::fs::MetadataExt;
    // The bot's group wrote it (set-group-ID directory); at the end of the run the directory
    // itself went back to the referee's group, for no other bot to enter.
    let diary_file = std::fs::metadata(work.join("diary.txt")).unwrap();
    assert!(
        (60_000..=60_999).contains(&diary_file.gid()),
        "the bot's group"
    );
    let top = std::fs::metadata(&work).unwrap();
    assert_eq!((top.gid(), top.mode() & 0o7777), (0, 0o2770), "given back");
    assert_eq!(diary_file.mode() & 0o777, 0o660, "umask 007");
    std::fs::remove_dir_all(&dir).unwrap();
}
