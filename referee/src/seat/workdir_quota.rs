//! The quota of a bot's working directory: what all its files together may take of the disk
//! (`workdir_mb`, 256 MiB by default; docs/security.md#the-workdir-quota).
//!
//! The kernel has no limit of this kind a process can set for itself (`RLIMIT_FSIZE` bounds one
//! file, project quotas need a file system prepared for them), so the referee enforces it: it
//! measures the directory ([`disk_usage`](super::disk_usage)) before the bot starts — a bot
//! whose workdir is already over its quota is not started — and then, while the bot's process
//! lives, a watcher task measures it again and again. The watcher looks more often the nearer
//! the directory is to its quota and the faster it grows: the pause before the next look is the
//! time the bot would take to fill what is left at the fastest rate it has shown (at least
//! [`ASSUMED_RATE`]), between [`SHORTEST_PAUSE`] and [`LONGEST_PAUSE`], and at least ten times
//! the CPU time the last look cost, so that the watcher takes a tenth of a core at most however
//! many files the bot makes. Over the quota, the watcher records why and kills every process of
//! the bot; the bot's fault, `resource_limit`, is reported wherever its end is seen
//! ([`ProcessBot`](super::ProcessBot)'s exit faults). What the bot wrote is left on disk, for
//! the organiser to look at. A breach is the bot's doing, so a look returns it as a message for
//! its fault, not as an error. The directory measured is the one admitted when the run started,
//! through its descriptor ([`AdmittedWorkdir`]), whatever its name leads to now.

use super::Fault;
use super::admitted_workdir::AdmittedWorkdir;
use super::cgroup::{BotCgroup, GroupClock, GroupKiller};
use super::disk_usage::{self, MAX_ENTRIES, UsageError};
use protocol::FaultKind;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::time::Instant;

/// The shortest pause between two looks at a workdir: near its quota, or growing fast.
pub const SHORTEST_PAUSE: Duration = Duration::from_millis(10);
/// The longest pause between two looks at a workdir: far from its quota, or not growing.
pub const LONGEST_PAUSE: Duration = Duration::from_millis(100);
/// The rate of writing the watcher assumes a bot may reach before it has seen a faster one, in
/// bytes per second: about what one core copies into the page cache (a bot's processes get one
/// core where a control group enforces `cpu_percent`). A Python bot wrote 1.5 to 3.4 GB/s here.
pub const ASSUMED_RATE: f64 = (4u64 << 30) as f64;

/// A workdir and what it may hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkdirQuota {
    /// The directory.
    pub dir: AdmittedWorkdir,
    /// Its quota, in bytes.
    pub bytes: u64,
}

/// One look at a workdir: its usage in bytes, or why it breaks its quota.
type Look = Result<u64, String>;

/// A usage over a quota of `quota_mib` MiB, in MiB: whole, unless rounding would show it at
/// or under the quota.
fn shown_mib(bytes: u64, quota_mib: u64) -> String {
    let mib = bytes as f64 / (1u64 << 20) as f64;
    if mib.round() as u64 > quota_mib {
        format!("{mib:.0}")
    } else {
        format!("{mib:.1}")
    }
}

impl WorkdirQuota {
    /// The quota of a bot with `workdir` and a quota of `bytes`, if it has both.
    pub fn new(workdir: Option<&AdmittedWorkdir>, bytes: Option<u64>) -> Option<WorkdirQuota> {
        Some(WorkdirQuota {
            dir: workdir?.clone(),
            bytes: bytes?,
        })
    }

    /// Measures the workdir now (blocking: a walk of it): its usage in bytes, or the message
    /// of a breach — over the quota, or not measurable (a directory the referee cannot read,
    /// too many entries).
    pub fn look(&self) -> Look {
        let shown = self.dir.path().display();
        let quota = self.bytes >> 20;
        let through_fd = self.dir.through_fd();
        // What cannot be read is named by its path from the workdir's, not from the descriptor's.
        let named = |e: UsageError| match e {
            UsageError::Unreadable { path, source } => UsageError::Unreadable {
                path: match path.strip_prefix(&through_fd) {
                    Ok(rest) => self.dir.path().join(rest),
                    Err(_) => path,
                },
                source,
            },
            e => e,
        };
        match disk_usage::measure(&through_fd, MAX_ENTRIES).map_err(named) {
            Ok(usage) if usage.bytes > self.bytes => Err(format!(
                "workdir {shown} uses {} MiB, over its quota of {quota} MiB (--workdir-mb)",
                shown_mib(usage.bytes, quota)
            )),
            Ok(usage) => Ok(usage.bytes),
            Err(e) => Err(format!(
                "workdir {shown} cannot be measured against its quota of {quota} MiB (--workdir-mb): {e}"
            )),
        }
    }

