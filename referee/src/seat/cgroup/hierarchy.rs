//! Where the referee's control groups live: the hierarchy of each controller found once per
//! run (v1 or v2), the referee's own directory in each, what referees that are gone left behind,
//! and which mechanisms that gives bots.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A cgroup controller the referee uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Controller {
    Memory,
    Pids,
    Cpu,
    Cpuacct,
    Cpuset,
    Freezer,
}

impl Controller {
    /// Its name in v1 (`/proc/self/cgroup`, mount options).
    pub(super) fn name(self) -> &'static str {
        match self {
            Controller::Memory => "memory",
            Controller::Pids => "pids",
            Controller::Cpu => "cpu",
            Controller::Cpuacct => "cpuacct",
            Controller::Cpuset => "cpuset",
            Controller::Freezer => "freezer",
        }
    }

    pub(super) const OPTIONAL: [Controller; 4] = [
        Controller::Cpu,
        Controller::Cpuacct,
        Controller::Cpuset,
        Controller::Freezer,
    ];
}

/// Where the referee's groups live, found once per run.
#[derive(Debug)]
pub(super) struct Hierarchy {
    /// The referee's directory of each controller it can use (under v2, one directory for all).
    pub(super) dirs: Vec<(Controller, PathBuf)>,
    /// Whether this is the unified (v2) hierarchy.
    pub(super) unified: bool,
}

impl Hierarchy {
    pub(super) fn dir(&self, c: Controller) -> Option<&Path> {
        self.dirs
            .iter()
            .find(|(k, _)| *k == c)
            .map(|(_, d)| d.as_path())
    }
}

/// Which mechanisms bot processes get on this machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mechanisms {
    /// Control groups at all (memory and process limits, the kill of every process).
    pub groups: bool,
    /// Whether they are v2 (unified) rather than v1.
    pub unified: bool,
    /// A CPU quota per bot.
    pub cpu_quota: bool,
    /// A cpuset per bot (the worker's cores).
    pub cpuset: bool,
    /// The CPU time of all of a bot's processes.
    pub cpu_time: bool,
    /// Freezing a bot's processes.
    pub freezer: bool,
}

static HIERARCHY: OnceLock<Option<Hierarchy>> = OnceLock::new();

/// The directory of this process's group in the hierarchy mounted for `controller` (v1), or
/// in the unified hierarchy when `controller` is `None`.
fn own_dir(controller: Option<&str>) -> Option<PathBuf> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let (root, mount) = mountinfo.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let fields: Vec<&str> = left.split(' ').collect();
        let mut right = right.split(' ');
        let fstype = right.next()?;
        let options = right.nth(1)?;
        let wanted = match controller {
            Some(c) => fstype == "cgroup" && options.split(',').any(|o| o == c),
            None => fstype == "cgroup2",
        };
        wanted.then(|| (fields.get(3).copied(), fields.get(4).copied()))
    })?;
    let (root, mount) = (root?, mount?);
    let groups = fs::read_to_string("/proc/self/cgroup").ok()?;
    let own = groups.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let wanted = match controller {
            Some(c) => controllers.split(',').any(|x| x == c),
            None => controllers.is_empty(),
        };
        wanted.then(|| path.to_string())
    })?;
    let relative = own
        .strip_prefix(root)
        .unwrap_or(&own)
        .trim_start_matches('/');
    Some(Path::new(mount).join(relative))
}

/// Removes what referees that are gone (killed with SIGKILL, say) left under `parent`: their
/// processes are killed and their directories removed.
fn sweep_stale(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("referee-"))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let dir = entry.path();
        if let Ok(bots) = fs::read_dir(&dir) {
            for bot in bots.flatten().filter(|b| b.path().is_dir()) {
                // A frozen process cannot die: thaw it first (v1, v2).
                let _ = fs::write(bot.path().join("freezer.state"), "THAWED");
                let _ = fs::write(bot.path().join("cgroup.freeze"), "0");
                kill_members(&bot.path(), Instant::now() + Duration::from_millis(200));
                remove(&bot.path());
            }
        }
        remove(&dir);
    }
}

