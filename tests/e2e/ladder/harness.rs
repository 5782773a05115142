//! Starting ladders and workers as processes, and the databases they run on.

use crate::util::{referee, skipped};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A database a ladder test runs on: SQLite in the ladder's home (`url` is `None`), or a
/// PostgreSQL database made for it and dropped after it.
pub struct Db {
    /// `--db`'s value.
    pub url: Option<String>,
    dropped: Option<(String, String)>,
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Some((admin, name)) = &self.dropped {
            let _ = Command::new("psql")
                .args([
                    admin,
                    "-qc",
                    &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
                ])
                .output();
        }
    }
}

/// The databases a ladder test runs on: SQLite, then PostgreSQL when it is given.
pub fn databases(test: &str) -> Vec<Db> {
    let mut dbs = vec![Db {
        url: None,
        dropped: None,
    }];
    match std::env::var("REFEREE_TEST_POSTGRES") {
        Ok(admin) => dbs.push(fresh_postgres(&admin)),
        Err(_) => skipped(
            &format!("{test} on PostgreSQL"),
            "REFEREE_TEST_POSTGRES is not set",
        ),
    }
    dbs
}

/// A new, empty PostgreSQL database (made with Debian's `psql`).
fn fresh_postgres(admin: &str) -> Db {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("ladder_e2e_{}_{n}", std::process::id());
    let made = Command::new("psql")
        .args([admin, "-qc", &format!("CREATE DATABASE {name}")])
        .output()
        .expect("psql runs");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let base = admin.rsplit_once('/').map_or(admin, |(base, _)| base);
    Db {
        url: Some(format!("{base}/{name}")),
        dropped: Some((admin.to_owned(), name)),
    }
}

/// A ladder config of `bots` (`name`, `lang`, `path`) for Vabanque, 3 or 4 players, with
/// `extra` TOML lines at the top.
pub fn config(dir: &Path, extra: &str, bots: &[(&str, &str, &str)]) -> PathBuf {
    let mut text = format!(
        "game = \"vabanque\"\nplayers = [3, 4]\nseed = 11\ntime_limit_ms = {}\n{extra}\n",
        crate::util::LIMIT_MS
    );
    for (name, lang, path) in bots {
        text += &format!("[[bot]]\nname = {name:?}\nlang = {lang:?}\npath = {path:?}\n");
    }
    let path = dir.join("ladder.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Four built-in bots of two kinds, each its own owner.
pub const BUILTINS: &[(&str, &str, &str)] = &[
    ("rand-a", "builtin", "random"),
    ("rand-b", "builtin", "random"),
    ("heur-a", "builtin", "heuristic"),
    ("heur-b", "builtin", "heuristic"),
];

/// A running `referee ladder serve`.
pub struct Server {
    /// The process.
    pub child: Child,
    /// Its URL.
    pub url: String,
    /// The ladder's home.
    pub home: PathBuf,
    /// The command (for its mark).
    pub command: Command,
}

impl Server {
    /// Starts `referee ladder serve LADDER -j JOBS` on a free port (making the ladder from
    /// the file on `db` if its home has none), and waits until it listens.
    pub fn start(ladder: &Path, home: &Path, db: Option<&str>, jobs: usize) -> Server {
        let mut command = referee();
        command.args(["ladder", "serve"]).arg(ladder);
        command
            .arg("--home")
            .arg(home)
            .args(["--listen", "127.0.0.1:0", "-j", &jobs.to_string()]);
        if let Some(db) = db {
            command.args(["--db", db]);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tell, told) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("ladder: serving on ") {
                    let url = rest
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned();
                    let _ = tell.send(url);
                }
            }
        });
        let url = told
            .recv_timeout(Duration::from_secs(120))
            .expect("the ladder server says where it listens");
        Server {
            child,
            url,
            home: home.to_path_buf(),
            command,
        }
    }

    /// The admin's token.
    pub fn admin_token(&self) -> String {
        std::fs::read_to_string(self.home.join("admin.token")).unwrap()
    }

    /// A client of it with `token`.
    pub fn client(&self, token: Option<&str>) -> ladder::client::Client {
        ladder::client::Client::new(&self.url, token)
    }

    /// Stops it with SIGTERM and waits for it.
    pub fn stop(mut self) {
        signal(&self.child, libc::SIGTERM);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the server ended with {status}");
        crate::util::assert_no_marked_survivors(&self.command);
    }

    /// Kills it with SIGKILL, as a machine lost would.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        let _ = self.child.wait();
    }
}

/// A process a test started and did not stop (a test that failed midway): killed, so that no
/// server or worker outlives its test.
fn kill_left(child: &mut Child) {
    if matches!(child.try_wait(), Ok(None)) {
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        kill_left(&mut self.child);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        kill_left(&mut self.child);
    }
}

/// Sends `signal` to `child`.
pub fn signal(child: &Child, signal: i32) {
    // SAFETY: kill with a pid we started and a signal number.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
}

/// A running `referee ladder worker`.
pub struct Worker {
    /// The process.
    pub child: Child,
    /// The command (for its mark).
    pub command: Command,
}

impl Worker {
    /// Starts a worker of `server` with `token`, `jobs` slots, in `dir`.
    pub fn start(server: &str, token: &str, jobs: usize, dir: &Path) -> Worker {
        let mut command = referee();
        command.stdout(Stdio::null()).stderr(Stdio::inherit());
        Worker::start_with(server, token, jobs, dir, command)
    }

    /// [`Worker::start`] with `command`, a `referee` command with its own environment and
    /// outputs.
    pub fn start_with(
        server: &str,
        token: &str,
        jobs: usize,
        dir: &Path,
        mut command: Command,
    ) -> Worker {
        command
            .args([
                "ladder",
                "worker",
                "--server",
                server,
                "-j",
                &jobs.to_string(),
            ])
            .arg("--dir")
            .arg(dir)
            .env("REFEREE_LADDER_TOKEN", token);
        let child = command.spawn().unwrap();
        Worker { child, command }
    }

    /// Stops it with SIGTERM (it finishes the jobs in hand) and waits for it.
    pub fn stop(mut self) {
        signal(&self.child, libc::SIGTERM);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the worker ended with {status}");
        crate::util::assert_no_marked_survivors(&self.command);
    }
}

/// Polls `check` every 200 ms until it gives `Some`, for at most `within`.
pub fn wait_for<T>(what: &str, within: Duration, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + within;
    loop {
        if let Some(found) = check() {
            return found;
        }
        assert!(Instant::now() < deadline, "waited {within:?} for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Runs `future` on a runtime of its own.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}