    /// The quota of a bot about to start with `workdir` and a quota of `bytes` (`None` when it
    /// has no workdir or no quota), looked at.
    ///
    /// # Errors
    /// A [`FaultKind::ResourceLimit`] fault when the workdir breaks its quota already: the bot is
    /// not to be started.
    pub async fn before_start(
        workdir: Option<&AdmittedWorkdir>,
        bytes: Option<u64>,
    ) -> Result<Option<WorkdirQuota>, Fault> {
        let Some(quota) = WorkdirQuota::new(workdir, bytes) else {
            return Ok(None);
        };
        match quota.look_aside().await {
            Ok(_) => Ok(Some(quota)),
            Err(breach) => Err(Fault::new(
                FaultKind::ResourceLimit,
                format!("{breach}: the bot is not started"),
            )),
        }
    }

    /// [`WorkdirQuota::look`] on a blocking thread.
    pub async fn look_aside(&self) -> Look {
        let quota = self.clone();
        tokio::task::spawn_blocking(move || quota.look())
            .await
            .unwrap_or_else(|e| Err(format!("the measure of the workdir failed: {e}")))
    }

    /// Starts watching the workdir of the bot process `pid` (the leader of its process group),
    /// whose control group `group` kills, if it has one.
    ///
    /// Where the group accounts CPU time, a look is made only when the bot has used some since
    /// the last one: a process that has not run has written nothing (a kept bot between matches,
    /// a bot off move, a bot waiting for its turn cost the watcher one read of its clock).
    pub fn watch(self, pid: u32, group: Option<&BotCgroup>) -> QuotaWatch {
        let breach = Arc::new(OnceLock::new());
        let stop = Stop {
            pidfd: pidfd_open(pid),
            pgid: pid as i32,
            group: group.and_then(BotCgroup::killer),
        };
        let clock = group.and_then(BotCgroup::clock);
        let looks = Arc::new(AtomicU64::new(0));
        let task = tokio::spawn(watch(
            self.clone(),
            stop,
            clock,
            Arc::clone(&breach),
            Arc::clone(&looks),
        ));
        QuotaWatch {
            quota: self,
            breach,
            looks,
            task,
        }
    }
}

