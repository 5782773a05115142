//! Helpers: where the binaries and bots are, running the referee, checking for leftovers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A binary of the workspace (target/debug or wherever this test binary was built).
pub fn bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is missing: build the binaries first with `cargo build --workspace --bins`",
        path.display()
    );
    path
}

/// A file under the workspace root, as a string.
pub fn file(rel: &str) -> String {
    root().join(rel).display().to_string()
}

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The referee command, run from the workspace root.
pub fn referee() -> Command {
    let mut cmd = Command::new(bin("referee"));
    cmd.current_dir(root());
    cmd
}

/// Runs the referee with `args` and returns its output.
pub fn run(args: &[&str]) -> Output {
    referee().args(args).output().unwrap()
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON lines of a file.
pub fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Whether process `pid` is still running (a zombie awaiting its reaper counts as gone).
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .chars()
                .next();
            state != Some('Z') && state != Some('X')
        }
    }
}

/// Asserts that no process whose pid was recorded in `pid_dir` is still running, allowing
/// a second for the kernel to finish killing them. Returns how many pids were checked.
pub fn assert_no_survivors(pid_dir: &Path) -> usize {
    let pids: Vec<i32> = std::fs::read_dir(pid_dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(1);
    loop {
        let alive: Vec<i32> = pids.iter().copied().filter(|&p| running(p)).collect();
        if alive.is_empty() {
            return pids.len();
        }
        assert!(
            Instant::now() < deadline,
            "bot processes survived the referee: {alive:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (up to a minute) until `file` holds at least `n` complete lines.
pub fn wait_for_lines(file: &Path, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read(file)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap_or(0)
        < n
    {
        assert!(
            Instant::now() < deadline,
            "{} did not reach {n} lines",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
