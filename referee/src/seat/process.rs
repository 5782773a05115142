//! A bot process: spawned in its own process group, spoken to in JSON lines, always reaped.
//!
//! Reads go through tokio-util's [`AnyDelimiterCodec`] (newline-delimited, bytes) with a hard
//! length cap, so a bot cannot make the
//! referee hold an endless line; every read and write has a deadline, so a bot cannot make the
//! referee wait forever; stderr is drained by a task of its own; and the whole process group is
//! killed when the bot is shut down or dropped, so no child outlives the referee.

use super::Fault;
use super::cgroup::BotCgroup;
use super::limits::{self, ResourceLimits};
use super::memory::{self, PeakMemory};
use super::reply::{excerpt, parse};
use super::sandbox::Sandbox;
use super::stderr::{self, StderrTail};
use futures::StreamExt;
use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop, ProcessGroup};
use protocol::{FaultKind, FromBot, HelloReply, PROTOCOL_VERSION};
use serde_json::Value;
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::process::{ChildStdin, ChildStdout};
use tokio::time::{Instant, timeout, timeout_at};
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, FramedRead};

/// How many timed-out request ids are remembered, so that their late replies are not faults.
const EXPIRED_KEPT: usize = 16;

/// How many bytes of an over-long line are kept to show what it was.
const OVERLONG_HEAD: usize = 200;

/// Newline-delimited lines with a length cap ([`AnyDelimiterCodec`]) that keeps the first
/// bytes of a line over the cap, so that its fault can show how it began.
struct CappedLines {
    inner: AnyDelimiterCodec,
    /// The beginning of the last line over the cap, until it is taken.
    overlong_head: Option<Vec<u8>>,
}

impl CappedLines {
    fn keep_head<T>(
        &mut self,
        buf: &[u8],
        decoded: Result<T, AnyDelimiterCodecError>,
    ) -> Result<T, AnyDelimiterCodecError> {
        if let Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) = &decoded {
            // The codec has not dropped anything yet: the buffer starts with the line.
            self.overlong_head = Some(buf[..buf.len().min(OVERLONG_HEAD)].to_vec());
        }
        decoded
    }
}

impl Decoder for CappedLines {
    type Item = tokio_util::bytes::Bytes;
    type Error = AnyDelimiterCodecError;

    fn decode(
        &mut self,
        buf: &mut tokio_util::bytes::BytesMut,
    ) -> Result<Option<Self::Item>, Self::Error> {
        let decoded = self.inner.decode(buf);
        self.keep_head(buf, decoded)
    }

    fn decode_eof(
        &mut self,
        buf: &mut tokio_util::bytes::BytesMut,
    ) -> Result<Option<Self::Item>, Self::Error> {
        let decoded = self.inner.decode_eof(buf);
        self.keep_head(buf, decoded)
    }
}

/// How a bot's process ended once its input was closed ([`ProcessBot::close`]).
#[derive(Debug)]
pub struct Closing {
    /// `None` when it was still running at the end of the grace period (it was killed);
    /// `Some(Ok(()))` when it exited with code 0; `Some(Err(fault))` when it exited otherwise,
    /// the fault saying how.
    pub exit: Option<Result<(), Fault>>,
    /// What it wrote to stdout meanwhile that is not a protocol message (or a late reply to a
    /// request that timed out), in order.
    pub stray: Vec<Fault>,
}

/// How bot processes are run.
#[derive(Clone, Debug)]
pub struct ProcessOptions {
    /// Longest line accepted from a bot, in bytes.
    pub max_line_bytes: usize,
    /// Where to write the bot's stderr (capped), if anywhere.
    pub stderr_file: Option<PathBuf>,
    /// Most bytes of stderr written to `stderr_file`.
    pub stderr_cap: u64,
    /// How long a bot has to exit by itself after `goodbye`, or after the end of its input,
    /// before its group is killed: the protocol's one second by default. The one setting of it:
    /// every caller that ends bots gives them this.
    pub exit_grace: Duration,
    /// The sandbox bots run in.
    pub sandbox: Sandbox,
    /// Paths a sandboxed bot must not see (the referee's output, other bots' directories).
    pub hidden: Vec<PathBuf>,
    /// This bot's resource limits.
    pub limits: ResourceLimits,
    /// This bot's working directory, if not the referee's.
    pub workdir: Option<PathBuf>,
}

