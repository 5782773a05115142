//! A bot process: spawned in its own process group, spoken to in JSON lines, always reaped.
//!
//! The talking is its [`Wire`](super::wire::Wire)'s: lines are read with a hard length cap
//! (`lines.rs`), so a bot cannot make the referee hold an endless line; every read and write
//! has a deadline, so a bot cannot make the referee wait forever. The process is this file's:
//! stderr is drained by a task of its own; what a silence or an end of the output means is told
//! from the process (its exit status, its stderr, its limits); and the whole process group is
//! killed when the bot is shut down or dropped, so no child outlives the referee. It starts with
//! an environment of its own ([`environment`]), never the referee's.

use super::Fault;
use super::admitted_workdir::{AdmittedWorkdir, Workdirs};
use super::cgroup::{BotCgroup, GroupLimits};
use super::ending::{Ending, stderr_quote};
use super::environment;
use super::hidden_paths::{self, HiddenPath};
use super::limits::{self, ResourceLimits, RlimitResource};
use super::memory::{self, PeakMemory};
use super::pipe::Pipe;
use super::proc_view::FixedFiles;
use super::procfs;
use super::reply::{excerpt, parse};
use super::sandbox::Sandbox;
use super::seccomp::BotFilter;
use super::stderr::{self, RecentStderr, StderrCount, StderrGate, StderrOverflow, StderrTail};
use super::stderr_file::StderrFile;
use super::users::{BotUsers, Credentials, ProcessUser, RunAs};
use super::wire::{self, Cut, ReplyWait, Wire};
use super::workdir_quota::{QuotaWatch, WorkdirQuota};
use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop, ProcessGroup};
use protocol::{FaultKind, FromBot, HelloReply, PROTOCOL_VERSION};
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::process::ChildStdin;
use tokio::time::{Instant, timeout, timeout_at};

/// How long a bot process that is ending — its output closed, or its grace after `goodbye`
/// over — is given to be gone while it is still at work (not [idle](ProcessBot::is_idle): an
/// exit under way). Generous, since on a loaded machine an exit may wait long for a CPU; a bot
/// that is idle instead is taken as living on at once, so only a bot that keeps busy costs it.
pub const ENDING_BOUND: Duration = Duration::from_secs(10);
/// The first pause between two looks at a bot that is not done yet ([`ProcessBot::is_idle`],
/// [`ProcessBot::is_waiting`]); it doubles after each look, up to [`LONGEST_LOOK`].
pub const FIRST_LOOK: Duration = Duration::from_millis(1);
/// The longest pause between two looks at a bot that is not done yet.
pub const LONGEST_LOOK: Duration = Duration::from_millis(16);
/// How many times [`ProcessBot::take_stderr`] yields, at most, for the task draining stderr to
/// read what the pipe holds.
const STDERR_SETTLE_YIELDS: usize = 16;

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
    pub stderr_file: Option<StderrFile>,
    /// Most bytes of stderr written to `stderr_file`.
    pub stderr_cap: u64,
    /// How long a bot has to exit by itself after `goodbye`, or after the end of its input,
    /// before its group is killed: the protocol's one second by default. The one setting of it:
    /// every caller that ends bots gives them this.
    pub exit_grace: Duration,
    /// The sandbox bots run in.
    pub sandbox: Sandbox,
    /// Paths a sandboxed bot must not see (the referee's output, every bot's workdir but its
    /// own), as found when the run started.
    pub hidden: Vec<HiddenPath>,
    /// This bot's resource limits.
    pub limits: ResourceLimits,
    /// Each bot's workdir, admitted when the run started ([`super::workdir_rule`]), by name. A
    /// bot whose settings name a workdir that is not here does not start (`spawn_failed`).
    pub workdirs: Workdirs,
    /// This bot's working directory (from `workdirs`), if not the referee's.
    pub workdir: Option<AdmittedWorkdir>,
    /// The variables this bot's settings name, set over the few of the referee's it gets
    /// ([`environment`]).
    pub env: BTreeMap<String, String>,
    /// Who each bot of the run runs as, by name ([`super::users`]).
    pub users: BotUsers,
    /// Who this bot runs as (from `users`).
    pub run_as: RunAs,
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
            workdirs: Workdirs::default(),
            workdir: None,
            env: BTreeMap::new(),
            users: BotUsers::default(),
            run_as: RunAs::Referee,
        }
    }
}

/// A byte range of a bot's stderr file: what it wrote during one match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StderrSpan {
    /// The file.
    pub file: PathBuf,
    /// The first byte of the range.
    pub from: u64,
    /// The byte after the range.
    pub to: u64,
}

