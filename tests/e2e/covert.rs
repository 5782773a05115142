//! Covert channels between bots: two colluders that pass a secret over file locks learn nothing
//! under the referee's system-call filter, in both sandbox modes (the same pair, run without the
//! referee, passes it whole); and a bot that reads other bots' control groups through `/sys`, or
//! the locks of `/proc/locks`, sees nothing in the sandbox (docs/security.md).

use crate::util::*;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The errno of a denied system call (`referee::seat::seccomp::DENIED_ERRNO`).
const EPERM: u64 = 1;

/// The directory whose files carry the bits: read-only and in every sandbox.
fn carriers() -> PathBuf {
    let zoneinfo = Path::new("/usr/share/zoneinfo");
    assert!(
        zoneinfo.is_dir(),
        "/usr/share/zoneinfo is missing: install tzdata"
    );
    zoneinfo.to_path_buf()
}

/// A 32-bit secret with bits set and clear, different in every run.
fn secret() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    u64::from((nanos ^ std::process::id().rotate_left(16)) | 0x8000_0001) & 0xffff_fff7
}

fn report(work: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(work.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// Plays one match of the three bots `(name, script and arguments)`, each in its own working
/// directory `dir/NAME`, under `sandbox`; checks that no process is left; returns the log.
fn play(dir: &Path, bots: &[(&str, Vec<String>)], sandbox: &str) -> Vec<Value> {
    let config = vabanque_file(bots, |name| dir.join(name));
    let path = dir.join("match.toml");
    std::fs::write(&path, config).unwrap();
    let log = dir.join("log.jsonl");
    let mut cmd = referee();
    cmd.args(["match", path.to_str().unwrap(), "--sandbox", sandbox])
        .args(["--log", log.to_str().unwrap()]);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_no_marked_survivors(&cmd);
    json_lines(&log)
}

fn python(script: &str, args: &[String]) -> Vec<String> {
    let mut command = vec!["python3".to_string(), file(&format!("tests/bots/{script}"))];
    command.extend(args.iter().cloned());
    command
}

/// The colluders, run as plain processes without the referee: the receiver decodes the
/// secret by each kind of lock. What the filter takes away.
fn colluders_without_the_referee(dir: &Path, carriers: &Path, secret: u64) -> Value {
    let (sender_dir, receiver_dir) = (dir.join("sender"), dir.join("receiver"));
    std::fs::create_dir_all(&sender_dir).unwrap();
    std::fs::create_dir_all(&receiver_dir).unwrap();
    let mut sender = Command::new("python3")
        .arg(file("tests/bots/lock_sender.py"))
        .args([carriers.to_str().unwrap(), &secret.to_string()])
        .current_dir(&sender_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = sender.stdin.take().unwrap();
    writeln!(input, "{}", json!({"type": "hello", "protocol": 1})).unwrap();
    // Its locks are taken once it has answered hello.
    let mut hello = String::new();
    BufReader::new(sender.stdout.take().unwrap())
        .read_line(&mut hello)
        .unwrap();
    assert!(hello.contains("lock-sender"), "{hello}");
    let request = json!({"type": "request", "id": 0, "legal": [{}]});
    let out = Command::new("python3")
        .arg(file("tests/bots/lock_receiver.py"))
        .arg(carriers)
        .current_dir(&receiver_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut receiver| {
            writeln!(receiver.stdin.take().unwrap(), "{request}")?;
            receiver.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    drop(input);
    assert!(sender.wait().unwrap().success());
    report(&receiver_dir, "receiver-report.json")
}

#[test]
fn colluders_over_file_locks_learn_nothing_under_the_filter() {
    let carriers = carriers();
    let secret = secret();
    let bits = u64::from(secret.count_ones());

    // Without the referee the channel works, by every kind of lock.
    let control = colluders_without_the_referee(&temp_dir("locks-control"), &carriers, secret);
    for kind in ["flock", "posix", "ofd"] {
        assert_eq!(control["decoded"][kind], secret, "{kind}: {control}");
    }
    assert_eq!(control["inotify"], "ok", "{control}");

    let mut modes = vec!["none"];
    if bwrap_works("colluders_over_file_locks_learn_nothing_under_the_filter") {
        modes.push("bwrap");
    }
    for mode in modes {
        let dir = temp_dir(&format!("locks-{mode}"));
        let where_ = carriers.display().to_string();
        let bots = [
            (
                "sender",
                python("lock_sender.py", &[where_.clone(), secret.to_string()]),
            ),
            ("receiver", python("lock_receiver.py", &[where_])),
            (
                "random",
                vec![
                    "python3".to_string(),
                    file("sample-bots/python/vabanque_random.py"),
                ],
            ),
        ];
        let log = play(&dir, &bots, mode);
        assert!(log.iter().all(|r| r["type"] != "fault"), "{mode}: {log:?}");

        // The sender's record locks and leases were refused; its flocks took nothing.
        let sent = report(&dir.join("sender"), "sender-report.json");
        assert_eq!(sent["files"], 32, "{mode}: {sent}");
        for kind in ["posix", "ofd", "lease"] {
            assert_eq!(sent["taken"][kind], 0, "{mode} {kind}: {sent}");
            let errors = sent["errors"][kind].as_array().unwrap();
            assert_eq!(errors.len() as u64, bits, "{mode} {kind}: {sent}");
            assert!(errors.iter().all(|e| e == EPERM), "{mode} {kind}: {sent}");
        }

        // The receiver, probing at each of its requests while the sender held what it could,
        // learned nothing: every flock was free, every question about record locks refused,
        // and it could not watch a file.
        let got = report(&dir.join("receiver"), "receiver-report.json");
        assert!(got["probes"].as_u64().unwrap() > 0, "{mode}: {got}");
        assert_eq!(got["decoded"]["flock"], 0, "{mode}: {got}");
        for kind in ["posix", "ofd"] {
            assert_eq!(got["decoded"][kind], Value::Null, "{mode} {kind}: {got}");
            assert_eq!(got["errors"][kind], json!([EPERM]), "{mode} {kind}: {got}");
        }
        for kind in ["flock", "posix", "ofd"] {
            assert_eq!(got["held"][kind], 0, "{mode} {kind}: {got}");
        }
        assert_eq!(got["inotify"], EPERM.to_string(), "{mode}: {got}");
    }
}

#[test]
fn a_bot_sees_no_control_group_and_no_lock_of_others_in_the_sandbox() {
    let test = "a_bot_sees_no_control_group_and_no_lock_of_others_in_the_sandbox";
    let random = || {
        vec![
            "python3".to_string(),
            file("sample-bots/python/vabanque_random.py"),
        ]
    };
    let bots = || {
        [
            ("reader", python("cgroup_reader.py", &[])),
            ("a", random()),
            ("b", random()),
        ]
    };
    if bwrap_works(test) {
        let dir = temp_dir("cgroup-bwrap");
        play(&dir, &bots(), "bwrap");
        let seen = report(&dir.join("reader"), "cgroup-report.json");
        assert_eq!(seen["sys_entries"], 0, "{seen}");
        assert_eq!(seen["pids_files"], 0, "{seen}");
        assert_eq!(seen["bot_groups"], 0, "{seen}");
        for file in ["locks", "timer_list", "kpagecgroup"] {
            if Path::new("/proc").join(file).exists() {
                assert_eq!(seen["proc"][file], "errno 13", "{file}: {seen}");
            }
        }
    }

    // Without the sandbox the control groups are in plain view: every bot's, with its process
    // count (docs/security.md says so).
    if cgroups_available() {
        let dir = temp_dir("cgroup-none");
        play(&dir, &bots(), "none");
        let seen = report(&dir.join("reader"), "cgroup-report.json");
        assert!(seen["bot_groups"].as_u64().unwrap() >= 3, "{seen}");
        assert!(seen["pids_files"].as_u64().unwrap() >= 3, "{seen}");
    } else {
        skipped(
            &format!("{test} (without the sandbox)"),
            "the referee cannot make control groups here",
        );
    }
}