impl Default for ProcessOptions {
    fn default() -> Self {
        ProcessOptions {
            max_line_bytes: 1 << 20,
            stderr_file: None,
            stderr_cap: 1 << 20,
            exit_grace: Duration::from_secs(1),
            sandbox: Sandbox::None,
            hidden: Vec::new(),
            limits: ResourceLimits::default(),
            workdir: None,
        }
    }
}

/// A running bot process.
pub struct ProcessBot {
    child: Box<dyn ChildWrapper>,
    stdin: Option<ChildStdin>,
    lines: FramedRead<ChildStdout, CappedLines>,
    stderr: StderrTail,
    /// The task draining stderr; awaited (briefly) at the end so the last lines are kept.
    drain: Option<tokio::task::JoinHandle<()>>,
    pid: u32,
    alive: bool,
    /// Requests that timed out (the most recent few): their late replies are dropped silently.
    expired: std::collections::VecDeque<u64>,
    /// The bot's control groups, if the machine allows them.
    cgroup: Option<BotCgroup>,
    /// Whether the bot runs under bubblewrap (its exit status is then bubblewrap's).
    sandboxed: bool,
    /// Its resource limits, for fault messages.
    limits: ResourceLimits,
    /// The inode of its stdout pipe, to see who still holds the pipe.
    stdout_pipe: u64,
    /// The first request id of the current match: replies to earlier ids belong to an earlier
    /// match and are dropped silently.
    first_id: u64,
    /// The line-length cap, for fault messages.
    max_line_bytes: usize,
    /// How long it has to exit after `goodbye` ([`ProcessOptions::exit_grace`]).
    exit_grace: Duration,
}

