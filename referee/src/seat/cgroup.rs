//! Control groups for bot processes, where the referee may create them: a memory limit the
//! kernel enforces (and reports when it kills), a process limit that stops fork bombs, a kill
//! that reaches every process of the bot, even one that left its process group — and for CPU, a
//! quota (by default one core), a cpuset (the cores of the worker that started the bot, so that
//! no process of it, whatever it does with `sched_setaffinity` or `setsid`, runs on another
//! match's core), the CPU time the bot's processes used, and a freezer.
//!
//! The referee makes one group per bot process under its own group, in the cgroup v1
//! hierarchies of each controller, or in the unified v2 hierarchy when its own group is the root
//! with the controllers enabled below it. Memory and processes are required; without them
//! [`BotCgroup::create`] returns `None` and the caller falls back to resource limits. The CPU
//! controllers are each used where present ([`mechanisms`] says which are).

use std::fs;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A cgroup controller the referee uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Controller {
    Memory,
    Pids,
    Cpu,
    Cpuacct,
    Cpuset,
    Freezer,
}

impl Controller {
    /// Its name in v1 (`/proc/self/cgroup`, mount options).
    fn name(self) -> &'static str {
        match self {
            Controller::Memory => "memory",
            Controller::Pids => "pids",
            Controller::Cpu => "cpu",
            Controller::Cpuacct => "cpuacct",
            Controller::Cpuset => "cpuset",
            Controller::Freezer => "freezer",
        }
    }

    const OPTIONAL: [Controller; 4] = [
        Controller::Cpu,
        Controller::Cpuacct,
        Controller::Cpuset,
        Controller::Freezer,
    ];
}

/// Where the referee's groups live, found once per run.
#[derive(Debug)]
struct Hierarchy {
    /// The referee's directory of each controller it can use (under v2, one directory for all).
    dirs: Vec<(Controller, PathBuf)>,
    /// Whether this is the unified (v2) hierarchy.
    unified: bool,
}

