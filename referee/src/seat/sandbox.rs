//! The bubblewrap sandbox: each bot process in its own PID, network, IPC, UTS, user and cgroup
//! namespaces, unable to make user namespaces of its own, with no capabilities, a read-only view
//! of the file system, a private `/tmp` and `/dev/shm` (both capped), an empty `/run` (no host
//! sockets), an empty `/sys`, no file of `/proc` that shows other processes or counts the
//! machine's work (`proc_view/`), the referee's output and config (logs, results, other bots'
//! stderr and working directories) hidden, and only its own working directory writable.
//!
//! The working directory is the one admitted when the run started, bound by its descriptor
//! (`--bind-fd`: bubblewrap 0.10.0, and Debian's 0.8.0 since its security update), so that a name
//! swapped for a link since then binds nothing else; what is hidden is where the referee found it
//! at this start, never through a link ([`super::admitted_workdir`], [`super::hidden_paths`]).
//!
//! In its own PID namespace a bot sees no other process, so it cannot open another bot's pipes
//! through `/proc/PID/fd`; and when the namespace's first process dies the kernel kills every
//! process in it, so a bot's descendants die with it however they detach.
//!
//! `/sys` is empty because the bind of `/` brings the host's control groups with it: every
//! bot's `pids.current` and memory use, which a bot can change and another read. Runtimes do
//! without it: glibc counts CPUs from `/proc/stat` or the affinity mask when
//! `/sys/devices/system/cpu` is missing, the JVM finds no control group files and takes the
//! host's figures, and Go, Node.js and Python need nothing there to start (docs/security.md).
//!
//! No user namespaces inside (bubblewrap's `--disable-userns`, which needs 0.8.0): in one, a bot
//! could mount the root of the cgroup2 hierarchy and read every process of the machine, and the
//! machine's CPU use and pressure, from it. bubblewrap sets `user.max_user_namespaces` to 1 in
//! the sandbox's user namespace and runs the bot in a second one nested in it, which the bot
//! cannot undo.

use super::admitted_workdir::AdmittedWorkdir;
use super::hidden_paths::Place;
use super::proc_view::{self, FixedFiles};
use super::seccomp::BotFilter;
use super::users::Credentials;
use std::os::fd::RawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

/// How the referee was asked to run bots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// bubblewrap where it is installed and works, otherwise none (with a warning).
    #[default]
    Auto,
    /// bubblewrap, or refuse to run.
    Bwrap,
    /// No sandbox: bots run as ordinary child processes.
    None,
}

/// How bot processes are run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Sandbox {
    /// Ordinary child processes.
    #[default]
    None,
    /// Under bubblewrap.
    Bwrap(Bubblewrap),
}

/// bubblewrap as found and tried here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bubblewrap {
    /// Where it is.
    pub path: PathBuf,
    /// Whether it takes `--disable-userns` (bubblewrap 0.8.0 and later). An older one still
    /// sandboxes bots, but a bot can then make a user namespace of its own in the sandbox.
    pub disables_userns: bool,
    /// Whether it takes `--bind-fd` (bubblewrap 0.10.0, and backported in some distributions'
    /// 0.8.0): the workdir is then bound by the descriptor the referee holds, else by its path,
    /// checked just before.
    pub binds_fd: bool,
}

impl Bubblewrap {
    /// bubblewrap at `path`, taken to have `--disable-userns` and `--bind-fd` (for tests that
    /// know it does).
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Bubblewrap {
            path: path.into(),
            disables_userns: true,
            binds_fd: true,
        }
    }
}

/// A command line that starts a bot, with the descriptors its child must keep open across its
/// exec (bubblewrap reads them).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Wrapped {
    /// The program and its arguments.
    pub args: Vec<String>,
    /// The descriptors to keep.
    pub keep: Vec<RawFd>,
}

/// Whether the bubblewrap at `path` lists `--bind-fd` in its help.
fn has_bind_fd(path: &Path) -> bool {
    std::process::Command::new(path)
        .arg("--help")
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|out| {
            String::from_utf8_lossy(&out.stdout).contains("--bind-fd ")
                || String::from_utf8_lossy(&out.stderr).contains("--bind-fd ")
        })
}

/// What bubblewrap says of an option it does not have.
const NO_DISABLE_USERNS: &str = "disable-userns";

/// Why the sandbox asked for cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SandboxError(String);

