//! Launching a bot process: the command wrapped in its sandbox, its control groups, its limits,
//! its workdir and its user, its pipes, and what its child does between fork and exec.

use super::ProcessBot;
use super::stderr_watch::watch_stderr;
use crate::seat::Fault;
use crate::seat::admitted_workdir::AdmittedWorkdir;
use crate::seat::cgroup::{BotCgroup, GroupLimits};
use crate::seat::environment;
use crate::seat::hidden_paths;
use crate::seat::limits::{self, RlimitResource};
use crate::seat::pipe::Pipe;
use crate::seat::proc_view::FixedFiles;
use crate::seat::process_options::ProcessOptions;
use crate::seat::procfs;
use crate::seat::seccomp::BotFilter;
use crate::seat::users::Credentials;
use crate::seat::wire::Wire;
use crate::seat::workdir_quota::WorkdirQuota;
use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop, ProcessGroup};
use protocol::FaultKind;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::process::Stdio;

impl ProcessBot {
    /// Starts `command` (program and arguments) in a new process group with piped stdio.
    ///
    /// # Errors
    /// A [`FaultKind::SpawnFailed`] fault when the program cannot be started, or not as the
    /// user it must run as ([`ProcessOptions::run_as`]); a [`FaultKind::ResourceLimit`] fault
    /// when its workdir is over its quota already.
    pub async fn spawn(command: &[String], options: &ProcessOptions) -> Result<Self, Fault> {
        if command.is_empty() {
            return Err(Fault::new(FaultKind::SpawnFailed, "empty command"));
        }
        let user = options
            .run_as
            .lease()
            .map_err(|e| Fault::new(FaultKind::SpawnFailed, e))?;
        let credentials = user.as_ref().map(|u| u.credentials);
        let limits = options.limits;
        // The workdir admitted when the run started, still at its name.
        let workdir = options.workdir.as_ref();
        if let Some(dir) = workdir {
            dir.check_named().map_err(|e| spawn_failed(&e))?;
        }
        let quota = WorkdirQuota::before_start(workdir, limits.workdir_bytes()).await?;
        let cgroup = BotCgroup::create(&GroupLimits {
            memory_bytes: limits.memory_bytes(),
            processes: limits.processes(),
            cpu_percent: limits.cpu_percent(),
            // The cores of the thread starting it: a pinned worker's core.
            cores: crate::affinity::allowed_cores(),
        });
        let mut child = start(command, options, credentials, cgroup.as_ref())?;
        let pid = child.id().unwrap_or(0);
        let quota = quota.map(|q| q.watch(pid, cgroup.as_ref()));
        let stdin = child.stdin().take().expect("stdin is piped");
        let (stdout, stderr_pipe, stderr_probe) = pipes(&mut *child).map_err(|e| {
            Fault::new(
                FaultKind::SpawnFailed,
                format!("cannot read the pipes of '{}': {e}", command[0]),
            )
        })?;
        let stdout_pipe = procfs::pipe_inode(stdout.as_raw_fd());
        let stderr = watch_stderr(stderr_pipe, options).await;
        Ok(ProcessBot {
            child,
            wire: Wire::new(stdout, stdin, options.max_line_bytes),
            stderr: stderr.tail,
            drain: Some(stderr.drain),
            pid,
            alive: true,
            cgroup,
            sandboxed: options.sandbox.is_bwrap(),
            limits,
            stdout_pipe,
            stderr_probe,
            stderr_count: stderr.count,
            stderr_gate: stderr.gate,
            stderr_file: stderr.file,
            exit_grace: options.exit_grace,
            _user: user,
            quota,
        })
    }
}

/// A `spawn_failed` fault saying `e`.
fn spawn_failed(e: &dyn std::fmt::Display) -> Fault {
    Fault::new(FaultKind::SpawnFailed, e.to_string())
}

