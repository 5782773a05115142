//! A bot process: spawned in its own process group, spoken to in JSON lines, always reaped.
//!
//! Reads go through tokio-util's [`AnyDelimiterCodec`] (newline-delimited, bytes) with a hard
//! length cap, so a bot cannot make the
//! referee hold an endless line; every read and write has a deadline, so a bot cannot make the
//! referee wait forever; stderr is drained by a task of its own; and the whole process group is
//! killed when the bot is shut down or dropped, so no child outlives the referee.

use super::Fault;
use super::stderr::{self, StderrTail};
use futures::StreamExt;
use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop, ProcessGroup};
use protocol::{FaultKind, FromBot, HelloReply, PROTOCOL_VERSION};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::process::{ChildStdin, ChildStdout};
use tokio::time::{Instant, timeout, timeout_at};
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, FramedRead};

/// How many timed-out request ids are remembered, so that their late replies are not faults.
const EXPIRED_KEPT: usize = 16;

/// How bot processes are run.
#[derive(Clone, Debug)]
pub struct ProcessOptions {
    /// Longest line accepted from a bot, in bytes.
    pub max_line_bytes: usize,
    /// Where to write the bot's stderr (capped), if anywhere.
    pub stderr_file: Option<PathBuf>,
    /// Most bytes of stderr written to `stderr_file`.
    pub stderr_cap: u64,
    /// How long a bot has to exit by itself after `goodbye` before its group is killed.
    pub exit_grace: Duration,
}

impl Default for ProcessOptions {
    fn default() -> Self {
        ProcessOptions {
            max_line_bytes: 1 << 20,
            stderr_file: None,
            stderr_cap: 1 << 20,
            exit_grace: Duration::from_secs(1),
        }
    }
}

/// A running bot process.
pub struct ProcessBot {
    child: Box<dyn ChildWrapper>,
    stdin: Option<ChildStdin>,
    lines: FramedRead<ChildStdout, AnyDelimiterCodec>,
    stderr: StderrTail,
    /// The task draining stderr; awaited (briefly) at the end so the last lines are kept.
    drain: Option<tokio::task::JoinHandle<()>>,
    pid: u32,
    alive: bool,
    /// Requests that timed out (the most recent few): their late replies are dropped silently.
    expired: std::collections::VecDeque<u64>,
}

