//! Counts of the machine that one bot moves and another reads (docs/security.md, "What a bot
//! cannot see or touch"): in the sandbox, a bot that reads every count it can see reads the
//! same before, during and after another bot's burst of 10,000 files, forks, threads, memory,
//! pipes, terminals and I/O contexts, but for the channels the page lists as remaining; the
//! channel of free inodes (issue 26) decodes nothing under the referee; and no bot can make a
//! user namespace in the sandbox, so the cgroup2 root it would mount there stays out of reach.

use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a reading in the sandbox may show moving, with why: channels that remain
/// (docs/security.md, "Covert channels that remain"), and what is not a count.
const MOVING_IN_THE_SANDBOX: [(&str, &str); 10] = [
    (
        "/proc/sys/kernel/random/uuid",
        "a new random id at each read",
    ),
    (
        "sysinfo procs",
        "the sysinfo system call: the machine's threads",
    ),
    ("sysinfo freeram", "the sysinfo system call: free memory"),
    (
        "sysinfo sharedram",
        "the sysinfo system call: shared memory",
    ),
    ("sysinfo bufferram", "the sysinfo system call: buffers"),
    ("sysinfo loads", "the sysinfo system call: load averages"),
    (
        "/proc/self/net/sockstat",
        "the machine's TCP and UDP sockets and their memory",
    ),
    (
        "/proc/self/net/sockstat6",
        "the machine's TCP and UDP sockets and their memory",
    ),
    (
        "/proc/self/net/protocols",
        "the machine's sockets and their memory, by protocol",
    ),
    (
        "/proc/self/net/softnet_stat",
        "the packets each CPU processed, loopback included",
    ),
];

/// The errno of a file-system counter under the filter (`referee::seat::seccomp::HIDDEN_ERRNO`).
const ENOSYS: &str = "errno 38";

fn python(script: &str, args: &[&str]) -> Vec<String> {
    let mut command = vec!["python3".to_string(), file(&format!("tests/bots/{script}"))];
    command.extend(args.iter().map(|a| a.to_string()));
    command
}

fn random_bot() -> Vec<String> {
    vec![
        "python3".to_string(),
        file("sample-bots/python/vabanque_random.py"),
    ]
}

/// Plays one Vabanque match of `bots` (name, command, whether it gets a working directory of
/// its own, `dir/NAME`) under `sandbox`, with generous limits, its stderr kept in
/// `dir/stderr`; checks that no process is left.
fn play(dir: &Path, bots: &[(&str, Vec<String>, bool)], sandbox: &str) {
    let mut config = String::from(
        "game = \"vabanque\"\nseed = 7\ntime_limit_ms = 120000\nstartup_limit_ms = 60000\n",
    );
    for (name, command, workdir) in bots {
        config += &format!("[[bot]]\nname = {name:?}\ncommand = {command:?}\n");
        if *workdir {
            let work = dir.join(name);
            std::fs::create_dir_all(&work).unwrap();
            config += &format!("workdir = {:?}\n", work.display().to_string());
        }
    }
    let path = dir.join("match.toml");
    std::fs::write(&path, config).unwrap();
    let mut cmd = referee();
    cmd.args(["match", path.to_str().unwrap(), "--sandbox", sandbox])
        .args(["--stderr-dir", dir.join("stderr").to_str().unwrap()]);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{sandbox}: {}", stderr(&out));
    assert!(
        !stdout(&out).contains("fault:"),
        "{sandbox}: {}",
        stdout(&out)
    );
    assert_no_marked_survivors(&cmd);
}

/// The JSON a bot wrote to its stderr after `prefix`.
fn stderr_report(dir: &Path, bot: &str, prefix: &str) -> Value {
    let text = std::fs::read_to_string(dir.join("stderr").join(format!("{bot}.stderr")))
        .unwrap_or_else(|e| panic!("{bot}'s stderr: {e}"));
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in {bot}'s stderr:\n{text}"));
    serde_json::from_str(line).unwrap()
}