impl ProcessBot {
    /// Starts `command` (program and arguments) in a new process group with piped stdio.
    ///
    /// # Errors
    /// A [`FaultKind::SpawnFailed`] fault when the program cannot be started.
    pub async fn spawn(command: &[String], options: &ProcessOptions) -> Result<Self, Fault> {
        if command.is_empty() {
            return Err(Fault::new(FaultKind::SpawnFailed, "empty command"));
        }
        let limits = options.limits;
        let cgroup = BotCgroup::create(limits.memory_bytes(), limits.processes());
        let rlimits = limits.rlimits(cgroup.is_some());
        let join_fds = cgroup.as_ref().map(BotCgroup::join_fds).unwrap_or_default();
        // SAFETY: sysconf only reads a limit.
        let max_fd = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) }.clamp(3, 65_536) as i32;
        let wrapped = options.sandbox.wrap(
            command,
            options.workdir.as_deref(),
            &options.hidden,
            limits.file_bytes(),
        );
        let (program, args) = wrapped.split_first().expect("not empty");
        let mut wrap = CommandWrap::with_new(program, |cmd| {
            cmd.args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            if let Some(dir) = &options.workdir {
                cmd.current_dir(dir);
            }
        });
        // SAFETY: the closure runs in the child between fork and exec and only makes
        // async-signal-safe system calls (prctl, write, setrlimit, close_range) on memory
        // prepared before the fork.
        unsafe {
            wrap.command_mut().pre_exec(move || {
                // If the referee dies without cleaning up (SIGKILL), the kernel kills the bot too.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                // Join the bot's control groups before it runs a single instruction of its own.
                for &fd in &join_fds {
                    if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                limits::apply(&rlimits)?;
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
                Ok(())
            });
        }
        wrap.wrap(ProcessGroup::leader()).wrap(KillOnDrop);
        let shown = &command[0];
        let mut child = wrap.spawn().map_err(|e| {
            Fault::new(
                FaultKind::SpawnFailed,
                format!("cannot start '{shown}': {e}"),
            )
        })?;
        let pid = child.id().unwrap_or(0);
        let stdin = child.stdin().take();
        let stdout = child.stdout().take().expect("stdout is piped");
        let stdout_pipe = pipe_inode(stdout.as_raw_fd());
        let stderr_pipe = child.stderr().take().expect("stderr is piped");
        let tail = StderrTail::default();
        let file = match &options.stderr_file {
            // Appended: a resumed tournament keeps what earlier runs captured.
            Some(path) => tokio::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .await
                .ok(),
            None => None,
        };
        let drain = tokio::spawn(stderr::drain(
            stderr_pipe,
            tail.clone(),
            file,
            options.stderr_cap,
        ));
        Ok(ProcessBot {
            child,
            stdin,
            lines: FramedRead::new(
                stdout,
                CappedLines {
                    inner: AnyDelimiterCodec::new_with_max_length(
                        b"\n".to_vec(),
                        b"\n".to_vec(),
                        options.max_line_bytes,
                    ),
                    overlong_head: None,
                },
            ),
            stderr: tail,
            drain: Some(drain),
            pid,
            alive: true,
            expired: std::collections::VecDeque::new(),
            cgroup,
            sandboxed: options.sandbox.is_bwrap(),
            limits,
            stdout_pipe,
            first_id: 0,
            max_line_bytes: options.max_line_bytes,
            exit_grace: options.exit_grace,
        })
    }

    /// The process id of the bot (its process group id too).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Whether the process is still being spoken to.
    pub fn is_alive(&self) -> bool {
        self.alive
    }

    /// Whether the bot's process has exited by now (it may have quit after a match ended).
    pub fn has_exited(&mut self) -> bool {
        !self.alive || matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// The most memory the bot has held so far: the largest peak resident set among its
    /// running processes (read it before the bot exits) and its control group's peak.
    pub fn peak_memory(&self) -> PeakMemory {
        PeakMemory {
            largest_process_bytes: memory::largest_process_peak(self.pid),
            control_group_bytes: self.cgroup.as_ref().and_then(BotCgroup::peak_memory),
        }
    }

    /// Writes `hello_line` and waits up to `startup` for the bot's `hello` reply.
    ///
    /// # Errors
    /// A fault when the reply is late, malformed, not a `hello`, or declares another protocol.
    pub async fn handshake(
        &mut self,
        hello_line: &[u8],
        startup: Duration,
    ) -> Result<HelloReply, Fault> {
        let deadline = Instant::now() + startup;
        self.write(hello_line, startup).await?;
        let line = self.read_line(deadline).await.map_err(|f| match f.fault {
            FaultKind::Timeout => Fault::new(
                FaultKind::StartupTimeout,
                format!(
                    "no hello reply within the start-up limit of {} ms",
                    startup.as_millis()
                ),
            ),
            _ => f,
        })?;
        match parse(&line)? {
            FromBot::Hello(reply) => match reply.protocol {
                Some(v) if v != PROTOCOL_VERSION => Err(Fault::new(
                    FaultKind::ProtocolMismatch,
                    format!(
                        "the bot speaks protocol {v}; this referee speaks protocol {PROTOCOL_VERSION}"
                    ),
                )),
                _ => Ok(reply),
            },
            FromBot::Action(_) => {
                let shown = excerpt(&String::from_utf8_lossy(&line));
                Err(Fault::new(
                    FaultKind::WrongShape,
                    format!(
                        "expected a hello reply {{\"type\":\"hello\",\"name\":...}}, got: {shown}"
                    ),
                )
                .with_line(shown))
            }
        }
    }

    /// Starts a match whose first request will have id `first_id`: what the bot wrote after
    /// the last match ended, and any reply to an earlier id, is not charged to this one.
    pub async fn begin_match(&mut self, first_id: u64) {
        self.first_id = first_id;
        // Only what has already arrived: one poll each, no timer.
        while let Some(Some(Ok(_))) = futures::FutureExt::now_or_never(self.lines.next()) {}
    }

    /// Reads what the bot writes with no request pending, until `deadline` or the end of its
    /// output, and returns the lines that are faults (anything but a late reply to a request
    /// that timed out) and whether its output ended. `referee check` calls this between
    /// matches, so that what a bot writes there is seen, whatever the timing.
    pub async fn read_unasked(&mut self, deadline: Instant) -> (Vec<Fault>, bool) {
        let mut faults = Vec::new();
        loop {
            let line = match timeout_at(deadline, self.lines.next()).await {
                Err(_) => return (faults, false),
                Ok(None | Some(Err(AnyDelimiterCodecError::Io(_)))) => return (faults, true),
                Ok(Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded))) => {
                    faults.push(self.overlong_fault());
                    continue;
                }
                Ok(Some(Ok(line))) if line.trim_ascii().is_empty() => continue,
                Ok(Some(Ok(line))) => line,
            };
            faults.extend(self.stray_fault(&line, None));
        }
    }

    /// The fault of `line`, which is not the reply awaited (to request `pending`, if any), or
    /// `None` for a line dropped silently: a late reply to a request of an earlier match or to
    /// one that timed out (its timeout was the fault).
    fn stray_fault(&mut self, line: &[u8], pending: Option<u64>) -> Option<Fault> {
        let shown = || excerpt(&String::from_utf8_lossy(line));
        let while_ = match pending {
            Some(id) => format!("while request {id} is pending"),
            None => "while no request is pending".to_string(),
        };
        Some(match parse(line) {
            Ok(FromBot::Action(reply)) if reply.id < self.first_id => return None,
            Ok(FromBot::Action(reply)) if self.expired.contains(&reply.id) => {
                self.expired.retain(|&e| e != reply.id);
                return None;
            }
            Ok(FromBot::Action(reply)) => Fault::new(
                FaultKind::StaleId,
                format!(
                    "a reply to request {} {while_} (a repeated or invented id); it is ignored",
                    reply.id
                ),
            )
            .with_line(shown()),
            Ok(FromBot::Hello(_)) => Fault::new(
                FaultKind::WrongShape,
                format!("a hello {while_}; it is ignored"),
            )
            .with_line(shown()),
            Err(fault) => fault,
        })
    }

    /// The fault of a bot whose process has exited, saying how it ended (`what` first), or
    /// `None` while it runs.
    pub async fn exit_fault(&mut self, what: &str) -> Option<Fault> {
        match self.child.try_wait() {
            Ok(Some(_)) => Some(self.exited_fault(what).await),
            _ => None,
        }
    }

    /// Ends the process as [`ProcessBot::shutdown`] does, but reads its stdout until it ends
    /// (within its exit grace, [`ProcessOptions::exit_grace`], too) and says how the process
    /// exited: what `referee check` needs to judge a bot's last moments. `None` when it had been
    /// stopped already.
    pub async fn close(&mut self, last: Option<&[u8]>) -> Option<Closing> {
        if !self.alive {
            return None;
        }
        let grace = self.exit_grace;
        let deadline = Instant::now() + grace;
        if let Some(line) = last {
            let _ = self.write(line, grace).await;
        }
        self.stdin = None;
        let (stray, _) = self.read_unasked(deadline).await;
        let exit = match timeout_at(deadline, self.child.wait()).await {
            Ok(Ok(status)) if status.success() => Some(Ok(())),
            Ok(Ok(_)) => Some(Err(self.exited_fault("it did not exit cleanly").await)),
            _ => None,
        };
        self.kill().await;
        Some(Closing { exit, stray })
    }

    /// The fault of a line over the length cap, showing how it began.
    fn overlong_fault(&mut self) -> Fault {
        let head = self.lines.decoder_mut().overlong_head.take();
        let fault = Fault::new(
            FaultKind::LineTooLong,
            format!(
                "a line longer than the referee's line-length cap of {}",
                bytes_text(self.max_line_bytes)
            ),
        );
        match head {
            Some(head) => fault.with_line(excerpt(&String::from_utf8_lossy(&head))),
            None => fault,
        }
    }

    /// Writes `bytes` (whole lines) to the bot's stdin within `limit`.
    ///
    /// # Errors
    /// [`FaultKind::WriteFailed`] when the bot does not read in time, [`FaultKind::Exited`] when
    /// its stdin is closed.
    pub async fn write(&mut self, bytes: &[u8], limit: Duration) -> Result<(), Fault> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Fault::new(
                FaultKind::Exited,
                "the bot's standard input is closed",
            ));
        };
        match timeout(limit, async {
            stdin.write_all(bytes).await?;
            stdin.flush().await
        })
        .await
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(self
                .exited_fault(&format!("writing to the bot failed ({e})"))
                .await),
            Err(_) => Err(Fault::new(
                FaultKind::WriteFailed,
                format!(
                    "the bot did not read its input within {} ms (its input pipe is full)",
                    limit.as_millis()
                ),
            )),
        }
    }

    /// Reads lines until the `action` reply to request `id`, or a fault that ends the wait.
    ///
    /// Lines that are not that reply — not JSON, not a protocol message, a reply to another id —
    /// are faults pushed to `noise`, and the wait goes on until the deadline, so a stray debug
    /// line does not cost the decision. After `max_noise` of them the wait ends with the last
    /// one. A late reply to a request that timed out is dropped silently: its timeout was the
    /// fault.
    ///
    /// # Errors
    /// The fault that ends the wait: timeout, exit, an over-long line, or too much noise.
    pub async fn read_reply(
        &mut self,
        id: u64,
        deadline: Instant,
        max_noise: usize,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Fault> {
        loop {
            let line = match self.read_line(deadline).await {
                Err(fault) if fault.fault == FaultKind::Timeout => {
                    if self.expired.len() == EXPIRED_KEPT {
                        self.expired.pop_front();
                    }
                    self.expired.push_back(id);
                    return Err(fault);
                }
                other => other?,
            };
            let fault = match parse(&line) {
                Ok(FromBot::Action(reply)) if reply.id == id => return Ok(reply.action),
                _ => match self.stray_fault(&line, Some(id)) {
                    Some(fault) => fault,
                    None => continue,
                },
            };
            if noise.len() + 1 >= max_noise {
                return Err(fault);
            }
            noise.push(fault);
        }
    }

    async fn read_line(&mut self, deadline: Instant) -> Result<Vec<u8>, Fault> {
        loop {
            return match timeout_at(deadline, self.lines.next()).await {
                Err(_) => Err(self.timeout_fault().await),
                Ok(None) => Err(self
                    .exited_fault("the bot closed its standard output")
                    .await),
                Ok(Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded))) => {
                    Err(self.overlong_fault())
                }
                Ok(Some(Err(AnyDelimiterCodecError::Io(e)))) => Err(self
                    .exited_fault(&format!("reading from the bot failed ({e})"))
                    .await),
                Ok(Some(Ok(line))) if line.trim_ascii().is_empty() => continue,
                Ok(Some(Ok(line))) => Ok(line.to_vec()),
            };
        }
    }

    /// A timeout, unless the bot itself has exited and only a descendant of it keeps its output
    /// open: that is an exit, reported with the bot's exit code.
    async fn timeout_fault(&mut self) -> Fault {
        if self.output_abandoned() {
            return self
                .exited_fault("the bot closed its standard output")
                .await;
        }
        match self.child.try_wait() {
            Ok(Some(_)) => {
                self.exited_fault("the bot exited (a process it started still holds its output)")
                    .await
            }
            _ => Fault::new(
                FaultKind::Timeout,
                format!("no reply within the time limit{}", self.limit_notes()),
            ),
        }
    }

    /// Whether, in the sandbox, no process of the bot holds its output any more (only
    /// bubblewrap's own processes do, which never write to it): the bot closed its stdout, so
    /// no reply can ever come. Known only with a control group to list the bot's processes.
    fn output_abandoned(&self) -> bool {
        let (Some(group), true) = (&self.cgroup, self.sandboxed) else {
            return false;
        };
        let pipe = format!("pipe:[{}]", self.stdout_pipe);
        let holds = |pid: i32| {
            std::fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|fds| {
                fds.flatten().any(|fd| {
                    std::fs::read_link(fd.path()).is_ok_and(|t| t.as_os_str() == pipe.as_str())
                })
            })
        };
        let is_bwrap = |pid: i32| {
            std::fs::read_link(format!("/proc/{pid}/exe"))
                .is_ok_and(|exe| exe.file_name().is_some_and(|n| n == "bwrap"))
        };
        !group
            .members()
            .into_iter()
            .any(|pid| !is_bwrap(pid) && holds(pid))
    }

    /// What the control group saw that explains a fault, as a suffix for its message.
    fn limit_notes(&self) -> String {
        match &self.cgroup {
            Some(group) if group.process_limit_hit() => format!(
                "; it reached its limit of {} processes and threads",
                self.limits.processes().unwrap_or(0)
            ),
            _ => String::new(),
        }
    }

    /// The signal that ended the bot, seen through bubblewrap (which exits with 128 + the
    /// signal of the process it ran) when sandboxed.
    fn signal_of(&self, status: std::process::ExitStatus) -> Option<i32> {
        use std::os::unix::process::ExitStatusExt;
        status.signal().or_else(|| {
            status
                .code()
                .filter(|&c| self.sandboxed && c > 128 && c < 160)
                .map(|c| c - 128)
        })
    }

    /// An `exited` fault whose message says how the bot ended and what it last wrote to stderr,
    /// or a `resource_limit` fault when a limit killed it.
    async fn exited_fault(&mut self, what: &str) -> Fault {
        let status = timeout(Duration::from_millis(300), self.child.wait()).await;
        let status = match status {
            Ok(Ok(status)) => Some(status),
            _ => None,
        };
        let signal = status.and_then(|s| self.signal_of(s));
        let how = match (status, signal) {
            (_, Some(sig)) => format!("; it was killed by signal {sig}"),
            (Some(status), None) => match status.code() {
                Some(code) => format!("; it exited with code {code}"),
                None => String::new(),
            },
            (None, _) => "; the process is still running".to_string(),
        };
        let tail = self.stderr.text();
        let last: Vec<&str> = tail.lines().rev().take(3).collect();
        let stderr = if last.is_empty() {
            String::new()
        } else {
            let joined: Vec<&str> = last.into_iter().rev().collect();
            format!("; last stderr: {}", excerpt(&joined.join(" | ")))
        };
        let notes = self.limit_notes();
        let mb = |bytes: Option<u64>| bytes.unwrap_or(0) >> 20;
        let limit = if self.cgroup.as_ref().is_some_and(BotCgroup::oom_killed) {
            Some(format!(
                "the bot went over its memory limit of {} MiB and the kernel killed it",
                mb(self.limits.memory_bytes())
            ))
        } else if signal == Some(libc::SIGXCPU) {
            Some(format!(
                "the bot used up its CPU-time limit of {} s",
                self.limits.cpu_seconds().unwrap_or(0)
            ))
        } else if signal == Some(libc::SIGXFSZ) {
            Some(format!(
                "the bot wrote past its file-size limit of {} MiB",
                mb(self.limits.file_bytes())
            ))
        } else {
            None
        };
        match limit {
            Some(limit) => Fault::new(
                FaultKind::ResourceLimit,
                format!("{limit} ({what}{how}){notes}{stderr}"),
            ),
            None => Fault::new(FaultKind::Exited, format!("{what}{how}{notes}{stderr}")),
        }
    }

    /// Ends the process: optionally writes `last` (a `goodbye`, or the `error` saying why the bot
    /// is stopped), closes stdin, waits up to the grace period for it to exit, then kills its
    /// whole process group and reaps it. Returns whether the bot exited by itself within the
    /// grace period (`false` too when it had been stopped already).
    pub async fn shutdown(&mut self, last: Option<&[u8]>, grace: Duration) -> bool {
        if !self.alive {
            return false;
        }
        if let Some(line) = last {
            let _ = self.write(line, grace).await;
        }
        self.stdin = None;
        let exited = matches!(timeout(grace, self.child.wait()).await, Ok(Ok(_)));
        self.kill().await;
        exited
    }

    /// Kills the whole process group at once, reaps the bot, and lets the stderr drain finish
    /// (briefly: a descendant that escaped the group may still hold the pipe).
    pub async fn kill(&mut self) {
        if !self.alive {
            return;
        }
        self.stdin = None;
        let _ = self.child.signal(libc::SIGKILL);
        let _ = timeout(Duration::from_secs(2), self.child.wait()).await;
        // Whatever left the process group (a `setsid` descendant) is still in the control group.
        if let Some(group) = &self.cgroup {
            group.kill_all().await;
        }
        if let Some(drain) = self.drain.take() {
            let _ = timeout(Duration::from_millis(500), drain).await;
        }
        self.alive = false;
    }
}

impl Drop for ProcessBot {
    fn drop(&mut self) {
        if self.alive {
            let _ = self.child.signal(libc::SIGKILL);
        }
    }
}

/// A size in bytes as people write it: "1 MiB", "64 KiB", "1000 bytes".
fn bytes_text(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The inode of the pipe open at `fd` (0 if it cannot be read).
fn pipe_inode(fd: std::os::fd::RawFd) -> u64 {
    // SAFETY: fstat fills the zeroed struct we own; `fd` is open for the call's duration.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(fd, &mut st) == 0 {
            st.st_ino
        } else {
            0
        }
    }
}