/// A watcher of one bot process's workdir, stopped when dropped.
#[derive(Debug)]
pub struct QuotaWatch {
    quota: WorkdirQuota,
    breach: Arc<OnceLock<String>>,
    /// How many looks it has made.
    looks: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl QuotaWatch {
    /// Why the bot broke its quota, if it did, for the fault of a bot whose end is seen: what
    /// the watcher recorded when it stopped the bot, or else what a look now finds (a bot may
    /// fill its workdir and exit between two looks).
    pub async fn breach(&self) -> Option<String> {
        if let Some(message) = self.breach.get() {
            return Some(format!("{message}: the referee stopped the bot"));
        }
        self.quota.look_aside().await.err()
    }

    /// How many looks at the workdir the watcher has made so far.
    pub fn looks(&self) -> u64 {
        self.looks.load(Ordering::Relaxed)
    }

    /// Stops watching (the bot is being stopped).
    pub fn stop(&self) {
        self.task.abort();
    }
}

impl Drop for QuotaWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The pause before the next look at a workdir with `headroom` bytes left under its quota,
/// which grew at `rate` bytes per second since the last look, which cost `cost` of CPU time.
pub fn next_pause(headroom: u64, rate: f64, cost: Duration) -> Duration {
    let rate = rate.max(ASSUMED_RATE);
    let fill = Duration::from_secs_f64((headroom as f64 / rate).min(1.0));
    fill.clamp(SHORTEST_PAUSE, LONGEST_PAUSE).max(cost * 10)
}

/// Looks at the workdir until it breaks its quota, then records why and kills the bot.
async fn watch(
    quota: WorkdirQuota,
    stop: Stop,
    clock: Option<GroupClock>,
    breach: Arc<OnceLock<String>>,
    looks: Arc<AtomicU64>,
) {
    // The look before the start found it under its quota.
    let mut pause = SHORTEST_PAUSE;
    let mut last: Option<(Instant, u64)> = None;
    // The bot's CPU time when the last look began: what it wrote before then, that look saw.
    let mut ran_until: Option<Duration> = None;
    let stop = Arc::new(stop);
    loop {
        tokio::time::sleep(pause).await;
        let cpu = clock.as_ref().and_then(GroupClock::cpu_time);
        if cpu.is_some() && cpu == ran_until {
            // Not one of its processes has run since: nothing can have grown.
            continue;
        }
        ran_until = cpu;
        looks.fetch_add(1, Ordering::Relaxed);
        let (quota_now, stop_now, breach_now) =
            (quota.clone(), Arc::clone(&stop), Arc::clone(&breach));
        // The look, and the kill after a breach, on a blocking thread: a walk of many files
        // must not hold up the runtime that times the bots.
        let looked = tokio::task::spawn_blocking(move || {
            let began = thread_cpu_time();
            let look = quota_now.look();
            if let Err(message) = &look {
                // Recorded before the kill, so that whoever sees the bot end knows why.
                let _ = breach_now.set(message.clone());
                stop_now.kill();
            }
            look.map(|used| (used, thread_cpu_time().saturating_sub(began)))
        })
        .await;
        let (used, cost) = match looked {
            Ok(Ok(look)) => look,
            _ => return,
        };
        let now = Instant::now();
        let rate = match last {
            Some((at, before)) if used > before => {
                (used - before) as f64 / now.duration_since(at).as_secs_f64().max(1e-6)
            }
            _ => 0.0,
        };
        last = Some((now, used));
        pause = next_pause(quota.bytes.saturating_sub(used), rate, cost);
    }
}

/// The CPU time the calling thread has used: what a look costs, whatever the wait for a core.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec we pass and nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Kills a bot's processes from the watcher.
#[derive(Debug)]
struct Stop {
    /// A descriptor of the bot's first process (the group's leader), while it can be opened.
    pidfd: Option<OwnedFd>,
    /// Its process group.
    pgid: i32,
    /// Its control group's killer, if it has one.
    group: Option<GroupKiller>,
}

impl Stop {
    /// Kills the process group, while its leader has not been reaped (until then its id, the
    /// group's, cannot be another's), and every process of the control group.
    fn kill(&self) {
        let leader_there = match &self.pidfd {
            // SAFETY: a signal 0 to a pidfd we own checks only that the process is not reaped.
            Some(fd) => unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    fd.as_raw_fd(),
                    0,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                ) == 0
            },
            // SAFETY: kill(2) with signal 0 checks only that the process exists.
            None => unsafe { libc::kill(self.pgid, 0) == 0 },
        };
        if leader_there {
            // SAFETY: killpg(2) on the group of a process of ours that is not reaped yet.
            unsafe {
                libc::killpg(self.pgid, libc::SIGKILL);
            }
        }
        if let Some(group) = &self.group {
            group.kill();
        }
    }
}