/// The sender's burst and the reader's report of one match under `sandbox`.
fn burst_and_readings(sandbox: &str) -> (Value, Value) {
    let dir = temp_dir(&format!("counters-{sandbox}"));
    let reader_mode = if sandbox == "bwrap" { "all" } else { "proc" };
    let bots = [
        ("sender", python("counter_sender.py", &[]), true),
        ("reader", python("counter_reader.py", &[reader_mode]), false),
        ("random", random_bot(), false),
    ];
    play(&dir, &bots, sandbox);
    let sent = std::fs::read_to_string(dir.join("sender/sender-report.json")).unwrap();
    let sent: Value = serde_json::from_str(&sent).unwrap();
    let read = stderr_report(&dir, "reader", "counter-report ");
    eprintln!("{sandbox}: the sender did {sent}");
    eprintln!(
        "{sandbox}: the reader read {} times: statfs of {} mounts, files {}, {} of them \
         unreadable; changed: {}",
        read["readings"],
        read["statfs"].as_object().unwrap().len(),
        read["files"],
        read["unreadable"],
        serde_json::to_string_pretty(&read["changed"]).unwrap()
    );
    // Every part of the burst was made, and the churn ran while the reader read.
    for (what, count) in [
        ("files_created", 10_000),
        ("files_deleted", 10_000),
        ("forks", 50),
        ("threads", 50),
        ("memory_mib", 100),
        ("pipes", 2_000),
        ("ptys", 20),
        ("aio_contexts", 20),
        ("disk_mib_written", 8),
    ] {
        assert_eq!(sent["burst"][what], count, "{sandbox} {what}: {sent}");
    }
    assert_eq!(sent["errors"], serde_json::json!({}), "{sandbox}: {sent}");
    assert!(read["readings"].as_u64().unwrap() >= 3, "{sandbox}: {read}");
    (sent, read)
}

#[test]
fn a_bot_reads_no_count_that_another_bot_moves_in_the_sandbox() {
    let test = "a_bot_reads_no_count_that_another_bot_moves_in_the_sandbox";
    if !bwrap_works(test) {
        return;
    }
    let (_, read) = burst_and_readings("bwrap");
    // statvfs and fstatvfs of every mount fail: no free blocks or inodes to read.
    let statfs = read["statfs"].as_object().unwrap();
    assert!(statfs.len() >= 5, "{read}");
    assert!(statfs.values().all(|v| v == ENOSYS), "{read}");
    // It read /proc, /proc/sys and its network's files; /sys is empty.
    for top in ["/proc/sys", "/proc/self", "/proc/stat", "/proc/meminfo"] {
        assert!(
            read["files"][top].as_u64().unwrap_or(0) > 0,
            "{top}: {read}"
        );
    }
    assert!(read["files"].get("/sys").is_none(), "{read}");
    // Nothing it read moved but the channels that remain.
    let moved: Vec<&String> = read["changed"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|name| !MOVING_IN_THE_SANDBOX.iter().any(|(n, _)| n == name))
        .collect();
    assert!(
        moved.is_empty(),
        "counts another bot moved, seen in the sandbox: {moved:?}\n{:#}",
        read["changed"]
    );
}

/// The same burst, without the sandbox, moves what the sandbox hides: the test above would see
/// a count that came back. The file-system counters stay closed (the filter is the same).
#[test]
fn without_the_sandbox_the_burst_moves_the_machine_counts() {
    let (_, read) = burst_and_readings("none");
    let statfs = read["statfs"].as_object().unwrap();
    assert!(statfs.values().all(|v| v == ENOSYS), "{read}");
    for moved in [
        "/proc/stat",
        "/proc/meminfo",
        "/proc/vmstat",
        "/proc/loadavg",
        "/proc/sys/fs/inode-nr",
    ] {
        assert!(
            read["changed"].get(moved).is_some(),
            "{moved} did not move: {:#}",
            read["changed"]
        );
    }
}

/// A 24-bit secret with bits set and clear, different in every run, as a string of 0 and 1.
fn secret_bits() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let secret = (nanos ^ std::process::id().rotate_left(11)) & 0xff_ffff | 0x80_0001;
    format!("{:024b}", secret & 0xff_fff7)
}

/// Seconds since the epoch, `ahead` from now: when the colluders start.
fn start_in(ahead: f64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    format!("{:.3}", now + ahead)
}

/// The slot of the free-inode channel, in seconds: half of it is time enough to make 200 files
/// on a tmpfs (under the referee, on ext4 at 0.8 ms a file, the sender falls behind: no matter,
/// the receiver reads nothing at all there).
const SLOT_S: &str = "0.25";