/// Sends SIGKILL to every process listed in `dir`'s `cgroup.procs`; whether there was any.
pub(super) fn kill_round(dir: &Path) -> bool {
    let members: Vec<i32> = fs::read_to_string(dir.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    for &pid in &members {
        // SAFETY: kill(2) with a pid read from the group; no memory is involved.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    !members.is_empty()
}

/// Kills every process listed in `dir`'s `cgroup.procs` until none is left or `deadline`
/// (blocking: for use outside the runtime, as in `Drop`).
pub(super) fn kill_members(dir: &Path, deadline: Instant) {
    while kill_round(dir) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Removes a group's directory, retrying briefly while the kernel finishes with processes that
/// just died.
pub(super) fn remove(dir: &Path) {
    for _ in 0..100 {
        match fs::remove_dir(dir) {
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                std::thread::sleep(Duration::from_millis(2))
            }
            _ => return,
        }
    }
}

/// Makes the referee's own directory under `parent`, removed when empty at exit of the run.
fn referee_dir(parent: &Path) -> Option<PathBuf> {
    sweep_stale(parent);
    let dir = parent.join(format!("referee-{}", std::process::id()));
    match fs::create_dir(&dir) {
        Ok(()) => Some(dir),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Some(dir),
        Err(_) => None,
    }
}

/// The referee's directory for v1 controller `c`, made under its own group; a cpuset
/// directory gets its parent's cores and memory nodes (v1 starts it with none).
fn v1_dir(c: Controller) -> Option<PathBuf> {
    let parent = own_dir(Some(c.name()))?;
    let dir = referee_dir(&parent)?;
    if c == Controller::Cpuset {
        for file in ["cpuset.cpus", "cpuset.mems"] {
            let value = fs::read_to_string(parent.join(file)).ok()?;
            if fs::write(dir.join(file), value.trim()).is_err() {
                let _ = fs::remove_dir(&dir);
                return None;
            }
        }
    }
    Some(dir)
}

fn find() -> Option<Hierarchy> {
    if own_dir(Some("memory")).is_some() && own_dir(Some("pids")).is_some() {
        let mut dirs = Vec::new();
        for c in [Controller::Memory, Controller::Pids] {
            match v1_dir(c) {
                Some(dir) => dirs.push((c, dir)),
                None => {
                    for (_, dir) in &dirs {
                        let _ = fs::remove_dir(dir);
                    }
                    return None;
                }
            }
        }
        for c in Controller::OPTIONAL {
            if let Some(dir) = v1_dir(c) {
                dirs.push((c, dir));
            }
        }
        return Some(Hierarchy {
            dirs,
            unified: false,
        });
    }
    let unified = own_dir(None)?;
    let enabled = fs::read_to_string(unified.join("cgroup.subtree_control")).ok()?;
    let has = |c: &str| enabled.split_whitespace().any(|x| x == c);
    if !(has("memory") && has("pids")) {
        return None;
    }
    let dir = referee_dir(&unified)?;
    if fs::write(dir.join("cgroup.subtree_control"), "+memory +pids").is_err() {
        let _ = fs::remove_dir(&dir);
        return None;
    }
    let mut dirs = vec![
        (Controller::Memory, dir.clone()),
        (Controller::Pids, dir.clone()),
        // CPU time (`cpu.stat`) and the freezer (`cgroup.freeze`) are in every v2 group.
        (Controller::Cpuacct, dir.clone()),
        (Controller::Freezer, dir.clone()),
    ];
    for (c, name) in [(Controller::Cpu, "cpu"), (Controller::Cpuset, "cpuset")] {
        if has(name) && fs::write(dir.join("cgroup.subtree_control"), format!("+{name}")).is_ok() {
            dirs.push((c, dir.clone()));
        }
    }
    Some(Hierarchy {
        dirs,
        unified: true,
    })
}

pub(super) fn hierarchy() -> Option<&'static Hierarchy> {
    HIERARCHY.get_or_init(find).as_ref()
}

/// Whether bot processes get control groups on this machine.
pub fn available() -> bool {
    hierarchy().is_some()
}

/// Which mechanisms bot processes get on this machine.
pub fn mechanisms() -> Mechanisms {
    let Some(h) = hierarchy() else {
        return Mechanisms::default();
    };
    let has = |c| h.dir(c).is_some();
    Mechanisms {
        groups: true,
        unified: h.unified,
        cpu_quota: has(Controller::Cpu),
        cpuset: has(Controller::Cpuset),
        cpu_time: has(Controller::Cpuacct),
        freezer: has(Controller::Freezer),
    }
}

/// Which mechanisms confine bots here and what is weaker without the missing ones
/// (`docs/security.md` explains each): the missing ones named in the short line, what each
/// lack means in the long form.
pub fn describe(m: Mechanisms) -> crate::seat::notice::Notice {
    use crate::seat::notice::Notice;
    if !m.groups {
        return Notice::new(
            "warning: no control group can be made here: weaker memory, process and CPU limits; see docs/security.md#the-layers (--verbose: what each lacks)",
            vec!["warning: no control group can be made here: a bot's memory is limited only if memory_mb is set (by RLIMIT_AS), its processes only by RLIMIT_NPROC, its CPU not at all, and its time is wall time only (see docs/security.md)".into()],
        );
    }
    let version = if m.unified { "v2" } else { "v1" };
    let mut have = vec!["memory", "processes"];
    let mut lack = Vec::new();
    let mut lacks = Vec::new();
    for (on, name, without) in [
        (
            m.cpu_quota,
            "CPU quota",
            "a bot's processes may take every core it may run on",
        ),
        (
            m.cpuset,
            "cpuset",
            "a bot's processes may leave its worker's core",
        ),
        (
            m.cpu_time,
            "CPU time",
            "decisions are timed by the wall clock only",
        ),
        (m.freezer, "freezer", "a bot off move cannot be frozen"),
    ] {
        if on {
            have.push(name);
        } else {
            lack.push(format!("no {name}: {without}"));
            lacks.push(format!("no {name}"));
        }
    }
    let line = format!("bots run in control groups {version}: {}", have.join(", "));
    if lack.is_empty() {
        return Notice::plain(line);
    }
    Notice::new(
        format!(
            "{line} (warning: {}; see docs/security.md#the-layers)",
            lacks.join(", ")
        ),
        vec![format!("{line} (warning: {})", lack.join("; "))],
    )
}

/// Removes the referee's own (by now empty) directories. Called once at the end of a run.
pub fn cleanup() {
    if let Some(Some(h)) = HIERARCHY.get() {
        let mut removed: Vec<&Path> = Vec::new();
        for (_, dir) in &h.dirs {
            if !removed.contains(&dir.as_path()) {
                let _ = fs::remove_dir(dir);
                removed.push(dir);
            }
        }
    }
}