/// A pidfd of process `pid`, if the kernel has them (Linux 5.3).
fn pidfd_open(pid: u32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open returns a new descriptor we own, or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    // SAFETY: a descriptor just opened, owned by nothing else.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::admitted_workdir::tests::admitted;

    #[test]
    fn the_watcher_looks_more_often_near_the_quota_and_when_writes_are_fast() {
        let mib = 1u64 << 20;
        let cheap = Duration::from_micros(300);
        // Far from the quota, and not growing: the longest pause.
        assert_eq!(next_pause(1024 * mib, 0.0, cheap), LONGEST_PAUSE);
        // Closer: the time the assumed rate takes to fill what is left.
        let half = next_pause(128 * mib, 0.0, cheap);
        assert!(half > SHORTEST_PAUSE && half < LONGEST_PAUSE, "{half:?}");
        // At the quota, or written at ten times the assumed rate: the shortest.
        assert_eq!(next_pause(0, 0.0, cheap), SHORTEST_PAUSE);
        assert_eq!(
            next_pause(50 * mib, 10.0 * ASSUMED_RATE, cheap),
            SHORTEST_PAUSE
        );
        // A look that cost much: ten times its cost.
        let dear = Duration::from_millis(30);
        assert_eq!(next_pause(0, 0.0, dear), dear * 10);
    }

    #[test]
    fn a_look_tells_the_usage_or_the_breach_in_mib() {
        let dir = tempfile::tempdir().unwrap();
        let held = admitted(dir.path());
        let quota = WorkdirQuota::new(Some(&held), Some(1 << 20)).unwrap();
        assert!(quota.look().unwrap() < 1 << 20);
        std::fs::write(dir.path().join("data"), vec![1u8; 3 << 20]).unwrap();
        let message = quota.look().unwrap_err();
        let shown = held.path().display();
        assert_eq!(
            message,
            format!("workdir {shown} uses 3 MiB, over its quota of 1 MiB (--workdir-mb)")
        );
        assert_eq!(shown_mib((64 << 20) + (100 << 10), 64), "64.1");
        assert_eq!(shown_mib(301 << 20, 256), "301");
        assert_eq!(WorkdirQuota::new(None, Some(1)), None);
        assert_eq!(WorkdirQuota::new(Some(&held), None), None);
        // Its name taken by another directory: the one admitted is measured.
        let moved = tempfile::tempdir().unwrap();
        std::fs::rename(dir.path(), moved.path().join("w")).unwrap();
        std::fs::create_dir(dir.path()).unwrap();
        assert!(quota.look().unwrap_err().contains("uses 3 MiB"));
    }

    /// Runs `test` on a one-thread runtime.
    fn on_runtime(test: impl std::future::Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(test);
    }

    /// `sh -c script` in `dir`, a process group of its own, its input a pipe.
    fn shell_in(dir: &std::path::Path, script: &str) -> tokio::process::Child {
        tokio::process::Command::new("sh")
            .args(["-c", script])
            .current_dir(dir)
            .stdin(std::process::Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .unwrap()
    }

    /// Waits for `writer` to be killed: within a bound only a watcher that never stops it
    /// reaches.
    async fn killed(writer: &mut tokio::process::Child) {
        use std::os::unix::process::ExitStatusExt;
        let status = tokio::time::timeout(Duration::from_secs(120), writer.wait())
            .await
            .expect("the writer was never stopped")
            .unwrap();
        assert_eq!(status.signal(), Some(libc::SIGKILL));
    }

    #[test]
    fn the_watcher_stops_a_writer_over_its_quota_and_says_why() {
        on_runtime(async {
            let dir = tempfile::tempdir().unwrap();
            let held = admitted(dir.path());
            let quota = WorkdirQuota::new(Some(&held), Some(4 << 20)).unwrap();
            // A writer without end, and a child of it writing beside it.
            let script = "head -c 1048576 /dev/zero >> a & \
                              while :; do head -c 1048576 /dev/zero >> b; done";
            let mut writer = shell_in(dir.path(), script);
            let watch = quota.watch(writer.id().unwrap(), None);
            killed(&mut writer).await;
            let breach = watch.breach().await.unwrap();
            let shown = held.path().display();
            assert!(
                breach.starts_with(&format!("workdir {shown} uses "))
                    && breach.ends_with(
                        "over its quota of 4 MiB (--workdir-mb): the referee stopped the bot"
                    ),
                "{breach}"
            );
        });
    }

    #[test]
    fn with_its_group_s_clock_the_watcher_looks_only_after_the_bot_ran() {
        use crate::seat::cgroup::{BotCgroup, GroupLimits, mechanisms};
        let m = mechanisms();
        if !(m.groups && m.cpu_time) {
            // `.ci/run` gives CI every controller: there, a test that cannot run fails.
            assert!(
                std::env::var_os("CI").is_none(),
                "the watcher's clock test cannot run here (no group with CPU time: {m:?}), and under CI a test does not skip"
            );
            eprintln!("SKIPPED watcher clock test: no control group with CPU time here ({m:?})");
            return;
        }
        on_runtime(async {
            let dir = tempfile::tempdir().unwrap();
            let held = admitted(dir.path());
            let quota = WorkdirQuota::new(Some(&held), Some(4 << 20)).unwrap();
            let group = BotCgroup::create(&GroupLimits::default()).expect("a group");
            // Asleep until its input closes, then a writer without end.
            let script = "read line; while :; do head -c 1048576 /dev/zero >> b; done";
            let mut writer = shell_in(dir.path(), script);
            assert!(group.adopt(writer.id().unwrap()));
            let watch = quota.watch(writer.id().unwrap(), Some(&group));
            // Once asleep in its read (its CPU time still over 200 ms), a second of sleep:
            // ten pauses of the watcher at the longest, and at most one look, for CPU
            // time used before then.
            let clock = group.clock().unwrap();
            loop {
                let before = clock.cpu_time();
                tokio::time::sleep(Duration::from_millis(200)).await;
                if clock.cpu_time() == before {
                    break;
                }
            }
            let before = watch.looks();
            tokio::time::sleep(Duration::from_secs(1)).await;
            let asleep = watch.looks();
            assert!(
                asleep <= before + 1,
                "{} looks at a bot asleep",
                asleep - before
            );
            drop(writer.stdin.take());
            killed(&mut writer).await;
            assert!(watch.looks() > asleep);
            let breach = watch.breach().await.unwrap();
            assert!(breach.ends_with("the referee stopped the bot"), "{breach}");
        });
    }
}
