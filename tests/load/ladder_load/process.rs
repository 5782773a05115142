//! The processes a run starts: the `referee` command, the guard that stops a process left
//! running, and a command run to its end, timed.

use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use super::cpu::{CpuGroup, process_cpu};
use super::{Cpu, Env};

/// A process this run started, stopped with SIGTERM (then SIGKILL after `grace`) if it is
/// still running when this is dropped, so that a failed run leaves nothing behind.
pub(super) struct Guard {
    child: Child,
    reaped: bool,
    grace: Duration,
    /// The process's own CPU seconds when last seen running.
    own_cpu_s: f64,
}

impl Guard {
    /// Guards `child`, giving it `grace` to end after SIGTERM.
    pub(super) fn new(child: Child, grace: Duration) -> Guard {
        Guard {
            child,
            reaped: false,
            grace,
            own_cpu_s: 0.0,
        }
    }

    /// Waits at most `within` for the process to end, reaping it; its status and the CPU
    /// seconds it and the descendants it reaped used, or `None` if it still runs. Its own
    /// CPU seconds, read every 5 ms while it runs, are kept in `own_cpu_s`.
    pub(super) fn wait(&mut self, within: Duration) -> Option<(ExitStatus, f64)> {
        use std::os::unix::process::ExitStatusExt;
        assert!(!self.reaped, "the process was reaped already");
        let deadline = Instant::now() + within;
        loop {
            let mut status = 0;
            // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: wait4 on our own child's pid, with valid pointers.
            let pid = unsafe {
                libc::wait4(
                    self.child.id() as i32,
                    &mut status,
                    libc::WNOHANG,
                    &mut usage,
                )
            };
            if pid > 0 {
                self.reaped = true;
                let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
                return Some((
                    ExitStatus::from_raw(status),
                    seconds(usage.ru_utime) + seconds(usage.ru_stime),
                ));
            }
            assert!(pid == 0, "wait4: {}", std::io::Error::last_os_error());
            let seen = process_cpu(self.child.id()).own;
            self.own_cpu_s = self.own_cpu_s.max(seen);
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends it SIGTERM and waits for it: its status and CPU seconds (see [`Guard::wait`]).
    pub(super) fn stop(&mut self) -> (ExitStatus, f64) {
        signal(&self.child, libc::SIGTERM);
        match self.wait(self.grace) {
            Some(done) => done,
            None => {
                let _ = self.child.kill();
                self.wait(Duration::from_secs(10))
                    .expect("a killed process ends")
            }
        }
    }

    /// The process's id.
    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.reaped {
            signal(&self.child, libc::SIGTERM);
            if self.wait(self.grace).is_none() {
                let _ = self.child.kill();
                let _ = self.wait(Duration::from_secs(10));
            }
        }
    }
}

/// Sends `signal` to `child`, which must not have been reaped.
fn signal(child: &Child, signal: i32) {
    // SAFETY: kill with the pid of a child not reaped yet and a signal number.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
}

/// Runs `command` to its end (at most `within`) in a [`CpuGroup`] of its own where it can:
/// its status, wall seconds and CPU seconds (its own as last seen running, within 5 ms of its
/// end; the rest its children's), and whether the CPU was counted by a group.
pub(super) fn run_timed(
    mut command: Command,
    within: Duration,
    tag: &str,
) -> (ExitStatus, f64, Cpu, bool) {
    let group = CpuGroup::create(tag);
    if let Some(group) = &group {
        group.enter(&mut command);
    }
    let started = Instant::now();
    let mut guard = Guard::new(command.spawn().unwrap(), Duration::from_secs(10));
    let (status, reaped) = guard
        .wait(within)
        .unwrap_or_else(|| panic!("{command:?} did not end within {within:?}"));
    let wall = started.elapsed().as_secs_f64();
    let total = group.as_ref().map_or(reaped, CpuGroup::usage_s);
    let own = guard.own_cpu_s.min(total);
    let cpu = Cpu {
        own,
        children: total - own,
    };
    (status, wall, cpu, group.is_some())
}

/// A `referee` command of `env`, whose `PATH` (which its bots inherit) looks in `/usr/bin` and
/// `/bin` first: the system's interpreters, as a server would have them, rather than a
/// version manager's shim (pyenv's `python3` is a shell script that starts the interpreter,
/// and costs a Python start about twice its own CPU).
pub(super) fn referee(env: &Env) -> Command {
    let mut command = (env.referee)();
    let inherited = std::env::var("PATH").unwrap_or_default();
    command.env("PATH", format!("/usr/bin:/bin:{inherited}"));
    command
}