fn find_bwrap() -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|d| d.join("bwrap"))
        .find(|p| p.is_file())
}

/// Runs a trivial command under bubblewrap with the options and the system-call filter bots
/// get, as `user` if given (as a bot's user, bubblewrap needs unprivileged user namespaces),
/// to learn whether it works here (it needs user namespaces, or privileges: a setuid
/// bubblewrap gains none under the filter's `no_new_privs`).
fn probe(bwrap: &Path, user: Option<Credentials>, disable_userns: bool) -> Result<(), String> {
    let mut command = std::process::Command::new(bwrap);
    command
        .args(base_args(None, disable_userns))
        .args(["--chdir", "/", "--", "true"])
        .stdin(std::process::Stdio::null());
    let filter = BotFilter::native();
    // SAFETY: assume and install are async-signal-safe, on values made before the fork.
    unsafe {
        command.pre_exec(move || {
            if let Some(user) = user {
                user.assume()?;
            }
            match &filter {
                Some(filter) => filter.install(),
                None => Ok(()),
            }
        });
    }
    let out = command.output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

impl Sandbox {
    /// The sandbox for `mode`, with a warning to show when `auto` falls back to none.
    ///
    /// # Errors
    /// When `bwrap` is asked for and is missing or does not work here.
    pub fn resolve(mode: SandboxMode) -> Result<(Sandbox, Option<String>), SandboxError> {
        Sandbox::resolve_as(mode, None)
    }

    /// [`Sandbox::resolve`] for bots that run as `user` (bubblewrap is tried as that user).
    ///
    /// # Errors
    /// When `bwrap` is asked for and is missing or does not work here.
    pub fn resolve_as(
        mode: SandboxMode,
        user: Option<Credentials>,
    ) -> Result<(Sandbox, Option<String>), SandboxError> {
        if mode == SandboxMode::None {
            return Ok((Sandbox::None, None));
        }
        match (Sandbox::usable(user), mode) {
            (Ok(bwrap), _) => Ok((Sandbox::Bwrap(bwrap), None)),
            (Err(why), SandboxMode::Bwrap) => Err(SandboxError(format!("--sandbox bwrap: {why}"))),
            (Err(why), _) => Ok((
                Sandbox::None,
                Some(format!(
                    "warning: {why}; bots run without a sandbox (see docs/security.md)"
                )),
            )),
        }
    }

    /// bubblewrap, when it is installed and works here for bots that run as `user` (the
    /// referee's own when `None`): with `--disable-userns` where it has that option, else (a
    /// bubblewrap older than 0.8.0) without it.
    ///
    /// # Errors
    /// Why it cannot be used.
    pub fn usable(user: Option<Credentials>) -> Result<Bubblewrap, String> {
        let path =
            find_bwrap().ok_or("bwrap is not installed (Debian: apt-get install bubblewrap)")?;
        let binds_fd = has_bind_fd(&path);
        let tried = |disables_userns| {
            probe(&path, user, disables_userns).map(|()| Bubblewrap {
                path: path.clone(),
                disables_userns,
                binds_fd,
            })
        };
        tried(true)
            .or_else(|e| {
                if e.contains(NO_DISABLE_USERNS) {
                    tried(false)
                } else {
                    Err(e)
                }
            })
            .map_err(|e| format!("bwrap does not work here: {e}"))
    }

    /// Whether bots run under bubblewrap.
    pub fn is_bwrap(&self) -> bool {
        matches!(self, Sandbox::Bwrap(_))
    }

    /// The command line that runs `command` in the sandbox: in `workdir` (writable) if given,
    /// else in `from` (read-only; the directory it is started from), with the `hidden` places
    /// replaced by empty ones (one that holds `workdir` is emptied around it: the workdir is
    /// bound back in), a private `/tmp` of at most `tmp_bytes` (`from` and the paths
    /// the command names from it stay visible when they are under /tmp), and the `fixed` copies
    /// of `/proc` files (whose descriptors the child must keep open across its exec). The
    /// caller has checked that `workdir`'s path leads to it and found where `hidden` is now.
    pub fn wrap(
        &self,
        command: &[String],
        from: &Path,
        workdir: Option<&AdmittedWorkdir>,
        hidden: &[Place],
        tmp_bytes: Option<u64>,
        fixed: &FixedFiles,
    ) -> Wrapped {
        let Sandbox::Bwrap(bwrap) = self else {
            return Wrapped {
                args: command.to_vec(),
                keep: Vec::new(),
            };
        };
        let mut args = vec![bwrap.path.display().to_string()];
        let mut keep = fixed.descriptors();
        args.extend(base_args(tmp_bytes, bwrap.disables_userns));
        args.extend(fixed.args());
        // The private /tmp must not hide the bot itself: the referee's directory and any path
        // the command names (absolute, or relative to the directory) whose real location, once
        // symbolic links are followed, is under /tmp are mounted back, read-only.
        let cwd = from.to_path_buf();
        let named = command
            .iter()
            .map(|word| cwd.join(word))
            .filter(|p| p.exists());
        for path in std::iter::once(cwd.clone()).chain(named) {
            let Ok(path) = path.canonicalize() else {
                continue;
            };
            if path.starts_with("/tmp") && path != Path::new("/tmp") {
                let path = path.display().to_string();
                args.extend(["--ro-bind".into(), path.clone(), path]);
            }
        }
        // A hidden directory that holds the working directory (the directory of every bot's
        // workdir, sealed) is emptied first and the working directory bound back into it, so
        // that what is made in it later, after this start, stays out of view; it is made
        // read-only once the working directory is in.
        let (around, inside): (Vec<&Place>, Vec<&Place>) = hidden.iter().partition(|place| {
            place.is_dir
                && workdir
                    .is_some_and(|w| w.path() != place.path && w.path().starts_with(&place.path))
        });
        for place in &around {
            let shown = place.path.display().to_string();
            args.extend(["--size".into(), "4096".into(), "--tmpfs".into(), shown]);
        }
        // The working directory next, so that hidden paths inside it are hidden too: the
        // directory admitted, by its descriptor where bubblewrap can take one.
        if let Some(dir) = workdir {
            let path = dir.path().display().to_string();
            if bwrap.binds_fd {
                args.extend(["--bind-fd".into(), dir.raw_fd().to_string(), path]);
                keep.push(dir.raw_fd());
            } else {
                args.extend(["--bind".into(), path.clone(), path]);
            }
        }
        for place in &around {
            args.extend(["--remount-ro".into(), place.path.display().to_string()]);
        }
        // What is inside an emptied directory is hidden with it (and could not be mounted
        // over in it, read-only by now).
        let inside = inside
            .into_iter()
            .filter(|place| !around.iter().any(|a| place.path.starts_with(&a.path)));
        for place in inside {
            let shown = place.path.display().to_string();
            if place.is_dir {
                args.extend([
                    "--size".into(),
                    "4096".into(),
                    "--tmpfs".into(),
                    shown.clone(),
                    "--remount-ro".into(),
                    shown,
                ]);
            } else {
                args.extend(["--ro-bind".into(), "/dev/null".into(), shown]);
            }
        }
        let dir = workdir.map_or(cwd, |w| w.path().to_path_buf());
        args.extend(["--chdir".into(), dir.display().to_string()]);
        args.push("--".into());
        args.extend(command.iter().cloned());
        Wrapped { args, keep }
    }
}

/// The namespaces, mounts and privileges every sandboxed bot gets; `disable_userns` where
/// bubblewrap has the option.
fn base_args(tmp_bytes: Option<u64>, disable_userns: bool) -> Vec<String> {
    let size = |args: &mut Vec<String>| {
        if let Some(bytes) = tmp_bytes {
            args.extend(["--size".to_string(), bytes.to_string()]);
        }
    };
    let mut args: Vec<String> = [
        "--unshare-all",
        // A user namespace for sure (--unshare-all only tries), in which the bot can make none.
        "--unshare-user",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
    ]
    .map(String::from)
    .to_vec();
    if disable_userns {
        args.push("--disable-userns".into());
    }
    // /dev read-only but for a capped /dev/shm; /run (the host's sockets) empty and read-only;
    // a private, capped /tmp.
    size(&mut args);
    args.extend(["--tmpfs", "/dev/shm", "--remount-ro", "/dev"].map(String::from));
    args.extend(["--tmpfs", "/run", "--remount-ro", "/run"].map(String::from));
    size(&mut args);
    args.extend(["--tmpfs".to_string(), "/tmp".to_string()]);
    // /sys empty and read-only; the files of /proc that show other processes or count the
    // machine's work unreadable or empty.
    args.extend(["--tmpfs", "/sys", "--remount-ro", "/sys"].map(String::from));
    args.extend(proc_view::closing_args());
    args
}
