//! Running a build command in the bots' sandbox ([`Sandbox::wrap`]: bubblewrap with no
//! network, a read-only system, the places the ladder hides replaced by empty ones, a private
//! `/tmp`) with its directory the only one writable, and the build's caps: wall time (then
//! every process of it killed: its process group, its control group, and bubblewrap's PID
//! namespace with them), memory (a control group where one can be made, else `RLIMIT_AS`, as
//! for bots), disk (the bots' workdir quota watcher on the build directory, `RLIMIT_FSIZE`,
//! and a `/tmp` of the same size). No system-call filter: compilers lock files (cargo and go
//! take `flock`s), which the bots' filter refuses.

use super::BuildError;
use super::log::CappedLog;
use super::outcome::{BuildStop, MemoryCap};
use referee::seat::Sandbox;
use referee::seat::admitted_workdir::AdmittedWorkdir;
use referee::seat::cgroup::{BotCgroup, GroupLimits};
use referee::seat::hidden_paths::{self, HiddenPath};
use referee::seat::limits::{self, ResourceLimits};
use referee::seat::proc_view::FixedFiles;
use referee::seat::workdir_marker::OpenDir;
use referee::seat::workdir_quota::WorkdirQuota;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Processes and threads a build may have at once.
pub const BUILD_PROCESSES: u64 = 1024;

/// How long the log is still read after the build ended (a process that escaped the kill
/// and holds the pipe open).
const LOG_GRACE: Duration = Duration::from_secs(5);

/// The caps of one build command.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Wall time.
    pub time: Duration,
    /// Memory, in MiB.
    pub memory_mb: u64,
    /// What the directory (and `/tmp`) may hold, in MiB.
    pub disk_mb: u64,
}

/// Where and how builds run.
#[derive(Clone, Debug)]
pub struct BuildSandbox {
    /// The sandbox (bubblewrap, resolved by the caller; [`Sandbox::None`] runs builds as plain
    /// processes).
    pub sandbox: Sandbox,
    /// Places no build may see: the ladder's database, its artifacts, the other builds.
    pub hidden: Vec<PathBuf>,
}

/// The system's secrets that no build sees, where they are: a worker run as root could read
/// them (its home is hidden anyway, [`super::mounts`]).
pub const SYSTEM_SECRETS: [&str; 3] = ["/etc/shadow", "/etc/gshadow", "/etc/ssh"];

impl BuildSandbox {
    /// The sandbox of builds for `mode` (bubblewrap where it works, for `auto`; a warning to
    /// show when `auto` falls back to none), with `hidden` and [`SYSTEM_SECRETS`] hidden.
    ///
    /// # Errors
    /// When `bwrap` is asked for and is missing or does not work here.
    pub fn resolve(
        mode: referee::seat::SandboxMode,
        hidden: Vec<PathBuf>,
    ) -> Result<(BuildSandbox, Option<String>), referee::seat::sandbox::SandboxError> {
        let (sandbox, warning) = Sandbox::resolve(mode)?;
        Ok((BuildSandbox::new(sandbox, hidden), warning))
    }

    /// Builds in `sandbox`, with `hidden` and [`SYSTEM_SECRETS`] hidden.
    pub fn new(sandbox: Sandbox, mut hidden: Vec<PathBuf>) -> BuildSandbox {
        hidden.extend(
            SYSTEM_SECRETS
                .iter()
                .map(PathBuf::from)
                .filter(|p| p.symlink_metadata().is_ok()),
        );
        BuildSandbox { sandbox, hidden }
    }
}

/// A command that ran.
#[derive(Debug)]
pub struct Ran {
    /// Whether it exited with success.
    pub success: bool,
    /// How it ended, in words.
    pub ending: String,
    /// Why it was stopped, if it was.
    pub stopped: Option<BuildStop>,
    /// How its memory cap was enforced.
    pub memory_cap: MemoryCap,
    /// Its output, capped.
    pub log: CappedLog,
    /// How long it took.
    pub duration: Duration,
}