/// The free-inode colluders as plain processes, without the referee: the sender makes its files
/// in `dir`, the receiver reads the free inodes of `dir`'s file system.
fn inode_channel_without_the_referee(dir: &Path, bits: &str) -> Value {
    let sender_dir = dir.to_path_buf();
    let start = start_in(2.0);
    let count = bits.len().to_string();
    let bots = PathBuf::from(file("tests/bots"));
    let mut sender = Command::new("python3")
        .arg(bots.join("channel_sender.py"))
        .args(["statfs", &start, SLOT_S, bits])
        .current_dir(&sender_dir)
        // Open until the receiver is done: the sender stops at the end of its input.
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut receiver = Command::new("python3")
        .arg(bots.join("channel_receiver.py"))
        .args([
            "statfs",
            &start,
            SLOT_S,
            &count,
            sender_dir.to_str().unwrap(),
        ])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let request = r#"{"type": "request", "id": 0, "legal": [{}]}"#;
    writeln!(receiver.stdin.take().unwrap(), "{request}").unwrap();
    let out = receiver.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    drop(sender.stdin.take());
    let sent = sender.wait_with_output().unwrap();
    assert!(sent.status.success(), "{}", stderr(&sent));
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("channel-report "))
        .unwrap_or_else(|| panic!("no report: {text}"));
    serde_json::from_str(line).unwrap()
}

fn bits_right(sent: &str, read: &str) -> usize {
    sent.chars()
        .zip(read.chars())
        .filter(|(a, b)| a == b)
        .count()
}

#[test]
fn the_free_inode_channel_decodes_nothing_under_the_referee() {
    let bits = secret_bits();

    // Without the referee it is a channel: the receiver reads the secret (chance would give
    // half of the bits; the machine's other work may flip one or two). On a tmpfs of the
    // machine, /dev/shm, which other tests leave quiet (the tests around make and delete
    // thousands of files where the referee's run below puts the sender's).
    let shm = PathBuf::from("/dev/shm").join(format!("inodes-control-{}", std::process::id()));
    std::fs::create_dir_all(&shm).unwrap();
    let control = inode_channel_without_the_referee(&shm, &bits);
    std::fs::remove_dir_all(&shm).unwrap();
    let read = control["bits"].as_str().unwrap();
    assert!(
        bits_right(&bits, read) >= bits.len() - 2,
        "sent {bits}, read {read}: {control}"
    );

    let mut modes = vec!["none"];
    if bwrap_works("the_free_inode_channel_decodes_nothing_under_the_referee") {
        modes.push("bwrap");
    }
    for mode in modes {
        let dir = temp_dir(&format!("inodes-{mode}"));
        // Time for both bots to start, in the sandbox, on a loaded machine.
        let start = start_in(8.0);
        let count = bits.len().to_string();
        let bots = [
            (
                "sender",
                python("channel_sender.py", &["statfs", &start, SLOT_S, &bits]),
                true,
            ),
            (
                "receiver",
                python(
                    "channel_receiver.py",
                    &["statfs", &start, SLOT_S, &count, "/"],
                ),
                false,
            ),
            (
                "random",
                python("../../sample-bots/python/vabanque_random.py", &[]),
                false,
            ),
        ];
        play(&dir, &bots, mode);
        // The sender made and deleted its files; the receiver read no free inode at all.
        let sent = stderr_report(&dir, "sender", "channel-sender ");
        assert_eq!(sent["errors"], serde_json::json!([]), "{mode}: {sent}");
        let got = stderr_report(&dir, "receiver", "channel-report ");
        assert_eq!(
            got["late"], false,
            "{mode}: started too late to listen: {got}"
        );
        assert_eq!(got["bits"], "?".repeat(bits.len()), "{mode}: {got}");
        assert_eq!(got["errors"], serde_json::json!([38]), "{mode}: {got}");
    }
}