impl Hierarchy {
    fn dir(&self, c: Controller) -> Option<&Path> {
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
static NEXT: AtomicU64 = AtomicU64::new(0);

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
fn kill_round(dir: &Path) -> bool {
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
fn kill_members(dir: &Path, deadline: Instant) {
    while kill_round(dir) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Removes a group's directory, retrying briefly while the kernel finishes with processes that
/// just died.
fn remove(dir: &Path) {
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

fn hierarchy() -> Option<&'static Hierarchy> {
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

/// One line saying which mechanisms confine bots here and what is weaker without the missing
/// ones (`docs/security.md` explains each).
pub fn describe(m: Mechanisms) -> String {
    if !m.groups {
        return "warning: no control group can be made here: a bot's memory is limited only if memory_mb is set (by RLIMIT_AS), its processes only by RLIMIT_NPROC, its CPU not at all, and its time is wall time only (see docs/security.md)".into();
    }
    let version = if m.unified { "v2" } else { "v1" };
    let mut have = vec!["memory", "processes"];
    let mut lack = Vec::new();
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
        }
    }
    let mut line = format!("bots run in control groups {version}: {}", have.join(", "));
    if !lack.is_empty() {
        line.push_str(&format!(" (warning: {})", lack.join("; ")));
    }
    line
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

/// What a bot's control groups limit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupLimits {
    /// Memory, in bytes.
    pub memory_bytes: Option<u64>,
    /// Processes and threads.
    pub processes: Option<u64>,
    /// CPU quota in percent of one core.
    pub cpu_percent: Option<u64>,
    /// The cores its processes may run on (empty: any).
    pub cores: Vec<usize>,
}

/// The control group(s) of one bot process.
#[derive(Debug)]
pub struct BotCgroup {
    /// Each controller's group of the bot (under v2, one directory for all).
    groups: Vec<(Controller, PathBuf)>,
    /// The directories made, in order (removed in reverse).
    dirs: Vec<PathBuf>,
    unified: bool,
    /// `cgroup.procs` of each group, opened before the fork so the child can join with one
    /// `write` before it runs the bot.
    procs: Vec<OwnedFd>,
    /// The file the group's CPU time is read from (`cpuacct.usage`, v2 `cpu.stat`), kept open:
    /// one `pread` per reading, twice per decision.
    cpu_usage: Option<fs::File>,
}

/// A list of cores as cpuset writes it: `0,2,3`.
fn core_list(cores: &[usize]) -> String {
    cores
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl BotCgroup {
    /// Makes groups for one bot process with `limits`. `None` when control groups cannot be
    /// used here (or a required limit cannot be set); a CPU controller the machine lacks is left
    /// out (see [`mechanisms`]).
    pub fn create(limits: &GroupLimits) -> Option<BotCgroup> {
        let h = hierarchy()?;
        let name = format!("bot-{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let mut group = BotCgroup {
            groups: h.dirs.iter().map(|(c, d)| (*c, d.join(&name))).collect(),
            dirs: Vec::new(),
            unified: h.unified,
            procs: Vec::new(),
            cpu_usage: None,
        };
        for (_, dir) in &group.groups {
            if !group.dirs.contains(dir) {
                fs::create_dir(dir).ok()?;
                group.dirs.push(dir.clone());
            }
        }
        group.set_memory(limits.memory_bytes)?;
        if let Some(n) = limits.processes {
            fs::write(group.dir(Controller::Pids)?.join("pids.max"), n.to_string()).ok()?;
        }
        group.set_cpu(limits, h);
        group.cpu_usage = group.dir(Controller::Cpuacct).and_then(|dir| {
            let file = if group.unified {
                "cpu.stat"
            } else {
                "cpuacct.usage"
            };
            fs::File::open(dir.join(file)).ok()
        });
        for dir in &group.dirs {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
                .ok()?;
            group.procs.push(file.into());
        }
        Some(group)
    }

    fn dir(&self, c: Controller) -> Option<&Path> {
        self.groups
            .iter()
            .find(|(k, _)| *k == c)
            .map(|(_, d)| d.as_path())
    }

    fn set_memory(&self, bytes: Option<u64>) -> Option<()> {
        let Some(bytes) = bytes else {
            return Some(());
        };
        let memory = self.dir(Controller::Memory)?;
        if self.unified {
            fs::write(memory.join("memory.max"), bytes.to_string()).ok()?;
            let _ = fs::write(memory.join("memory.swap.max"), "0");
        } else {
            fs::write(memory.join("memory.limit_in_bytes"), bytes.to_string()).ok()?;
            // Where swap is accounted, it cannot be used to go past the limit.
            let _ = fs::write(
                memory.join("memory.memsw.limit_in_bytes"),
                bytes.to_string(),
            );
        }
        Some(())
    }

    /// The CPU quota and the cpuset, where the machine has them (best effort: a value the
    /// kernel refuses leaves that controller's default).
    fn set_cpu(&self, limits: &GroupLimits, h: &Hierarchy) {
        const PERIOD_US: u64 = 100_000;
        if let (Some(percent), Some(dir)) = (limits.cpu_percent, self.dir(Controller::Cpu)) {
            let quota = percent * PERIOD_US / 100;
            if self.unified {
                let _ = fs::write(dir.join("cpu.max"), format!("{quota} {PERIOD_US}"));
            } else {
                let _ = fs::write(dir.join("cpu.cfs_period_us"), PERIOD_US.to_string());
                let _ = fs::write(dir.join("cpu.cfs_quota_us"), quota.to_string());
            }
        }
        if let Some(dir) = self.dir(Controller::Cpuset) {
            if !self.unified {
                // v1 starts a cpuset with no memory node: the referee's own.
                if let Some(parent) = h.dir(Controller::Cpuset) {
                    if let Ok(mems) = fs::read_to_string(parent.join("cpuset.mems")) {
                        let _ = fs::write(dir.join("cpuset.mems"), mems.trim());
                    }
                    if limits.cores.is_empty() {
                        if let Ok(cpus) = fs::read_to_string(parent.join("cpuset.cpus")) {
                            let _ = fs::write(dir.join("cpuset.cpus"), cpus.trim());
                        }
                    }
                }
            }
            if !limits.cores.is_empty() {
                let _ = fs::write(dir.join("cpuset.cpus"), core_list(&limits.cores));
            }
        }
    }

    /// Moves process `pid` (already running) into every group of the bot: for tests and
    /// benchmarks (a bot joins its groups before it runs, through [`BotCgroup::join_fds`]).
    pub fn adopt(&self, pid: u32) -> bool {
        self.dirs
            .iter()
            .all(|dir| fs::write(dir.join("cgroup.procs"), pid.to_string()).is_ok())
    }

    /// The descriptors the child writes `0` to (joining the groups) between fork and exec.
    pub fn join_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// The processes in the group now (host pids).
    pub fn members(&self) -> Vec<i32> {
        let Some(pids) = self.dir(Controller::Pids) else {
            return Vec::new();
        };
        fs::read_to_string(pids.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Kills every process in the group, however it left its process group or session, and
    /// waits (up to a second, without blocking the runtime) until the group is empty.
    pub async fn kill_all(&self) {
        let deadline = Instant::now() + Duration::from_secs(1);
        let Some(pids) = self.dir(Controller::Pids).map(Path::to_path_buf) else {
            return;
        };
        // A frozen process cannot die: thaw the group first.
        self.freeze(false);
        while kill_round(&pids) && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    fn counter(&self, dir: &Path, file: &str, key: &str) -> u64 {
        fs::read_to_string(dir.join(file))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Whether the kernel killed a process of the group for going over the memory limit.
    pub fn oom_killed(&self) -> bool {
        let file = if self.unified {
            "memory.events"
        } else {
            "memory.oom_control"
        };
        self.dir(Controller::Memory)
            .is_some_and(|dir| self.counter(dir, file, "oom_kill ") > 0)
    }

    /// Whether a fork or thread was refused for going over the process limit.
    pub fn process_limit_hit(&self) -> bool {
        self.dir(Controller::Pids)
            .is_some_and(|dir| self.counter(dir, "pids.events", "max ") > 0)
    }

    /// The most memory the group has held, in bytes.
    pub fn peak_memory(&self) -> Option<u64> {
        let file = if self.unified {
            "memory.peak"
        } else {
            "memory.max_usage_in_bytes"
        };
        fs::read_to_string(self.dir(Controller::Memory)?.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// The CPU time all of the bot's processes have used so far (user and system), where the
    /// machine accounts it per group.
    pub fn cpu_time(&self) -> Option<Duration> {
        use std::os::unix::fs::FileExt;
        let file = self.cpu_usage.as_ref()?;
        let mut buf = [0u8; 512];
        let n = file.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        if self.unified {
            let micros = text
                .lines()
                .find_map(|l| l.strip_prefix("usage_usec ")?.trim().parse().ok())?;
            Some(Duration::from_micros(micros))
        } else {
            Some(Duration::from_nanos(text.trim().parse().ok()?))
        }
    }

    /// Freezes (`true`) or thaws the bot's processes; whether the machine can.
    pub fn freeze(&self, frozen: bool) -> bool {
        let Some(dir) = self.dir(Controller::Freezer) else {
            return false;
        };
        if self.unified {
            fs::write(dir.join("cgroup.freeze"), if frozen { "1" } else { "0" }).is_ok()
        } else {
            let state = if frozen { "FROZEN" } else { "THAWED" };
            fs::write(dir.join("freezer.state"), state).is_ok()
        }
    }
}

impl Drop for BotCgroup {
    fn drop(&mut self) {
        self.procs.clear();
        self.cpu_usage = None;
        self.freeze(false);
        if let Some(pids) = self.dir(Controller::Pids) {
            kill_members(pids, Instant::now() + Duration::from_secs(1));
        }
        for dir in self.dirs.iter().rev() {
            remove(dir);
        }
    }
}

#[cfg(test)]
mod tests {
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
}