/// Spawns `command` as `options` say, wrapped in its sandbox, in a new process group that is
/// killed when dropped, as `user` if it runs as a user of its own, joining `cgroup`.
fn start(
    command: &[String],
    options: &ProcessOptions,
    user: Option<Credentials>,
    cgroup: Option<&BotCgroup>,
) -> Result<Box<dyn ChildWrapper>, Fault> {
    let limits = options.limits;
    let workdir = options.workdir.as_ref();
    let rlimits = limits.rlimits(cgroup.is_some());
    // Held until the child has exec'd: bubblewrap reads the copies from these descriptors.
    let (fixed, hidden) = if options.sandbox.is_bwrap() {
        let fixed = FixedFiles::for_start()
            .map_err(|e| Fault::new(FaultKind::SpawnFailed, format!("cannot copy /proc: {e}")))?;
        let hidden =
            hidden_paths::places(&options.hidden, workdir).map_err(|e| spawn_failed(&e))?;
        (fixed, options.run_as.nameable(hidden))
    } else {
        (FixedFiles::default(), Vec::new())
    };
    let from = options.from_dir();
    let wrapped = options.sandbox.wrap(
        command,
        &from,
        workdir,
        &hidden,
        limits.file_bytes(),
        &fixed,
    );
    let (program, args) = wrapped.args.split_first().expect("not empty");
    let env = environment::bot_environment(
        &options.env,
        workdir.map(AdmittedWorkdir::path),
        options.sandbox.is_bwrap(),
    );
    let mut wrap = CommandWrap::with_new(program, |cmd| {
        cmd.args(args)
            .env_clear()
            .envs(&env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A bot with a workdir goes there by its descriptor (`before_exec`).
        if workdir.is_none() && options.dir.is_some() {
            cmd.current_dir(&from);
        }
    });
    let join_fds = cgroup.map(BotCgroup::join_fds).unwrap_or_default();
    before_exec(
        &mut wrap,
        join_fds,
        user,
        rlimits,
        wrapped.keep,
        workdir.map(AdmittedWorkdir::raw_fd),
    );
    wrap.wrap(ProcessGroup::leader()).wrap(KillOnDrop);
    let shown = &command[0];
    let child = wrap.spawn().map_err(|e| {
        Fault::new(
            FaultKind::SpawnFailed,
            format!("cannot start '{shown}': {e}"),
        )
    })?;
    drop(fixed);
    Ok(child)
}

/// The child's stdout and stderr as our own pipes instead of tokio's — once the bot is found
/// dripping, they are watched only while a read waits, so its writes do not wake the reactor
/// (`pipe.rs`) — with a second descriptor of its stderr pipe, to see what is unread there.
fn pipes(child: &mut dyn ChildWrapper) -> std::io::Result<(Pipe, Pipe, Option<OwnedFd>)> {
    let stdout = child
        .stdout()
        .take()
        .expect("stdout is piped")
        .into_owned_fd()?;
    let stderr = child
        .stderr()
        .take()
        .expect("stderr is piped")
        .into_owned_fd()?;
    let probe = stderr.try_clone().ok();
    Ok((Pipe::new(stdout)?, Pipe::new(stderr)?, probe))
}

/// Sets what the bot's child process does between fork and exec: while it is still the
/// referee's user, it joins its control groups (`join_fds`, open `cgroup.procs` files), enters
/// its `workdir` (a directory's descriptor) and takes its resource limits; then it becomes its own `user` if it has one
/// ([`Credentials::assume`]), dies with the referee, lets no descriptor but 0, 1 and 2 (and
/// `keep`, which bubblewrap reads and closes) survive the exec, and last installs the system-call filter ([`BotFilter`]: no file locks, leases or
/// file-change notifications), which the exec and everything after it, bubblewrap included,
/// runs under.
fn before_exec(
    wrap: &mut CommandWrap,
    join_fds: Vec<RawFd>,
    user: Option<Credentials>,
    rlimits: Vec<(RlimitResource, u64)>,
    keep: Vec<RawFd>,
    workdir: Option<RawFd>,
) {
    // SAFETY: sysconf only reads a limit.
    let max_fd = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) }.clamp(3, 65_536) as i32;
    // Built here, before the fork, once per run: the child may not allocate.
    let filter = BotFilter::native();
    // SAFETY: the closure runs in the child between fork and exec and only makes
    // async-signal-safe system calls (prctl, write, fchdir, set*id, setrlimit, close_range, seccomp) on
    // memory prepared before the fork.
    unsafe {
        wrap.command_mut().pre_exec(move || {
            // Join the bot's control groups before it runs a single instruction of its own,
            // while it may still write there.
            for &fd in &join_fds {
                if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Into the workdir admitted, by its descriptor (not by a name that may lead
            // elsewhere now), while still the referee's user.
            if let Some(fd) = workdir
                && libc::fchdir(fd) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            // Before the change of user, which could not raise a hard limit.
            limits::apply(&rlimits)?;
            if let Some(user) = user {
                user.assume()?;
            }
            // If the referee dies without cleaning up (SIGKILL), the kernel kills the bot too.
            // After the change of user, which clears it.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // No descriptor but the three standard ones survives the exec, whatever the
            // referee's own parent left open (one call; one per descriptor on kernels
            // before 5.11).
            if libc::syscall(
                libc::SYS_close_range,
                3u32,
                u32::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            ) != 0
            {
                for fd in 3..max_fd {
                    libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                }
            }
            for &fd in &keep {
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Last, so that nothing above runs under it: from the exec on, the bot (and
            // bubblewrap) can neither lock files nor watch them.
            if let Some(filter) = filter {
                filter.install()?;
            }
            Ok(())
        });
    }
}