#[test]
fn a_bot_cannot_make_a_user_namespace_in_the_sandbox() {
    let test = "a_bot_cannot_make_a_user_namespace_in_the_sandbox";
    // Without the referee, here, a process makes one, mounts the cgroup2 root in it and lists
    // the machine's processes: what the sandbox must refuse.
    let control = Command::new("python3")
        .arg(file("tests/bots/userns_prober.py"))
        .arg("--once")
        .current_dir(temp_dir("userns-control"))
        .output()
        .unwrap();
    assert!(control.status.success(), "{}", stderr(&control));
    let control: Value = serde_json::from_slice(&control.stdout).unwrap();
    if control["unshare"] != "ok" {
        skipped(
            test,
            &format!("no user namespaces here to refuse: {control}"),
        );
        return;
    }
    assert!(control["cgroup_procs"].as_u64().unwrap() > 0, "{control}");

    if !bwrap_works(test) {
        return;
    }
    let dir = temp_dir("userns-bwrap");
    let bots = [
        ("prober", python("userns_prober.py", &[]), false),
        ("a", random_bot(), false),
        ("b", random_bot(), false),
    ];
    play(&dir, &bots, "bwrap");
    let seen = stderr_report(&dir, "prober", "userns-report ");
    // unshare, clone and clone3 with CLONE_NEWUSER: ENOSPC, the sandbox's limit of user
    // namespaces is reached; unshare(1) fails the same way, and nothing is mounted.
    let enospc = format!("errno {}", libc::ENOSPC);
    assert_eq!(seen["unshare"], enospc.as_str(), "{seen}");
    assert_eq!(seen["clone"], enospc.as_str(), "{seen}");
    assert_eq!(seen["clone3"], enospc.as_str(), "{seen}");
    assert_ne!(seen["unshare_command"], 0, "{seen}");
    assert_eq!(seen["cgroup_procs"], Value::Null, "{seen}");
    // Nor can it mount without one (no capability).
    assert_eq!(seen["mount"], format!("errno {}", libc::EPERM), "{seen}");
}

/// A futex on a page of a file that every sandbox maps is keyed by the file: one bot's wake
/// reached another's wait across sandboxes and uids (a red team passed 2,000 bits in 0.11 s, none
/// wrong). As plain processes the channel passes a 24-bit secret; under the referee, with the
/// sandbox and without, the sender's shared wakes fail with `EPERM` and the receiver gets nothing.
#[test]
fn a_shared_futex_passes_no_bit_between_bots() {
    let bits = secret_bits();
    let n = bits.len().to_string();
    let channel = file("tests/bots/futex_channel.py");
    let receiver = Command::new("python3")
        .args([channel.as_str(), "receive", n.as_str(), "--plain"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // The receiver waits first; the sender wakes until someone is there, so no start order
    // is needed beyond the receiver having started.
    let sender = Command::new("python3")
        .args([channel.as_str(), "send", bits.as_str(), "--plain"])
        .output()
        .unwrap();
    let received: Value = serde_json::from_slice(&receiver.wait_with_output().unwrap().stdout)
        .expect("the receiver's report");
    let sent: Value = serde_json::from_slice(&sender.stdout).expect("the sender's report");
    assert_eq!(
        received["received"],
        bits.as_str(),
        "the control: {received} {sent}"
    );

    let mut modes = vec!["none"];
    if bwrap_works("a_shared_futex_passes_no_bit_between_bots") {
        modes.push("bwrap");
    }
    for sandbox in modes {
        let dir = temp_dir(&format!("futex-{sandbox}"));
        let bots = [
            (
                "sender",
                python("futex_channel.py", &["send", &bits]),
                false,
            ),
            (
                "receiver",
                python("futex_channel.py", &["receive", &n]),
                false,
            ),
            ("random", random_bot(), false),
        ];
        play(&dir, &bots, sandbox);
        let sent = stderr_report(&dir, "sender", "futex-report ");
        let received = stderr_report(&dir, "receiver", "futex-report ");
        assert_eq!(received["received"], "", "{sandbox}: {received}");
        assert_eq!(sent["sent"], 0, "{sandbox}: {sent}");
        let eperm = libc::EPERM.to_string();
        assert!(
            sent["errors"][eperm.as_str()].as_u64().unwrap_or(0) > 0,
            "{sandbox}: the sender's wakes are refused: {sent}"
        );
    }
}

/// The price of refusing shared wakes: processes that take turns at one `multiprocessing.Lock`
/// stall, glibc aborting the one that must wake another. The bot's fault says why, in words its
/// author can act on, with the link.
#[test]
fn a_bot_whose_shared_lock_cannot_wake_is_told_why() {
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--seed",
        "1",
        "--time-limit-ms",
        "8000",
        "--on-timeout",
        "forfeit",
        "--bot",
        &format!("lock=python3 {}", file("tests/bots/shared_lock.py")),
        "--bot",
        "r1=builtin:random",
        "--bot",
        "r2=builtin:random",
    ]);
    let text = stdout(&out);
    let fault = text
        .lines()
        .find(|l| l.starts_with("fault: lock"))
        .unwrap_or_else(|| panic!("no fault of the bot: {text}{}", stderr(&out)));
    assert!(
        fault.contains("glibc's abort when the referee refuses a process-shared futex wake")
            && fault.contains("docs/security.md#the-system-call-filter"),
        "{fault}"
    );
}

