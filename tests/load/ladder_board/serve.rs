//! `referee ladder serve` on the filled ladder, with no local worker (`-j 0`: the matchmaker
//! is paused as well, so nothing is played while the board is measured); stopped with SIGTERM
//! when dropped, so that a failed run leaves no server behind.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::time::Duration;

use super::Env;

/// A running server.
pub(super) struct Server {
    child: Option<Child>,
    /// Where it listens: `http://ADDRESS`.
    pub(super) url: String,
    /// Its stderr's file.
    pub(super) stderr: PathBuf,
}

impl Server {
    /// Starts the server of the ladder at `home` on a free port of the loopback and waits
    /// until it listens; its stderr goes to `stderr`.
    pub(super) fn start(env: &Env, home: &Path, stderr: &Path) -> Server {
        let mut child = (env.referee)()
            .args(["ladder", "serve"])
            .arg(home)
            .args(["--listen", "127.0.0.1:0", "-j", "0"])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(stderr).unwrap())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tell, told) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("ladder: serving on ") {
                    let url = rest.split_whitespace().next().unwrap_or_default();
                    let _ = tell.send(url.to_owned());
                }
            }
        });
        let mut server = Server {
            child: Some(child),
            url: String::new(),
            stderr: stderr.to_owned(),
        };
        server.url = told
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|_| {
                panic!(
                    "the server says where it listens (see {})",
                    stderr.display()
                )
            });
        server
    }

    /// Stops it with SIGTERM and waits for it; its exit status.
    pub(super) fn stop(mut self) -> ExitStatus {
        let mut child = self.child.take().expect("a running server");
        terminate(&child);
        child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            terminate(&child);
            let _ = child.wait();
        }
    }
}

/// Sends SIGTERM to `child`, not reaped yet.
fn terminate(child: &Child) {
    // SAFETY: kill with the pid of our own child, not reaped yet, and a signal number.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
}