/// Runs `command` in `dir` in the sandbox under `caps`, with `env` as its whole environment
/// and the bubblewrap arguments `mounts` ([`super::mounts`]) after the sandbox's own.
///
/// # Errors
/// [`BuildError`] when the command cannot be started (a fault of the platform: the build is
/// to be tried again, not held against the bot).
pub async fn run(
    command: &[String],
    dir: &Path,
    env: &BTreeMap<OsString, OsString>,
    mounts: &[String],
    caps: Caps,
    sandbox: &BuildSandbox,
) -> Result<Ran, BuildError> {
    let platform =
        |what: &str, e: &dyn std::fmt::Display| BuildError::Platform(format!("{what}: {e}"));
    let workdir = AdmittedWorkdir::new(
        OpenDir::open(dir).map_err(|e| platform("cannot open the build directory", &e))?,
    );
    let resources = ResourceLimits {
        memory_mb: Some(caps.memory_mb),
        processes: Some(BUILD_PROCESSES),
        file_mb: Some(caps.disk_mb),
        workdir_mb: Some(caps.disk_mb),
        cpu_percent: Some(0),
        ..ResourceLimits::default()
    };
    let hidden: Vec<HiddenPath> = sandbox.hidden.iter().map(|p| HiddenPath::find(p)).collect();
    let places = hidden_paths::places(&hidden, Some(&workdir))
        .map_err(|e| platform("cannot find what to hide", &e))?;
    if let Some(place) = places.iter().find(|p| workdir.path().starts_with(&p.path)) {
        return Err(BuildError::Platform(format!(
            "the build directory {} is inside the hidden {}",
            dir.display(),
            place.path.display()
        )));
    }
    let mut wrapped = sandbox.sandbox.wrap(
        command,
        dir,
        Some(&workdir),
        &places,
        resources.file_bytes(),
        &FixedFiles::default(),
    );
    // The mounts go last, before `--chdir`: after the private /tmp they may land in.
    if sandbox.sandbox.is_bwrap()
        && let Some(at) = wrapped.args.iter().position(|a| a == "--chdir")
    {
        wrapped.args.splice(at..at, mounts.iter().cloned());
    }
    let quota = match WorkdirQuota::before_start(Some(&workdir), resources.workdir_bytes()).await {
        Ok(quota) => quota,
        // The source alone is over the disk cap: the bot's doing, not the platform's.
        Err(fault) => {
            let message = disk_words(&fault.message);
            return Ok(Ran {
                success: false,
                ending: format!("the build was not started: {message}"),
                stopped: Some(BuildStop::Disk { message }),
                memory_cap: MemoryCap::Rlimit,
                log: CappedLog::default(),
                duration: Duration::ZERO,
            });
        }
    };
    let cgroup = BotCgroup::create(&GroupLimits {
        memory_bytes: resources.memory_bytes(),
        processes: resources.processes(),
        cpu_percent: None,
        cores: Vec::new(),
    });
    let memory_cap = if cgroup.is_some() {
        MemoryCap::Cgroup
    } else {
        MemoryCap::Rlimit
    };
    let (reader, writer) = std::io::pipe().map_err(|e| platform("cannot make a pipe", &e))?;
    let (program, args) = wrapped.args.split_first().expect("a program");
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
        .env_clear()
        .envs(env)
        .stdin(std::process::Stdio::null())
        .stdout(
            writer
                .try_clone()
                .map_err(|e| platform("cannot copy a pipe", &e))?,
        )
        .stderr(writer)
        .process_group(0)
        .kill_on_drop(true);
    if !sandbox.sandbox.is_bwrap() {
        command.current_dir(dir);
    }
    let join_fds = cgroup.as_ref().map(BotCgroup::join_fds).unwrap_or_default();
    let rlimits = resources.rlimits(cgroup.is_some());
    let keep = wrapped.keep.clone();
    // SAFETY: between fork and exec the closure only calls write, setrlimit, prctl and fcntl
    // (async-signal-safe) on values made before the fork.
    unsafe {
        command.pre_exec(move || {
            for &fd in &join_fds {
                if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            limits::apply(&rlimits)?;
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            for &fd in &keep {
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| platform(&format!("cannot start {program}"), &e))?;
    // Our ends of the log's pipe close with the command: the log ends when the build's do.
    drop(command);
    drop(workdir);
    let pid = child.id().unwrap_or(0);
    let watch = quota.map(|q| q.watch(pid, cgroup.as_ref()));
    let log = Arc::new(Mutex::new(CappedLog::default()));
    let reading = tokio::task::spawn_blocking({
        let log = Arc::clone(&log);
        move || read_log(reader, &log)
    });
    let status = match tokio::time::timeout(caps.time, child.wait()).await {
        Ok(status) => Some(status.map_err(|e| platform("cannot wait for the build", &e))?),
        Err(_) => None,
    };
    // Whatever is left of it, ended.
    if pid != 0 {
        // SAFETY: kill only sends a signal to the build's process group.
        unsafe { libc::kill(-(pid as i32), libc::SIGKILL) };
    }
    if let Some(group) = &cgroup {
        group.kill_all().await;
    }
    let status = match status {
        Some(status) => Some(status),
        None => {
            let _ = child.wait().await;
            None
        }
    };
    let duration = started.elapsed();
    let breach = match &watch {
        Some(watch) => {
            watch.stop();
            watch.breach().await
        }
        None => None,
    };
    // What was read, even if a process that escaped the kill still holds the pipe.
    let _ = tokio::time::timeout(LOG_GRACE, reading).await;
    let log = std::mem::take(&mut *log.lock().unwrap_or_else(|e| e.into_inner()));
    let oom = cgroup.as_ref().is_some_and(BotCgroup::oom_killed);
    let stopped = if status.is_none() {
        Some(BuildStop::Time {
            seconds: caps.time.as_secs(),
        })
    } else if let Some(message) = breach {
        Some(BuildStop::Disk {
            message: disk_words(&message),
        })
    } else if oom {
        Some(BuildStop::Memory { mb: caps.memory_mb })
    } else {
        None
    };
    let ending = match (&stopped, status) {
        (Some(BuildStop::Time { seconds }), _) => {
            format!("the build was stopped at its time cap of {seconds} s")
        }
        (Some(BuildStop::Disk { message }), _) => {
            format!("the build was stopped at its disk cap: {message}")
        }
        (Some(BuildStop::Memory { mb }), _) => {
            format!("the build was stopped at its memory cap of {mb} MiB")
        }
        (None, Some(status)) => match status.code() {
            Some(code) => format!("the build exited with {code}"),
            None => format!("the build was killed ({status})"),
        },
        (None, None) => unreachable!("no status is a stop at the time cap"),
    };
    Ok(Ran {
        success: stopped.is_none() && status.is_some_and(|s| s.success()),
        ending,
        stopped,
        memory_cap,
        log,
        duration,
    })
}

/// Reads the build's output into `log` until every writer has closed it.
fn read_log(mut reader: std::io::PipeReader, log: &Mutex<CappedLog>) {
    let mut buffer = vec![0; 64 << 10];
    while let Ok(n) = reader.read(&mut buffer) {
        if n == 0 {
            break;
        }
        log.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(&buffer[..n]);
    }
}

/// The workdir quota's message (the bots' watcher's), said of a build.
fn disk_words(message: &str) -> String {
    message
        .replace(" (--workdir-mb)", " (disk_mb)")
        .replace("the bot", "the build")
}