/// A bubblewrap older than 0.8.0 (Ubuntu 22.04 has 0.6.1) has no `--disable-userns`: the
/// referee still sandboxes bots with it, without that option, and says once what a bot can
/// then do, rather than run bots without a sandbox. The old bubblewrap is played by a script
/// that refuses the option as bubblewrap 0.6 does and runs the real one otherwise, logging
/// every command line it is given.
#[test]
fn an_older_bubblewrap_still_sandboxes_bots_and_says_once_what_it_cannot_forbid() {
    let test = "an_older_bubblewrap_still_sandboxes_bots_and_says_once_what_it_cannot_forbid";
    if !bwrap_works(test) {
        return;
    }
    let real = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v bwrap"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let dir = temp_dir("old-bwrap");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let calls = dir.join("calls.log");
    let fake = bin.join("bwrap");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = --disable-userns ]; then\n    echo 'bwrap: Unknown option --disable-userns' >&2\n    exit 1\n  fi\ndone\necho \"$*\" >> {}\nexec {} \"$@\"\n",
            calls.display(),
            real.trim()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Every user may run it (bots run as uids of their own as root).
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(&calls, "").unwrap();
    std::fs::set_permissions(&calls, std::fs::Permissions::from_mode(0o666)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = referee();
    cmd.env("PATH", path).args([
        "match",
        "--game",
        "vabanque",
        "--sandbox",
        "bwrap",
        "--seed",
        "3",
        "--bot",
        &format!("a={}", random_bot().join(" ")),
        "--bot",
        &format!("b={}", random_bot().join(" ")),
        "--bot",
        &format!("c={}", random_bot().join(" ")),
    ]);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let warnings: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("cannot forbid user namespaces"))
        .collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("docs/security.md#"), "{err}");
    // The bots ran in it, without the option.
    let calls = std::fs::read_to_string(&calls).unwrap();
    let bots: Vec<&str> = calls
        .lines()
        .filter(|l| l.contains("vabanque_random.py"))
        .collect();
    assert!(bots.len() >= 3, "{calls}");
    assert!(bots.iter().all(|l| l.contains("--unshare-all")), "{calls}");
    assert_no_marked_survivors(&cmd);
}

/// docs/security.md names every file the sandbox closes, empties or fixes in `/proc`, and every
/// call and ioctl the filter hides: the page and the code say the same.
#[test]
fn the_security_page_names_every_count_the_sandbox_closes() {
    use referee::seat::{proc_view, seccomp};
    let page = std::fs::read_to_string(root().join("docs/security.md")).unwrap();
    let proc_names = proc_view::CLOSED_FILES
        .iter()
        .chain(&proc_view::EMPTIED_DIRS)
        .chain(&proc_view::FIXED_FILES)
        .map(|(name, _)| *name);
    let filter_names = seccomp::HIDDEN_CALLS
        .into_iter()
        .chain(seccomp::ABSENT_CALLS)
        .chain(seccomp::DENIED_IOCTL.iter().map(|(_, name)| *name))
        .chain(seccomp::DENIED_SHARED_FUTEX.iter().map(|(_, name)| *name));
    for name in proc_names.chain(filter_names) {
        // As a whole, or its last part after the one before it (`sys/fs/file-nr`, `inode-nr`).
        let last = name.rsplit('/').next().unwrap();
        let named = [
            format!("`{name}`"),
            format!("`{name}/`"),
            format!("`{last}`"),
            format!("`{last}/`"),
            format!("/{last}`"),
            format!("/{last}/`"),
        ];
        assert!(
            named.iter().any(|n| page.contains(n)),
            "docs/security.md does not name `{name}`"
        );
    }
}
