//! CPU accounting: a process's CPU seconds ([`Cpu`]), counted by a cgroup v1 `cpuacct` group
//! ([`CpuGroup`]) where there is one ([`Meter`]), the whole machine's, and its load average.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The 1-minute load average.
pub(super) fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN)
}

/// Clock ticks per second of `/proc`'s times.
fn ticks() -> f64 {
    // SAFETY: sysconf with a valid name.
    (unsafe { libc::sysconf(libc::_SC_CLK_TCK) }) as f64
}

/// CPU seconds of a process: its own (all its threads) and its children's (those it reaped,
/// with the children they reaped: here, the bot processes and their sandbox).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cpu {
    /// The process's own.
    pub own: f64,
    /// Its reaped children's.
    pub children: f64,
}

impl Cpu {
    /// Both.
    pub fn total(self) -> f64 {
        self.own + self.children
    }

    /// What was spent since `before`.
    pub(super) fn minus(self, before: Cpu) -> Cpu {
        Cpu {
            own: self.own - before.own,
            children: self.children - before.children,
        }
    }
}

/// A cgroup v1 `cpuacct` group of its own, made for one process and everything it starts, so
/// that their CPU is counted whoever reaps them. `wait4`'s counts miss most of a bot's: a
/// sandboxed bot runs in bubblewrap's PID namespace, and what is still in it when the
/// sandbox is torn down is reaped by no one of ours. The referee makes its bots' groups under
/// its own (`referee/src/seat/cgroup/hierarchy.rs`), so they are counted here too: a group's
/// `cpuacct.usage` includes its descendants', also once they are removed. Removed when
/// dropped (once empty).
pub(super) struct CpuGroup {
    dir: PathBuf,
    procs: std::fs::File,
}

impl CpuGroup {
    /// A new group beside this process's own in the `cpuacct` hierarchy; `None` where there
    /// is no such hierarchy (cgroup v2 only) or it cannot be written.
    pub(super) fn create(tag: &str) -> Option<CpuGroup> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        let (root, mount) = mountinfo.lines().find_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let fields: Vec<&str> = left.split(' ').collect();
            let mut right = right.split(' ');
            let is_cpuacct =
                right.next()? == "cgroup" && right.nth(1)?.split(',').any(|o| o == "cpuacct");
            is_cpuacct.then(|| Some((fields.get(3)?.to_string(), fields.get(4)?.to_string())))?
        })?;
        let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let own = groups.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers
                .split(',')
                .any(|c| c == "cpuacct")
                .then(|| path.to_owned())
        })?;
        let relative = own.strip_prefix(root.as_str()).unwrap_or(&own);
        let dir = Path::new(&mount)
            .join(relative.trim_start_matches('/'))
            .join(format!("ladder-load-{}-{n}-{tag}", std::process::id()));
        std::fs::create_dir(&dir).ok()?;
        match std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join("cgroup.procs"))
        {
            Ok(procs) => Some(CpuGroup { dir, procs }),
            Err(_) => {
                let _ = std::fs::remove_dir(&dir);
                None
            }
        }
    }

    /// Makes `command`'s process enter the group before it runs anything.
    pub(super) fn enter(&self, command: &mut Command) {
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        let fd = self.procs.as_raw_fd();
        // SAFETY: between fork and exec the closure makes one system call, write(2) of a
        // constant to a descriptor open in the parent ("0": the writing process).
        unsafe {
            command.pre_exec(move || {
                if libc::write(fd, b"0".as_ptr().cast(), 1) == 1 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }

    /// The CPU seconds of every process that has been in it or below it.
    pub(super) fn usage_s(&self) -> f64 {
        std::fs::read_to_string(self.dir.join("cpuacct.usage"))
            .ok()
            .and_then(|t| t.trim().parse::<f64>().ok())
            .map_or(0.0, |ns| ns / 1e9)
    }
}

impl Drop for CpuGroup {
    fn drop(&mut self) {
        // Its processes are gone, but groups the referee made below it may be left (`referee
        // ladder serve` leaves its own, empty): a group is removed with rmdir, which refuses
        // one with a process in it.
        /// Removes `dir` and the groups below it, deepest first; whether `dir` is gone.
        fn remove_empty(dir: &Path) -> bool {
            if let Ok(entries) = std::fs::read_dir(dir) {
                for entry in entries.flatten() {
                    if entry.file_type().is_ok_and(|t| t.is_dir()) {
                        remove_empty(&entry.path());
                    }
                }
            }
            std::fs::remove_dir(dir).is_ok() || !dir.exists()
        }
        for _ in 0..100 {
            if remove_empty(&self.dir) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        eprintln!("ladder load: {} could not be removed", self.dir.display());
    }
}

/// How a process's CPU, and that of everything it starts, is counted: its own from `/proc`,
/// the rest from its [`CpuGroup`] where there is one, else from the children it reaped (a
/// lower bound).
pub(super) struct Meter<'a> {
    pub(super) pid: u32,
    pub(super) group: Option<&'a CpuGroup>,
}

impl Meter<'_> {
    /// The CPU seconds so far.
    pub(super) fn read(&self) -> Cpu {
        let seen = process_cpu(self.pid);
        match self.group {
            Some(group) => Cpu {
                own: seen.own,
                children: (group.usage_s() - seen.own).max(0.0),
            },
            None => seen,
        }
    }
}

/// The CPU seconds of process `pid` so far (0 once it is gone), its children's those it reaped.
pub(super) fn process_cpu(pid: u32) -> Cpu {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = text.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<f64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    // utime, stime, cutime, cstime: the stat's fields 14 to 17 (state is 3).
    let field = |i: usize| fields.get(i).copied().unwrap_or(0.0) / ticks();
    Cpu {
        own: field(11) + field(12),
        children: field(13) + field(14),
    }
}

/// CPU seconds the whole machine has spent busy (all but idle and iowait) since it booted.
pub(super) fn machine_cpu_s() -> f64 {
    let text = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let line = text.lines().next().unwrap_or_default();
    let fields: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    let total: f64 = fields.iter().take(8).sum();
    let idle = fields.get(3).copied().unwrap_or(0.0) + fields.get(4).copied().unwrap_or(0.0);
    (total - idle) / ticks()
}