/// A running bot process.
pub struct ProcessBot {
    child: Box<dyn ChildWrapper>,
    /// Its stdin and stdout, spoken to in protocol lines.
    wire: Wire<Pipe, ChildStdin>,
    stderr: StderrTail,
    /// The task draining stderr; awaited (briefly) at the end so the last lines are kept.
    drain: Option<tokio::task::JoinHandle<()>>,
    pid: u32,
    alive: bool,
    /// The bot's control groups, if the machine allows them.
    cgroup: Option<BotCgroup>,
    /// Whether the bot runs under bubblewrap (its exit status is then bubblewrap's).
    sandboxed: bool,
    /// Its resource limits, for fault messages.
    limits: ResourceLimits,
    /// The inode of its stdout pipe, to see who still holds the pipe.
    stdout_pipe: u64,
    /// A second descriptor of its stderr pipe (the drain task owns the first), to see whether
    /// what it wrote there has been read ([`ProcessBot::is_waiting`]).
    stderr_probe: Option<OwnedFd>,
    /// How much of its stderr the drain task has taken.
    stderr_count: StderrCount,
    /// The budget of its stderr, as it is spent.
    stderr_gate: StderrGate,
    /// The file its stderr is saved to, if any, with where the span of its current match
    /// begins ([`ProcessBot::stderr_span`]).
    stderr_file: Option<(PathBuf, u64)>,
    /// How long it has to exit after `goodbye` ([`ProcessOptions::exit_grace`]).
    exit_grace: Duration,
    /// The uid it runs as, leased while it lives, unless it runs as the referee's.
    _user: Option<ProcessUser>,
    /// The watcher of its workdir's quota, if it has a workdir and a quota.
    quota: Option<QuotaWatch>,
}

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
        let spawn_failed =
            |e: &dyn std::fmt::Display| Fault::new(FaultKind::SpawnFailed, e.to_string());
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
        let rlimits = limits.rlimits(cgroup.is_some());
        // Held until the child has exec'd: bubblewrap reads the copies from these descriptors.
        let (fixed, hidden) = if options.sandbox.is_bwrap() {
            let fixed = FixedFiles::for_start().map_err(|e| {
                Fault::new(FaultKind::SpawnFailed, format!("cannot copy /proc: {e}"))
            })?;
            let hidden =
                hidden_paths::places(&options.hidden, workdir).map_err(|e| spawn_failed(&e))?;
            (fixed, options.run_as.nameable(hidden))
        } else {
            (FixedFiles::default(), Vec::new())
        };
        let wrapped = options
            .sandbox
            .wrap(command, workdir, &hidden, limits.file_bytes(), &fixed);
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
        });
        let join_fds = cgroup.as_ref().map(BotCgroup::join_fds).unwrap_or_default();
        before_exec(
            &mut wrap,
            join_fds,
            credentials,
            rlimits,
            wrapped.keep,
            workdir.map(AdmittedWorkdir::raw_fd),
        );
        wrap.wrap(ProcessGroup::leader()).wrap(KillOnDrop);
        let shown = &command[0];
        let mut child = wrap.spawn().map_err(|e| {
            Fault::new(
                FaultKind::SpawnFailed,
                format!("cannot start '{shown}': {e}"),
            )
        })?;
        drop(fixed);
        let pid = child.id().unwrap_or(0);
        let quota = quota.map(|q| q.watch(pid, cgroup.as_ref().and_then(BotCgroup::killer)));
        let stdin = child.stdin().take().expect("stdin is piped");
        // Our own pipes instead of tokio's: once the bot is found dripping, they are watched
        // only while a read waits, so its writes do not wake the reactor (`pipe.rs`).
        let pipes = child
            .stdout()
            .take()
            .expect("stdout is piped")
            .into_owned_fd()
            .and_then(|stdout| {
                let stderr = child.stderr().take().expect("stderr is piped");
                Ok((stdout, stderr.into_owned_fd()?))
            })
            .and_then(|(stdout, stderr)| {
                let probe = stderr.try_clone().ok();
                Ok((Pipe::new(stdout)?, Pipe::new(stderr)?, probe))
            });
        let (stdout, stderr_pipe, stderr_probe) = pipes.map_err(|e| {
            Fault::new(
                FaultKind::SpawnFailed,
                format!("cannot read the pipes of '{shown}': {e}"),
            )
        })?;
        let stdout_pipe = procfs::pipe_inode(stdout.as_raw_fd());
        let tail = StderrTail::default();
        // Appended: a resumed tournament keeps what earlier runs captured.
        let file = options
            .stderr_file
            .as_ref()
            .and_then(|f| f.dir.open_append(&f.name).ok())
            .map(tokio::fs::File::from_std);
        let length = match &file {
            Some(f) => f.metadata().await.map(|m| m.len()).unwrap_or(0),
            None => 0,
        };
        let count = StderrCount::at(length);
        let gate = StderrGate::new(limits.stderr_budget());
        let stderr_file = options
            .stderr_file
            .as_ref()
            .filter(|_| file.is_some())
            .map(|f| (f.dir.path_of(&f.name), length));
        let drain = tokio::spawn(stderr::drain(
            stderr_pipe,
            tail.clone(),
            file,
            options.stderr_cap,
            count.clone(),
            gate.clone(),
        ));
        Ok(ProcessBot {
            child,
            wire: Wire::new(stdout, stdin, options.max_line_bytes),
            stderr: tail,
            drain: Some(drain),
            pid,
            alive: true,
            cgroup,
            sandboxed: options.sandbox.is_bwrap(),
            limits,
            stdout_pipe,
            stderr_probe,
            stderr_count: count,
            stderr_gate: gate,
            stderr_file,
            exit_grace: options.exit_grace,
            _user: user,
            quota,
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

    /// Whether the bot's process, which is ending (its output has closed), exits: waits until it
    /// has, or until it is seen [idle](ProcessBot::is_idle) — then it lives on with its output
    /// closed — at most [`ENDING_BOUND`].
    pub async fn exits(&mut self) -> bool {
        !self.alive || self.ending_status().await.is_some()
    }

    /// Whether no thread of the bot can run: each thread of its processes (its own, their
    /// descendants, its control group's) is looked at twice and must be asleep both times —
    /// not running, not runnable, not in an uninterruptible wait — with no context switch in
    /// between. Then no thread of the bot ran between the looks, so none can have woken
    /// another: only something from outside (input, a timer of its own, a signal) wakes it
    /// again. An exit under way shows as a running thread (the bot's, or under bubblewrap its
    /// parent's, woken to reap it) — but a process that has just exited looks asleep too, so a
    /// caller looks at the exit *after* this. `false` when it cannot be told (the bot's
    /// processes cannot be read in `/proc`): callers then wait to their bound.
    pub fn is_idle(&self) -> bool {
        if !self.alive {
            return false;
        }
        let (Some(first), Some(second)) = (self.threads(), self.threads()) else {
            return false;
        };
        first == second && first.values().all(|&(asleep, _)| asleep)
    }

    /// Whether the bot is waiting for input with nothing left to do: it has read all that was
    /// written to it, it is [idle](ProcessBot::is_idle), and nothing it wrote to stdout or stderr
    /// is still in the pipe (a bot blocked on a full pipe is asleep, but not done). A bot that
    /// reacts to a message has done so by then, whatever the load of the machine: the lines it
    /// wrote are in hand (read, or in the reader's buffer: [`ProcessBot::take_read_lines`]).
    /// A bot whose stderr is over its budget waits too: on its own writes, until the referee
    /// opens its next window ([`super::stderr::budget`]).
    ///
    /// `referee check` uses this after each match to see, without a fixed wait, what the bot
    /// does after `match_end`, and after `goodbye` to tell a bot that waits from one still at
    /// work ([`ProcessBot::close`]).
    pub fn is_waiting(&self) -> bool {
        let drained = |fd: Option<RawFd>| fd.is_none_or(|fd| procfs::unread_bytes(fd) == Some(0));
        let stderr_drained = || {
            let drained = drained(self.stderr_probe.as_ref().map(AsRawFd::as_raw_fd));
            if !drained {
                // Read now, not at the end of the drain's pause: the next look sees it.
                self.stderr_gate.hurry();
            }
            drained
        };
        self.alive
            && drained(self.wire.input().map(AsRawFd::as_raw_fd))
            && self.is_idle()
            && drained(Some(self.wire.output().as_raw_fd()))
            && (self.stderr_gate.is_stopped() || stderr_drained())
    }

    /// Every thread of the bot's processes — its own, their descendants and the members of its
    /// control group — as [`procfs::threads`] tells them.
    fn threads(&self) -> Option<BTreeMap<i32, (bool, u64)>> {
        let members = self
            .cgroup
            .as_ref()
            .map(BotCgroup::members)
            .unwrap_or_default();
        procfs::threads(self.pid as i32, members)
    }

    /// The CPU time all of the bot's processes have used so far, where its control group
    /// accounts it.
    pub fn cpu_time(&self) -> Option<Duration> {
        self.cgroup.as_ref().and_then(BotCgroup::cpu_time)
    }

    /// Freezes (`true`) or thaws every process of the bot; whether it could.
    pub fn freeze(&self, frozen: bool) -> bool {
        self.cgroup.as_ref().is_some_and(|g| g.freeze(frozen))
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
        let line = match self.wire.read_line(deadline).await {
            Ok(line) => Ok(line),
            Err(cut) => Err(self.explain(cut, "the start-up limit").await),
        };
        let line = line.map_err(|f| match f.fault {
            // A silence of a bot still running: what came, if anything, says why.
            FaultKind::Timeout => Fault::new(
                FaultKind::StartupTimeout,
                format!(
                    "no hello reply within the start-up limit of {} ms: {}{}",
                    startup.as_millis(),
                    self.wire.silence().explain(),
                    self.limit_notes()
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
        self.wire.begin_match(first_id);
        self.stderr_gate.open_match();
    }

    /// Opens the stderr budget of a decision: the bot is about to be sent a request.
    pub fn open_stderr_decision(&self) {
        self.stderr_gate.open_decision();
    }

    /// What of the bot's stderr went over its budget or its file's cap since the last take
    /// (`None`: nothing), for the record of the match just played.
    pub fn take_stderr_overflow(&self) -> Option<StderrOverflow> {
        self.stderr_gate.take_overflow()
    }

    /// Reads what the bot writes with no request pending, until `deadline` or the end of its
    /// output, and returns the lines that are faults (anything but a late reply to a request
    /// that timed out) and whether its output ended. `referee check` calls this between
    /// matches, so that what a bot writes there is seen, whatever the timing.
    pub async fn read_unasked(&mut self, deadline: Instant) -> (Vec<Fault>, bool) {
        self.wire.read_unasked(deadline).await
    }

    /// The lines already read from the bot and not yet taken, with no request pending, as
    /// [`ProcessBot::read_unasked`] returns them, but without waiting: when nothing the bot wrote
    /// is unread in its pipe ([`ProcessBot::output_unread`]), every line it has written so far.
    pub fn take_read_lines(&mut self) -> (Vec<Fault>, bool) {
        self.wire.take_read_lines()
    }

    /// Whether something the bot wrote to stdout waits unread in the pipe.
    pub fn output_unread(&self) -> bool {
        procfs::unread_bytes(self.wire.output().as_raw_fd()) != Some(0)
    }

    /// The fault of a bot whose process has exited, saying how it ended (`what` first), or
    /// `None` while it runs.
    pub async fn exit_fault(&mut self, what: &str) -> Option<Fault> {
        match self.child.try_wait() {
            Ok(Some(_)) => Some(self.exited_fault(Some(what)).await),
            _ => None,
        }
    }

    /// Ends the process as [`ProcessBot::shutdown`] does, but reads its stdout until it ends
    /// and says how the process exited: what `referee check` needs to judge a bot's last
    /// moments. The bot has its exit grace ([`ProcessOptions::exit_grace`]) to exit. At the end
    /// of it, a bot that [waits](ProcessBot::is_waiting) instead of exiting is stopped; one still
    /// at work — not waiting for anything, just not done: on a loaded machine the grace may not
    /// have been its own time — is given until [`ENDING_BOUND`] after `goodbye`, and stopped
    /// then. `None` when it had been stopped already.
    pub async fn close(&mut self, last: Option<&[u8]>) -> Option<Closing> {
        if !self.alive {
            return None;
        }
        let grace = self.exit_grace;
        let started = Instant::now();
        let bound = started + ENDING_BOUND.max(grace);
        self.open_stderr_goodbye();
        if let Some(line) = last {
            let _ = self.write(line, grace).await;
        }
        self.wire.close_input();
        let (mut stray, mut ended) = self.read_unasked(started + grace).await;
        let mut status = timeout_at(started + grace, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok);
        let mut pause = FIRST_LOOK;
        while status.is_none() {
            // Seen waiting, then the exit looked at: an exit just before the look shows.
            let waiting = self.is_waiting();
            status = self.child.try_wait().ok().flatten();
            if status.is_some() || waiting || Instant::now() >= bound {
                break;
            }
            let until = (Instant::now() + pause).min(bound);
            if !ended {
                let (lines, end) = self.read_unasked(until).await;
                stray.extend(lines);
                ended = end;
            }
            status = timeout_at(until, self.child.wait())
                .await
                .ok()
                .and_then(Result::ok);
            pause = (pause * 2).min(LONGEST_LOOK);
        }
        let exit = match status {
            Some(status) if status.success() => Some(Ok(())),
            Some(_) => Some(Err(self
                .exited_fault(Some("it did not exit cleanly"))
                .await)),
            None => None,
        };
        self.kill().await;
        Some(Closing { exit, stray })
    }

    /// Writes `bytes` (whole lines) to the bot's stdin within `limit`.
    ///
    /// # Errors
    /// [`FaultKind::WriteFailed`] when the bot does not read in time, [`FaultKind::Exited`] when
    /// its stdin is closed.
    pub async fn write(&mut self, bytes: &[u8], limit: Duration) -> Result<(), Fault> {
        match self.wire.write(bytes, limit).await {
            Ok(()) => Ok(()),
            Err(cut) => Err(self.explain(cut, "").await),
        }
    }

    /// Takes, without waiting, the lines the bot wrote before request `id` is written: stray
    /// lines, never its reply; at most `max` faults.
    pub fn read_before_request(&mut self, id: u64, max: usize) -> Vec<Fault> {
        self.wire.read_before_request(id, max)
    }

    /// The late replies to requests that timed out read since the last take
    /// ([`LateReply`](super::LateReply)).
    pub fn take_late_replies(&mut self) -> Vec<super::LateReply> {
        self.wire.take_late_replies()
    }

    /// Reads lines until the `action` reply to the request `wait` is for, or a fault that ends
    /// the wait (a timeout's message names `wait.limit`).
    ///
    /// The first line that is not that reply — not JSON, not a protocol message, a reply to
    /// another id — is the bot's answer all the same: its fault ends the wait and costs the
    /// decision, once (the reply, if it follows, is dropped silently). So do more than
    /// [`BLANK_ALLOWANCE`](super::BLANK_ALLOWANCE) blank lines. A line the bot began before the
    /// request was written is pushed to `noise` instead, and the wait goes on; at
    /// `wait.max_noise` such lines it ends with the last one. A late reply to a request that
    /// timed out is dropped silently: its timeout was the fault.
    ///
    /// # Errors
    /// The fault that ends the wait: a line that is not the reply, blank lines, timeout, exit,
    /// an over-long line, or too much noise.
    pub async fn read_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Fault> {
        match self.wire.read_reply(wait, noise).await {
            Ok(action) => Ok(action),
            Err(cut) => Err(self.explain(cut, wait.limit).await),
        }
    }

    /// The fault of a cut of the wire, told from the process: a silence is a timeout (of
    /// `limit`) unless the bot itself has exited and only a descendant of it keeps its output
    /// open, which is an exit, reported with the bot's exit code as every other end is.
    async fn explain(&mut self, cut: Cut, limit: &str) -> Fault {
        match cut {
            Cut::Fault(fault) => fault,
            Cut::Closed => self.exited_fault(None).await,
            Cut::Broken(doing, e) => {
                self.exited_fault(Some(&wire::broken_message(doing, &e)))
                    .await
            }
            Cut::Silent if self.output_abandoned() => self.exited_fault(None).await,
            Cut::Silent => match self.child.try_wait() {
                Ok(Some(_)) => {
                    self.exited_fault(Some(
                        "the bot exited (a process it started still holds its output)",
                    ))
                    .await
                }
                _ => wire::timeout_fault(limit, &self.limit_notes()),
            },
        }
    }

    /// Whether, in the sandbox, no process of the bot holds its output any more (only
    /// bubblewrap's own processes do, which never write to it): the bot closed its stdout, so
    /// no reply can ever come. Known only with a control group to list the bot's processes.
    /// Until bubblewrap has started the bot (its processes are all bubblewrap's then, which on
    /// a loaded machine can last past a start-up limit), nothing is abandoned: the bot is slow.
    fn output_abandoned(&self) -> bool {
        let (Some(group), true) = (&self.cgroup, self.sandboxed) else {
            return false;
        };
        let bot: Vec<i32> = group
            .members()
            .into_iter()
            .filter(|&pid| !procfs::is_bubblewrap(pid))
            .collect();
        !bot.is_empty()
            && !bot
                .into_iter()
                .any(|pid| procfs::holds_pipe(pid, self.stdout_pipe))
    }

    /// What the control group saw, and the stderr budget, that explains a fault, as a suffix
    /// for its message.
    fn limit_notes(&self) -> String {
        let mut notes = match &self.cgroup {
            Some(group) if group.process_limit_hit() => format!(
                "; it reached its limit of {} processes and threads",
                self.limits.processes().unwrap_or(0)
            ),
            _ => String::new(),
        };
        if self.stderr_gate.is_stopped() {
            notes.push_str(&stderr_over_budget(self.stderr_gate.budget()));
        }
        if let Some(note) = super::seccomp::refusal_note(&self.stderr.text()) {
            notes.push_str(note);
        }
        notes
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

    /// An `exited` fault whose message says how the bot ended (after `what` happened, or, for
    /// `None`, as its standard output closed) and what it last wrote to stderr, or a
    /// `resource_limit` fault when a limit killed it.
    async fn exited_fault(&mut self, what: Option<&str>) -> Fault {
        let status = self.ending_status().await;
        if status.is_some() {
            self.open_stderr_ending();
            self.stderr_taken(ENDING_BOUND).await;
        }
        let signal = status.and_then(|s| self.signal_of(s));
        let ending = match (status, signal) {
            (_, Some(sig)) => Ending::Signal(sig),
            (Some(status), None) => status.code().map_or(Ending::Unknown, Ending::Status),
            (None, _) => Ending::Running,
        };
        let said = match what {
            None => ending.output_closed(),
            Some(what) => ending.after(what),
        };
        let mut stderr = stderr_quote(&self.stderr.text());
        if !stderr.is_empty() && self.stderr_gate.is_stopped() {
            stderr.push_str(
                " (the last lines the referee read: the bot wrote more, past its stderr budget)",
            );
        }
        let notes = self.limit_notes();
        let mb = |bytes: Option<u64>| bytes.unwrap_or(0) >> 20;
        let breach = match &self.quota {
            Some(quota) => quota.breach().await,
            None => None,
        };
        let limit = if breach.is_some() {
            breach
        } else if self.cgroup.as_ref().is_some_and(BotCgroup::oom_killed) {
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
                format!("{limit} ({said}){notes}{stderr}"),
            ),
            None => Fault::new(FaultKind::Exited, format!("{said}{notes}{stderr}")),
        }
    }

    /// The exit status of a bot that is ending (its output closed, a write to it failed): waits
    /// until its process has exited, or until it is seen [idle](ProcessBot::is_idle) — then it
    /// lives on, `None` — at most [`ENDING_BOUND`]. No fixed wait: an exit under way is waited
    /// for however loaded the machine.
    async fn ending_status(&mut self) -> Option<std::process::ExitStatus> {
        let bound = Instant::now() + ENDING_BOUND;
        let mut pause = FIRST_LOOK;
        loop {
            // Seen idle, then the exit looked at: an exit just before the look shows.
            let idle = self.is_idle();
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if idle || Instant::now() >= bound {
                return None;
            }
            let until = (Instant::now() + pause).min(bound);
            if let Ok(Ok(status)) = timeout_at(until, self.child.wait()).await {
                return Some(status);
            }
            pause = (pause * 2).min(LONGEST_LOOK);
        }
    }

    /// The part of the bot's stderr file that belongs to the match just played: from where the
    /// previous span ended (or the file's length when the process started, so that what it
    /// wrote while starting belongs to its first match) to the position after everything it
    /// has written so far. First waits until the drain has taken what was in the pipe when
    /// this was called (at most [`ENDING_BOUND`]). `None` when its stderr is not saved.
    pub async fn stderr_span(&mut self) -> Option<StderrSpan> {
        self.stderr_file.as_ref()?;
        self.stderr_taken(ENDING_BOUND).await;
        let to = self.stderr_count.position();
        let (path, from) = self.stderr_file.as_mut()?;
        let span = StderrSpan {
            file: path.clone(),
            from: *from,
            to,
        };
        *from = to;
        Some(span)
    }

    /// What the bot wrote to its stderr since the last take ([`StderrTail::take_recent`]), once
    /// the task draining it has read what the pipe holds now ([hurried](StderrGate::hurry) out
    /// of a pause): on the referee's one-thread runtime a few yields let it run, and no more is
    /// waited for (a bot still writing is not waited out), so what it wrote just before a reply
    /// may come with the next take.
    pub async fn take_stderr(&self) -> Option<RecentStderr> {
        if let Some(probe) = &self.stderr_probe {
            if procfs::unread_bytes(probe.as_raw_fd()).is_some_and(|n| n > 0) {
                self.stderr_gate.hurry();
            }
            for _ in 0..STDERR_SETTLE_YIELDS {
                if self.stderr_gate.is_stopped()
                    || procfs::unread_bytes(probe.as_raw_fd()).is_none_or(|n| n == 0)
                {
                    break;
                }
                tokio::task::yield_now().await;
            }
        }
        self.stderr.take_recent()
    }

    /// Lets the task draining the bot's stderr take what the pipe holds now, at most `limit`:
    /// so that a fault's message shows an exited bot's last words, and a match's span of the
    /// stderr file ends after what the bot wrote during it, whatever ran first. Bytes written
    /// after this is called are not waited for (a bot, or a process it started, may still be
    /// writing), nor what is past the bot's stderr budget.
    async fn stderr_taken(&self, limit: Duration) {
        let target = self.stderr_count.read() + self.stderr_unread();
        self.stderr_gate.hurry();
        let deadline = Instant::now() + limit;
        while self.stderr_count.read() < target
            && !self.stderr_gate.is_stopped()
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// The bytes waiting unread in the bot's stderr pipe.
    fn stderr_unread(&self) -> u64 {
        self.stderr_probe
            .as_ref()
            .and_then(|probe| procfs::unread_bytes(probe.as_raw_fd()))
            .unwrap_or(0) as u64
    }

    /// Lets the drain read, past the budget of the match, what the pipe of a bot that is gone
    /// holds: its last words are then the end of its stderr (unless a process it started still
    /// writes there).
    fn open_stderr_ending(&self) {
        self.stderr_gate.open_ending(self.stderr_unread());
    }

    /// Lets the drain read, past the budget of the match, a decision's budget of what a bot
    /// that is told to end writes meanwhile (its goodbye is a window of its own).
    fn open_stderr_goodbye(&self) {
        let budget = self.stderr_gate.budget().per_decision.unwrap_or(u64::MAX);
        self.stderr_gate.open_ending(budget);
    }

    /// Ends the process: optionally writes `last` (a `goodbye`, or the `error` saying why the bot
    /// is stopped), closes stdin, waits up to the grace period for it to exit, then kills its
    /// whole process group and reaps it. Returns whether the bot exited by itself within the
    /// grace period (`false` too when it had been stopped already).
    pub async fn shutdown(&mut self, last: Option<&[u8]>, grace: Duration) -> bool {
        if !self.alive {
            return false;
        }
        // A bot frozen off move (turn isolation) could neither read nor exit.
        self.freeze(false);
        self.open_stderr_goodbye();
        if let Some(line) = last {
            let _ = self.write(line, grace).await;
        }
        self.wire.close_input();
        let exited = matches!(timeout(grace, self.child.wait()).await, Ok(Ok(_)));
        self.kill().await;
        exited
    }

    /// Kills the whole process group at once, reaps the bot, and lets the stderr drain take what
    /// the pipe holds and finish (briefly: a descendant that escaped the group may still hold
    /// the pipe; the drain is stopped then).
    pub async fn kill(&mut self) {
        if !self.alive {
            return;
        }
        if let Some(quota) = &self.quota {
            quota.stop();
        }
        self.wire.close_input();
        let _ = self.child.signal(libc::SIGKILL);
        let _ = timeout(Duration::from_secs(2), self.child.wait()).await;
        // Whatever left the process group (a `setsid` descendant) is still in the control group.
        if let Some(group) = &self.cgroup {
            group.kill_all().await;
        }
        self.open_stderr_ending();
        if let Some(mut drain) = self.drain.take() {
            if timeout(Duration::from_millis(500), &mut drain)
                .await
                .is_err()
            {
                drain.abort();
            }
        }
        self.alive = false;
    }
}

impl Drop for ProcessBot {
    fn drop(&mut self) {
        if self.alive {
            let _ = self.child.signal(libc::SIGKILL);
        }
        if let Some(drain) = self.drain.take() {
            drain.abort();
        }
    }
}

/// The note of a fault of a bot whose stderr is past its budget: its writes there wait.
fn stderr_over_budget(budget: stderr::StderrBudget) -> String {
    let per = |bytes: Option<u64>, shift: u32, unit: &str| {
        bytes.map_or("no bound".to_string(), |b| format!("{} {unit}", b >> shift))
    };
    format!(
        "; its stderr was over its budget ({} a decision, {} a match): the referee stopped reading it, and the bot's writes there wait (docs/security.md#the-stderr-budget)",
        per(budget.per_decision, 10, "KiB"),
        per(budget.per_match, 20, "MiB"),
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::SandboxMode;

    /// No sandbox, and bubblewrap where it works here.
    fn sandboxes() -> Vec<Sandbox> {
        let mut all = vec![Sandbox::None];
        if let Ok((bwrap @ Sandbox::Bwrap(_), _)) = Sandbox::resolve(SandboxMode::Auto) {
            all.push(bwrap);
        }
        all
    }

    fn run(test: impl std::future::Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(test);
    }

    async fn shell(script: &str, sandbox: &Sandbox) -> ProcessBot {
        shell_with(script, sandbox, ResourceLimits::default()).await
    }

    async fn shell_with(script: &str, sandbox: &Sandbox, limits: ResourceLimits) -> ProcessBot {
        let options = ProcessOptions {
            sandbox: sandbox.clone(),
            limits,
            ..ProcessOptions::default()
        };
        let command = ["sh", "-c", script].map(String::from);
        ProcessBot::spawn(&command, &options).await.unwrap()
    }

    /// A stderr budget of `kb` KiB a decision.
    fn stderr_budget(kb: u64) -> ResourceLimits {
        ResourceLimits {
            stderr_kb: Some(kb),
            ..ResourceLimits::default()
        }
    }

    /// A generous bound for what a loaded machine does in milliseconds.
    const BOUND: Duration = Duration::from_secs(30);

    #[test]
    fn once_a_bot_is_waiting_everything_it_wrote_in_reaction_is_in_hand() {
        run(async {
            for sandbox in sandboxes() {
                // Two lines for each line read, one of them through a child process, and a
                // line on stderr.
                let script = "while read -r l; do echo \"$l\"; echo \"$l\" | cat; echo e >&2; done";
                let mut bot = shell(script, &sandbox).await;
                for round in 1..=3 {
                    bot.write(b"hi\n", BOUND).await.unwrap();
                    let bound = Instant::now() + BOUND;
                    let mut lines = Vec::new();
                    while !bot.is_waiting() {
                        assert!(Instant::now() < bound, "never waiting ({sandbox:?})");
                        let (read, ended) = bot.read_unasked(Instant::now() + FIRST_LOOK).await;
                        assert!(!ended);
                        lines.extend(read);
                    }
                    lines.extend(bot.take_read_lines().0);
                    assert_eq!(lines.len(), 2, "round {round} ({sandbox:?}): {lines:?}");
                }
                bot.kill().await;
            }
        });
    }

    #[test]
    fn a_line_waiting_in_the_pipe_when_a_request_is_written_is_stray_never_its_reply() {
        run(async {
            // It answers request 7 before it is asked, then once asked.
            let script = r#"echo '{"type":"action","id":7,"action":1}'; read -r l; echo '{"type":"action","id":7,"action":2}'; exec sleep 60"#;
            let mut bot = shell(script, &Sandbox::None).await;
            let bound = Instant::now() + BOUND;
            let fd = bot.wire.output().as_raw_fd();
            // In the pipe, not yet seen by the reader.
            while procfs::unread_bytes(fd).is_none_or(|n| n == 0) {
                assert!(Instant::now() < bound, "the bot never wrote");
                tokio::time::sleep(FIRST_LOOK).await;
            }
            let early = bot.read_before_request(7, 3);
            assert_eq!(early.len(), 1, "{early:?}");
            assert_eq!(early[0].fault, FaultKind::StaleId);
            assert!(
                early[0].message.contains("before request 7 was written"),
                "{}",
                early[0].message
            );
            bot.write(b"{\"type\":\"request\"}\n", BOUND).await.unwrap();
            let wait = ReplyWait {
                id: 7,
                deadline: Instant::now() + BOUND,
                limit: "the bound",
                max_noise: 3,
            };
            let mut noise = Vec::new();
            let reply = bot.read_reply(&wait, &mut noise).await;
            assert_eq!(reply.unwrap(), serde_json::json!(2));
            assert!(noise.is_empty(), "{noise:?}");
            bot.kill().await;
        });
    }

    #[test]
    fn a_spinning_bot_is_never_idle_and_a_sleeping_one_is() {
        run(async {
            for sandbox in sandboxes() {
                let spinner = shell("while :; do :; done", &sandbox).await;
                for _ in 0..50 {
                    assert!(!spinner.is_idle(), "{sandbox:?}");
                    assert!(!spinner.is_waiting(), "{sandbox:?}");
                    tokio::time::sleep(FIRST_LOOK).await;
                }
                let mut sleeper = shell("sleep 60", &sandbox).await;
                let bound = Instant::now() + BOUND;
                while !sleeper.is_idle() {
                    assert!(Instant::now() < bound, "never idle ({sandbox:?})");
                    tokio::time::sleep(FIRST_LOOK).await;
                }
                sleeper.kill().await;
            }
        });
    }

    #[test]
    fn a_bot_whose_output_ends_exits_or_lives_on() {
        run(async {
            for sandbox in sandboxes() {
                for (script, exits) in [("exec >&-; sleep 60", false), ("exit 3", true)] {
                    if !exits && sandbox.is_bwrap() {
                        // bubblewrap holds the pipe open: the output does not end.
                        continue;
                    }
                    let mut bot = shell(script, &sandbox).await;
                    let bound = Instant::now() + BOUND;
                    while !bot.read_unasked(bound).await.1 {
                        assert!(Instant::now() < bound, "{script} ({sandbox:?})");
                    }
                    assert_eq!(bot.exits().await, exits, "{script} ({sandbox:?})");
                    bot.kill().await;
                }
            }
        });
    }

    #[test]
    fn a_bot_blocked_on_its_stderr_past_its_budget_waits_and_is_killed_without_a_hang() {
        run(async {
            for sandbox in sandboxes() {
                // It writes stderr without end, then would read: past its budget it waits.
                let script = "yes flood >&2; read -r l";
                let mut bot = shell_with(script, &sandbox, stderr_budget(16)).await;
                let bound = Instant::now() + BOUND;
                while !bot.stderr_gate.is_stopped() || !bot.is_waiting() {
                    assert!(Instant::now() < bound, "never waiting ({sandbox:?})");
                    tokio::time::sleep(FIRST_LOOK).await;
                }
                // Its budget, and the byte that tells it has more.
                assert_eq!(bot.stderr_count.read(), (16 << 10) + 1, "{sandbox:?}");
                assert!(bot.limit_notes().contains("its stderr was over its budget"));
                let started = Instant::now();
                assert!(!bot.shutdown(None, Duration::from_millis(100)).await);
                assert!(started.elapsed() < BOUND, "{sandbox:?}");
                assert!(!bot.is_alive());
            }
        });
    }

    #[test]
    fn a_crashed_bots_last_words_past_its_budget_are_the_end_of_its_stderr() {
        run(async {
            for sandbox in sandboxes() {
                // 40 KiB, past its budget of 16 but within what its pipe holds, then its last
                // words, then an exit with status 3.
                let script = "head -c 40960 /dev/zero | tr '\\0' . >&2; echo >&2; echo last words >&2; exit 3";
                let mut bot = shell_with(script, &sandbox, stderr_budget(16)).await;
                let bound = Instant::now() + BOUND;
                while !bot.has_exited() {
                    assert!(Instant::now() < bound, "never exited ({sandbox:?})");
                    tokio::time::sleep(FIRST_LOOK).await;
                }
                let fault = bot.exit_fault("it crashed").await.unwrap();
                assert!(
                    fault.message.ends_with("lines: last words"),
                    "{}",
                    fault.message
                );
                assert!(bot.stderr.text().ends_with("\nlast words\n"));
                assert_eq!(bot.stderr_count.read(), 40960 + 1 + 11, "{sandbox:?}");
                bot.kill().await;
            }
        });
    }
}
