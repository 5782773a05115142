//! A worker run as root never runs a bot as root: each bot process is a uid of its own
//! (`sealed.rs` checks the uids); a worker whose directory is out of other users' reach makes
//! the bots' workdirs in one of the run's own under /var/tmp, and a seat that still cannot have
//! a uid of its own is given back as the platform's failure, never the bot's.

use super::harness::{Server, Worker, block_on, config, databases, wait_for};
use crate::util::{as_root, referee, temp_dir};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A ladder of one Python bot and two built-ins in `dir` (its file's `extra` lines on top),
/// served with no worker of its own; its admin's client and a worker's token.
fn python_ladder(dir: &Path, extra: &str) -> (Server, ladder::client::Client, String) {
    let db = databases("ladder uids").into_iter().next().expect("SQLite");
    let random = crate::util::file("sample-bots/python/vabanque_random.py");
    let bots = [
        ("py", "python", random.as_str()),
        ("rand-a", "builtin", "random"),
        ("heur-a", "builtin", "heuristic"),
    ];
    let file = config(dir, &format!("sandbox = \"bwrap\"\n{extra}"), &bots);
    let server = Server::start(&file, &dir.join("home"), db.url.as_deref(), 0);
    let admin = server.client(Some(&server.admin_token()));
    let token = block_on(admin.add_account("box", "worker")).unwrap().token;
    (server, admin, token)
}

#[test]
fn a_worker_whose_directory_bots_cannot_pass_through_gives_them_one_of_the_runs_own() {
    if !as_root("a worker's directory out of bots' reach") {
        return;
    }
    let dir = temp_dir("ladder-uids-dir");
    let closed = dir.join("closed");
    std::fs::create_dir(&closed).unwrap();
    chmod(&closed, 0o700);
    let (server, admin, token) = python_ladder(&dir, "");
    let said = dir.join("worker.stderr");
    let mut command = referee();
    command
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&said).unwrap());
    let worker = Worker::start_with(&server.url, &token, 1, &closed.join("worker"), command);
    // Its check and its matches ran: as uids of their own, which could not have reached a
    // workdir under `closed`.
    wait_for(
        "3 matches of the Python bot",
        Duration::from_secs(180),
        || {
            let played = block_on(admin.matches_of("py", 10)).ok()?;
            (played.len() >= 3).then_some(())
        },
    );
    worker.stop();
    let text = std::fs::read_to_string(&said).unwrap();
    let spilled = text
        .split_whitespace()
        .find(|w| w.starts_with("/var/tmp/referee-worker-"))
        .unwrap_or_else(|| panic!("the worker says where the workdirs are: {text}"));
    assert!(text.contains(&closed.display().to_string()), "{text}");
    assert!(!Path::new(spilled).exists(), "{spilled} is left: {text}");
    assert!(!text.contains("given back"), "{text}");
    server.stop();
}

#[test]
fn a_bot_that_cannot_run_as_a_uid_of_its_own_is_the_platforms_failure() {
    if !as_root("a bot's program out of bots' reach") {
        return;
    }
    let dir = temp_dir("ladder-uids-path");
    // The worker's PATH: `python3` only in a directory no other user can pass through (as a
    // pyenv shim under /root is), the sandbox's tools in an open one, which bubblewrap shows
    // (not under /tmp, which is the sandbox's own: the checkout may be there).
    let tools = VarTmp::new("uids-path");
    let (hidden, open) = (tools.0.join("hidden"), tools.0.join("open"));
    for d in [&hidden, &open] {
        std::fs::create_dir(d).unwrap();
    }
    let python = which("python3");
    std::os::unix::fs::symlink(&python, hidden.join("python3")).unwrap();
    for tool in ["bwrap", "true", "sh"] {
        std::os::unix::fs::symlink(which(tool), open.join(tool)).unwrap();
    }
    chmod(&hidden, 0o700);
    let path = std::env::join_paths([&hidden, &open]).unwrap();

    let (server, admin, worker_token) = python_ladder(&dir, "[lease]\nattempts = 2\n");
    let mut command = referee();
    command
        .env("PATH", &path)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    let worker = Worker::start_with(&server.url, &worker_token, 1, &dir.join("worker"), command);
    let status = wait_for("the build given up", Duration::from_secs(120), || {
        let status = block_on(admin.version("py", 1)).ok()?;
        (status.state != "building").then_some(status)
    });
    worker.stop();
    // Failed as the platform's: the bot was not run (as root or at all), nor blamed.
    assert_eq!(status.state, "build-failed", "{status:?}");
    let log = status.build_log.unwrap_or_default();
    assert!(log.contains("not the bot's fault"), "{log}");
    assert!(log.contains("cannot run as a uid of its own"), "{log}");
    assert!(status.check.is_none(), "{:?}", status.check);
    server.stop();
}

/// The first `program` on the test's own `PATH` (the real one).
fn which(program: &str) -> std::path::PathBuf {
    let path = std::env::var_os("PATH").unwrap();
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{program} is on PATH"))
        .canonicalize()
        .unwrap()
}

/// A directory of this test's own under /var/tmp, removed when dropped.
struct VarTmp(std::path::PathBuf);

impl VarTmp {
    fn new(name: &str) -> VarTmp {
        let dir = Path::new("/var/tmp").join(format!("referee-e2e-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        chmod(&dir, 0o755);
        VarTmp(dir)
    }
}

impl Drop for VarTmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
