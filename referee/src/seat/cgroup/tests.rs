//! A bot group's CPU controllers, on this machine (skipped visibly without them).

use super::*;
use std::process::{Command, Stdio};

/// A shell busy loop started in `group` (joined by writing its pid to every `cgroup.procs`).
fn busy_in(group: &BotCgroup) -> std::process::Child {
    let child = Command::new("sh")
        .args(["-c", "while :; do :; done"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    assert!(group.adopt(child.id()));
    child
}

#[test]
fn a_bot_group_has_its_quota_its_cores_its_cpu_time_and_a_freezer() {
    let m = mechanisms();
    if !(m.groups && m.cpu_quota && m.cpuset && m.cpu_time && m.freezer) {
        // `.ci/run` gives CI every controller: there, a test that cannot run fails.
        assert!(
            std::env::var_os("CI").is_none(),
            "the cgroup CPU test cannot run here (not every CPU controller: {m:?}), and under CI a test does not skip"
        );
        eprintln!("SKIPPED cgroup CPU test: not every CPU controller here ({m:?})");
        return;
    }
    let group = BotCgroup::create(&GroupLimits {
        memory_bytes: Some(64 << 20),
        processes: Some(8),
        cpu_percent: Some(50),
        cores: vec![0],
    })
    .expect("a group");
    let read = |c: Controller, file: &str| {
        fs::read_to_string(group.dir(c).unwrap().join(file))
            .unwrap()
            .trim()
            .to_string()
    };
    assert_eq!(read(Controller::Cpuset, "cpuset.cpus"), "0");
    if m.unified {
        assert_eq!(read(Controller::Cpu, "cpu.max"), "50000 100000");
    } else {
        assert_eq!(read(Controller::Cpu, "cpu.cfs_quota_us"), "50000");
    }
    let mut child = busy_in(&group);
    // CPU time grows while it runs (however slowly a loaded machine lets it)...
    let start = group.cpu_time().unwrap();
    while group.cpu_time().unwrap() <= start {
        std::thread::sleep(Duration::from_millis(5));
    }
    // ...and not while it is frozen: once frozen, two readings 50 ms apart are equal.
    assert!(group.freeze(true));
    let frozen = loop {
        let a = group.cpu_time().unwrap();
        std::thread::sleep(Duration::from_millis(50));
        if group.cpu_time().unwrap() == a {
            break a;
        }
    };
    assert_eq!(group.cpu_time().unwrap(), frozen);
    assert!(group.freeze(false));
    while group.cpu_time().unwrap() <= frozen {
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(group);
    // Dropping the group killed its process.
    let status = child.wait().unwrap();
    assert!(!status.success());
}

#[test]
fn a_counter_is_read_from_its_leading_digits() {
    assert_eq!(decimal(b"1234567890123\n"), Some(1_234_567_890_123));
    assert_eq!(decimal(b"0\n"), Some(0));
    assert_eq!(decimal(b"\n"), None);
    assert_eq!(decimal(b""), None);
    assert_eq!(decimal(b"99999999999999999999999\n"), None);
}

#[test]
fn the_start_up_line_names_what_is_missing_in_a_short_line_and_explains_it_in_the_long_form() {
    let none = describe(Mechanisms::default());
    let bare = describe(Mechanisms {
        groups: true,
        unified: true,
        ..Mechanisms::default()
    });
    assert_eq!(
        bare.short(),
        "bots run in control groups v2: memory, processes (warning: no CPU quota, no cpuset, no CPU time, no freezer; see docs/security.md#the-layers)"
    );
    assert!(bare.lines(true)[0].contains("no freezer: a bot off move cannot be frozen"));
    for notice in [none, bare] {
        assert!(
            notice.short().len() <= crate::seat::notice::SHORT_MAX,
            "{notice:?}"
        );
    }
}
