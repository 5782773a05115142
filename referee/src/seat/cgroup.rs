//! Control groups for bot processes, where the referee may create them: a memory limit the
//! kernel enforces (and reports when it kills), a process limit that stops fork bombs, and a
//! kill that reaches every process of the bot, even one that left its process group.
//!
//! The referee makes one group per bot process under its own group, in the cgroup v1 `memory`
//! and `pids` hierarchies, or in the unified v2 hierarchy when its own group is the root with
//! both controllers enabled below it. Anything else (no permission, no controller) and
//! [`BotCgroup::create`] returns `None`: the caller falls back to resource limits.

use std::fs;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Where the referee's groups live, found once per run.
#[derive(Debug)]
struct Hierarchy {
    /// The v1 `memory` directory, or the v2 directory holding both controllers.
    memory: PathBuf,
    /// The v1 `pids` directory (the same as `memory` under v2).
    pids: PathBuf,
    /// Whether this is the unified (v2) hierarchy.
    unified: bool,
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

fn find() -> Option<Hierarchy> {
    if let (Some(memory), Some(pids)) = (own_dir(Some("memory")), own_dir(Some("pids"))) {
        let memory = referee_dir(&memory)?;
        let Some(pids) = referee_dir(&pids) else {
            let _ = fs::remove_dir(&memory);
            return None;
        };
        return Some(Hierarchy {
            memory,
            pids,
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
    Some(Hierarchy {
        memory: dir.clone(),
        pids: dir,
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

/// Removes the referee's own (by now empty) directories. Called once at the end of a run.
pub fn cleanup() {
    if let Some(Some(h)) = HIERARCHY.get() {
        let _ = fs::remove_dir(&h.memory);
        if h.pids != h.memory {
            let _ = fs::remove_dir(&h.pids);
        }
    }
}

/// The control group(s) of one bot process.
#[derive(Debug)]
pub struct BotCgroup {
    dirs: Vec<PathBuf>,
    memory: PathBuf,
    pids: PathBuf,
    unified: bool,
    /// `cgroup.procs` of each group, opened before the fork so the child can join with one
    /// `write` before it runs the bot.
    procs: Vec<OwnedFd>,
}

impl BotCgroup {
    /// Makes groups for one bot process with a memory limit of `memory_bytes` (if any) and at
    /// most `processes` processes and threads (if any). `None` when control groups cannot be
    /// used here.
    pub fn create(memory_bytes: Option<u64>, processes: Option<u64>) -> Option<BotCgroup> {
        let h = hierarchy()?;
        let name = format!("bot-{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let memory = h.memory.join(&name);
        let pids = h.pids.join(&name);
        let mut group = BotCgroup {
            dirs: Vec::new(),
            memory: memory.clone(),
            pids: pids.clone(),
            unified: h.unified,
            procs: Vec::new(),
        };
        for dir in [&memory, &pids] {
            if !group.dirs.contains(dir) {
                fs::create_dir(dir).ok()?;
                group.dirs.push(dir.clone());
            }
        }
        if let Some(bytes) = memory_bytes {
            if h.unified {
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
        }
        if let Some(n) = processes {
            fs::write(pids.join("pids.max"), n.to_string()).ok()?;
        }
        for dir in &group.dirs {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
                .ok()?;
            group.procs.push(file.into());
        }
        Some(group)
    }

    /// The descriptors the child writes `0` to (joining the groups) between fork and exec.
    pub fn join_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// The processes in the group now (host pids).
    pub fn members(&self) -> Vec<i32> {
        fs::read_to_string(self.pids.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Kills every process in the group, however it left its process group or session, and
    /// waits (up to a second, without blocking the runtime) until the group is empty.
    pub async fn kill_all(&self) {
        let deadline = Instant::now() + Duration::from_secs(1);
        while kill_round(&self.pids) && Instant::now() < deadline {
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
        self.counter(&self.memory, file, "oom_kill ") > 0
    }

    /// Whether a fork or thread was refused for going over the process limit.
    pub fn process_limit_hit(&self) -> bool {
        self.counter(&self.pids, "pids.events", "max ") > 0
    }

    /// The most memory the group has held, in bytes.
    pub fn peak_memory(&self) -> Option<u64> {
        let file = if self.unified {
            "memory.peak"
        } else {
            "memory.max_usage_in_bytes"
        };
        fs::read_to_string(self.memory.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }
}

impl Drop for BotCgroup {
    fn drop(&mut self) {
        self.procs.clear();
        kill_members(&self.pids, Instant::now() + Duration::from_secs(1));
        for dir in self.dirs.iter().rev() {
            remove(dir);
        }
    }
}
