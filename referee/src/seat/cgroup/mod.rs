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

//!
//! `hierarchy.rs` finds where the groups live; this file makes and reads one bot's groups.

mod hierarchy;
#[cfg(test)]
mod tests;

use hierarchy::{Controller, Hierarchy, hierarchy, kill_members, kill_round, remove};
pub use hierarchy::{Mechanisms, available, cleanup, describe, mechanisms};
use std::fs;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

static NEXT: AtomicU64 = AtomicU64::new(0);

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

    /// A handle that kills every process of the group from elsewhere than its owner (the
    /// workdir watcher, [`crate::seat::workdir_quota`]), for as long as the group exists.
    pub fn killer(&self) -> Option<GroupKiller> {
        self.dir(Controller::Pids).map(|pids| GroupKiller {
            pids: pids.to_path_buf(),
        })
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
        read_cpu_time(self.cpu_usage.as_ref()?, self.unified)
    }

    /// A handle that reads the group's CPU time from elsewhere than its owner (the workdir
    /// watcher, which looks only when the bot has run since its last look), where the machine
    /// accounts it per group.
    pub fn clock(&self) -> Option<GroupClock> {
        let file = self.cpu_usage.as_ref()?.try_clone().ok()?;
        Some(GroupClock {
            file,
            unified: self.unified,
        })
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

/// The number `bytes` begin with (decimal digits up to the first other byte), if any.
fn decimal(bytes: &[u8]) -> Option<u64> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit());
    let mut value: u64 = 0;
    let mut any = false;
    for &d in digits {
        value = value.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        any = true;
    }
    any.then_some(value)
}

/// Kills every process of one bot's group ([`BotCgroup::killer`]); once the group is removed,
/// nothing.
#[derive(Clone, Debug)]
pub struct GroupKiller {
    pids: PathBuf,
}

impl GroupKiller {
    /// Kills every process in the group, blocking until it is empty, at most a second. A frozen
    /// process dies when its group is thawed (the owner's kill thaws it).
    pub fn kill(&self) {
        kill_members(&self.pids, Instant::now() + Duration::from_secs(1));
    }
}

/// Reads a group's CPU time from elsewhere than its owner ([`BotCgroup::clock`]).
#[derive(Debug)]
pub struct GroupClock {
    file: fs::File,
    unified: bool,
}

impl GroupClock {
    /// The CPU time all of the bot's processes have used so far; `None` once the group is
    /// gone.
    pub fn cpu_time(&self) -> Option<Duration> {
        read_cpu_time(&self.file, self.unified)
    }
}

/// The CPU time in `file`, a group's `cpuacct.usage` (v1) or `cpu.stat` (v2, `unified`).
fn read_cpu_time(file: &fs::File, unified: bool) -> Option<Duration> {
    use std::os::unix::fs::FileExt;
    let mut buf = [0u8; 512];
    let n = file.read_at(&mut buf, 0).ok()?;
    if unified {
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        let micros = text
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec ")?.trim().parse().ok())?;
        Some(Duration::from_micros(micros))
    } else {
        // One number of nanoseconds and a newline, read twice per decision: its digits are
        // added up directly.
        Some(Duration::from_nanos(decimal(&buf[..n])?))
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