impl ProcessBot {
    /// Starts `command` (program and arguments) in a new process group with piped stdio.
    ///
    /// # Errors
    /// A [`FaultKind::SpawnFailed`] fault when the program cannot be started.
    pub async fn spawn(command: &[String], options: &ProcessOptions) -> Result<Self, Fault> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| Fault::new(FaultKind::SpawnFailed, "empty command"))?;
        let mut wrap = CommandWrap::with_new(program, |cmd| {
            cmd.args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
        });
        // If the referee dies without cleaning up (SIGKILL), the kernel kills the bot too.
        // SAFETY: the closure runs in the child between fork and exec and only calls prctl,
        // which is async-signal-safe.
        unsafe {
            wrap.command_mut().pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        wrap.wrap(ProcessGroup::leader()).wrap(KillOnDrop);
        let mut child = wrap.spawn().map_err(|e| {
            Fault::new(
                FaultKind::SpawnFailed,
                format!("cannot start '{program}': {e}"),
            )
        })?;
        let pid = child.id().unwrap_or(0);
        let stdin = child.stdin().take();
        let stdout = child.stdout().take().expect("stdout is piped");
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
                AnyDelimiterCodec::new_with_max_length(
                    b"
"
                    .to_vec(),
                    b"
"
                    .to_vec(),
                    options.max_line_bytes,
                ),
            ),
            stderr: tail,
            drain: Some(drain),
            pid,
            alive: true,
            expired: std::collections::VecDeque::new(),
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

    /// The last few KiB of the bot's stderr.
    pub fn stderr_tail(&self) -> String {
        self.stderr.text()
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
            FromBot::Action(_) => Err(Fault::new(
                FaultKind::WrongShape,
                format!(
                    "expected a hello reply {{\"type\":\"hello\",\"name\":...}}, got: {}",
                    excerpt(&String::from_utf8_lossy(&line))
                ),
            )),
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
                Ok(FromBot::Action(reply)) if self.expired.contains(&reply.id) => {
                    self.expired.retain(|&e| e != reply.id);
                    continue;
                }
                Ok(FromBot::Action(reply)) => Fault::new(
                    FaultKind::StaleId,
                    format!(
                        "a reply to request {} while request {id} is pending (a repeated or invented id); it is ignored",
                        reply.id
                    ),
                ),
                Ok(FromBot::Hello(_)) => Fault::new(
                    FaultKind::WrongShape,
                    format!("a hello while request {id} is pending; it is ignored"),
                ),
                Err(fault) => fault,
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
                Ok(Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded))) => Err(Fault::new(
                    FaultKind::LineTooLong,
                    "a line longer than the referee's line-length cap",
                )),
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
        match self.child.try_wait() {
            Ok(Some(_)) => {
                self.exited_fault("the bot exited (a process it started still holds its output)")
                    .await
            }
            _ => Fault::new(FaultKind::Timeout, "no reply within the time limit"),
        }
    }

    /// An `exited` fault whose message says how the bot ended and what it last wrote to stderr.
    async fn exited_fault(&mut self, what: &str) -> Fault {
        let status = timeout(Duration::from_millis(300), self.child.wait()).await;
        let how = match status {
            Ok(Ok(status)) => match (
                status.code(),
                std::os::unix::process::ExitStatusExt::signal(&status),
            ) {
                (Some(code), _) => format!("; it exited with code {code}"),
                (None, Some(sig)) => format!("; it was killed by signal {sig}"),
                _ => String::new(),
            },
            _ => "; the process is still running".to_string(),
        };
        let tail = self.stderr.text();
        let last: Vec<&str> = tail.lines().rev().take(3).collect();
        let stderr = if last.is_empty() {
            String::new()
        } else {
            let joined: Vec<&str> = last.into_iter().rev().collect();
            format!("; last stderr: {}", excerpt(&joined.join(" | ")))
        };
        Fault::new(FaultKind::Exited, format!("{what}{how}{stderr}"))
    }

    /// Ends the process: optionally writes `last` (a `goodbye`, or the `error` saying why the bot
    /// is stopped), closes stdin, waits up to the grace period for it to exit, then kills its
    /// whole process group and reaps it.
    pub async fn shutdown(&mut self, last: Option<&[u8]>, grace: Duration) {
        if !self.alive {
            return;
        }
        if let Some(line) = last {
            let _ = self.write(line, grace).await;
        }
        self.stdin = None;
        let _ = timeout(grace, self.child.wait()).await;
        self.kill().await;
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

/// Parses one line from a bot: first as UTF-8 text, then as JSON, then as a message.
fn parse(bytes: &[u8]) -> Result<FromBot, Fault> {
    let line = std::str::from_utf8(bytes).map_err(|_| {
        Fault::new(
            FaultKind::Malformed,
            format!(
                "not UTF-8 text: {}",
                excerpt(&String::from_utf8_lossy(bytes))
            ),
        )
    })?;
    let line = line.strip_suffix('\r').unwrap_or(line);
    let value: Value = serde_json::from_str(line).map_err(|e| {
        Fault::new(
            FaultKind::Malformed,
            format!("not valid JSON ({e}): {}", excerpt(line)),
        )
    })?;
    serde_json::from_value(value).map_err(|e| {
        Fault::new(
            FaultKind::WrongShape,
            format!("not a protocol message ({e}): {}", excerpt(line)),
        )
    })
}

/// The start of `text`, at most 200 characters, for messages; control characters (a bot's
/// terminal escapes) are shown escaped, never passed on to the referee's own output.
pub(crate) fn excerpt(text: &str) -> String {
    const MAX: usize = 200;
    let mut out: String = text
        .chars()
        .take(MAX)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if text.chars().count() > MAX {
        out.push_str(&format!("… ({} bytes)", text.len()));
    }
    out
}
