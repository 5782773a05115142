//! Helpers: where the binaries and bots are, running the referee, checking for leftovers.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A decision limit in milliseconds for matches where no bot is meant to time out: a bot that
/// answers in milliseconds is in time however loaded the machine, and a limit no bot reaches
/// costs nothing.
pub const LIMIT_MS: &str = "10000";

/// A decision limit in milliseconds for matches where a bot times out on purpose (it hangs, or
/// answers only once the referee has moved on) while the others must not: hundreds of times what
/// a sample bot takes to answer on a loaded machine, and short enough that each deliberate
/// timeout, which costs the whole limit, keeps the test short.
pub const SHORT_LIMIT_MS: &str = "2000";

/// How long processes get to be gone once the referee has ended (the kernel reaps them at once
/// on a quiet machine; the polls end as soon as they are gone).
const GONE_WITHIN: Duration = Duration::from_secs(20);

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

/// A fresh temporary directory for one test, under the target directory (not /tmp: sandboxed
/// bots get a private /tmp, and some tests hand bots files to read).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Vabanque match file (seed 7, a decision limit of [`LIMIT_MS`]) of `bots` (name and
/// command), each in its own working directory `workdir(name)`, made here.
pub fn vabanque_file(bots: &[(&str, Vec<String>)], workdir: impl Fn(&str) -> PathBuf) -> String {
    let mut config = format!("game = \"vabanque\"\nseed = 7\ntime_limit_ms = {LIMIT_MS}\n");
    for (name, command) in bots {
        let work = workdir(name);
        std::fs::create_dir_all(&work).unwrap();
        config += &format!(
            "[[bot]]\nname = {name:?}\ncommand = {command:?}\nworkdir = {:?}\n",
            work.display().to_string()
        );
    }
    config
}

/// Makes `dir` writable by every bot, whatever its uid, as /tmp is (sticky): for a directory
/// other than its working directory that a test hands a bot to write in. As root, each bot
/// process runs as a uid of its own (docs/security.md#bot-users).
pub fn writable_by_bots(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o1777)).unwrap();
}

/// The environment variable that marks every process a test's referee starts. Bots get only a
/// few of the referee's variables, so the referee is told to pass this one on to every bot
/// (`REFEREE_PASS_ENV`, docs/security.md#the-environment), as it passes `PATH`; their
/// descendants inherit it from them, sandboxed or not, whatever their pid namespace.
pub const MARK_VAR: &str = "REFEREE_TEST_MARK";

/// The referee's variable naming the variables of its own it passes on to every bot.
const PASS_VAR: &str = "REFEREE_PASS_ENV";

/// The referee command, run from the workspace root, with a mark of its own in its environment
/// that it passes on to its bots (see [`assert_no_marked_survivors`]).
pub fn referee() -> Command {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut cmd = Command::new(bin("referee"));
    cmd.current_dir(root())
        .env(MARK_VAR, format!("{}-{n}", std::process::id()))
        .env(PASS_VAR, MARK_VAR);
    cmd
}

/// A shell command line run in `dir` with the test's own `PATH` (the referee is not on it) and a
/// mark of its own like [`referee`]'s: for commands written for a user to type.
pub fn shell(line: &str, dir: &Path) -> Command {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut cmd = Command::new("sh");
    cmd.args(["-c", line])
        .current_dir(dir)
        .env(MARK_VAR, format!("{}-sh-{n}", std::process::id()))
        .env(PASS_VAR, MARK_VAR);
    cmd
}

/// The mark of a command made by [`referee`] or [`shell`].
pub fn mark_of(cmd: &Command) -> String {
    cmd.get_envs()
        .find(|(k, _)| *k == MARK_VAR)
        .and_then(|(_, v)| v)
        .expect("a command made by referee()")
        .to_string_lossy()
        .into_owned()
}

/// The running processes (not zombies) whose environment holds `mark`.
fn marked_processes(mark: &str) -> Vec<i32> {
    let wanted = format!("{MARK_VAR}={mark}");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == wanted.as_bytes()))
                && running(pid)
        })
        .collect()
}

/// How many processes started by `cmd`'s referee (the referee, its bots and theirs) run now.
pub fn count_marked(cmd: &Command) -> usize {
    marked_processes(&mark_of(cmd)).len()
}

/// Asserts that no process started by `cmd`'s referee — the referee itself, a bot, or anything
/// a bot started, in or out of a sandbox — is still running, allowing [`GONE_WITHIN`] for the
/// kernel to finish killing them.
pub fn assert_no_marked_survivors(cmd: &Command) {
    let mark = mark_of(cmd);
    let deadline = Instant::now() + GONE_WITHIN;
    loop {
        let alive = marked_processes(&mark);
        if alive.is_empty() {
            return;
        }
        let shown: Vec<String> = alive
            .iter()
            .map(|p| {
                let cmdline = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
                format!(
                    "{p}: {}",
                    String::from_utf8_lossy(&cmdline).replace('\0', " ")
                )
            })
            .collect();
        assert!(
            Instant::now() < deadline,
            "processes survived the referee: {shown:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs a `referee match` command that writes the log `log`, checks that it succeeded, that
/// the log replays and that it left no process behind, and returns the log's records.
pub fn played_log(cmd: &mut Command, log: &Path) -> Vec<serde_json::Value> {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let replay = run(&["replay", log.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    assert_no_marked_survivors(cmd);
    json_lines(log)
}

/// Runs the referee with `args` and returns its output.
pub fn run(args: &[&str]) -> Output {
    referee().args(args).output().unwrap()
}

/// Runs the referee with `args` and asserts that it refused them: exit code 2, `expected` in
/// its one line on stderr, no panic.
pub fn refused(args: &[&str], expected: &str) {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "exit code for {args:?}: {}",
        stderr(&out)
    );
    let err = stderr(&out);
    assert!(
        err.contains(expected),
        "{args:?}: expected {expected:?} in {err:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON leaderboard a successful `referee tournament|merge|leaderboard --format json` printed.
pub fn board(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A results directory's `matches.jsonl` sorted by id, its timing fields and stderr ranges
/// removed: what must not depend on -j, resume or sharding (which process played a match, and
/// so where its stderr went, does).
pub fn results_without_timings(dir: &Path) -> Vec<serde_json::Value> {
    let mut rows = json_lines(&dir.join("matches.jsonl"));
    for r in &mut rows {
        r.as_object_mut().unwrap().remove("duration_ms");
        r.as_object_mut().unwrap().remove("stderr");
        for s in r["stats"].as_array_mut().unwrap() {
            for key in ["total_ms", "max_ms", "times", "cpu_ms", "max_cpu_ms"] {
                s.as_object_mut().unwrap().remove(key);
            }
        }
    }
    rows.sort_by_key(|r| r["id"].as_u64());
    rows
}

/// A match log's records without what only the clock and the bots' timing decide, which must
/// not differ between two runs of one match: the timing fields (`ms`, `cpu_ms`) and the `stderr`
/// records (what a bot wrote to stderr is placed at the decision the referee read it in).
pub fn log_without_timings(path: &Path) -> Vec<serde_json::Value> {
    without_timings(json_lines(path))
}

/// Match log records without their timings and `stderr` records ([`log_without_timings`]).
pub fn without_timings(mut records: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    records.retain(|r| r["type"] != "stderr");
    for r in &mut records {
        if let Some(obj) = r.as_object_mut() {
            obj.remove("ms");
            obj.remove("cpu_ms");
        }
    }
    records
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
/// [`GONE_WITHIN`] for the kernel to finish killing them. Returns how many pids were checked.
pub fn assert_no_survivors(pid_dir: &Path) -> usize {
    let pids: Vec<i32> = std::fs::read_dir(pid_dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    let deadline = Instant::now() + GONE_WITHIN;
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

/// Whether `referee --sandbox bwrap` can run here; says so visibly when it cannot.
pub fn bwrap_works(test: &str) -> bool {
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--sandbox",
        "bwrap",
        "--seed",
        "1",
        "--bot",
        "true",
        "--bot",
        "r1=builtin:random",
        "--bot",
        "r2=builtin:random",
        "--startup-limit-ms",
        "100",
    ]);
    if out.status.success() {
        return true;
    }
    let err = stderr(&out);
    assert!(
        err.contains("--sandbox bwrap:"),
        "only a missing or unusable bubblewrap may skip {test}: {err}"
    );
    skipped(test, &err);
    false
}

/// Whether the referee can make control groups here (it makes them the same way).
pub fn cgroups_available() -> bool {
    let probe = PathBuf::from(format!(
        "/sys/fs/cgroup/pids/e2e-probe-{}",
        std::process::id()
    ));
    let ok = std::fs::create_dir(&probe).is_ok();
    let _ = std::fs::remove_dir(&probe);
    ok
}

/// Says visibly that a test did not run here, and why; under CI (`CI` set), where every
/// dependency is installed, a test never skips: it fails.
pub fn skipped(test: &str, why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{test} cannot run here ({why}), and under CI a test does not skip"
    );
    eprintln!("SKIPPED {test}: {why}");
}

/// Whether the referee runs as root here (bot uids, directories of other users); a test that
/// needs it says so when it does not, and fails under CI, which runs as root.
pub fn as_root(test: &str) -> bool {
    // SAFETY: geteuid only reads the caller's id.
    if unsafe { libc::geteuid() } == 0 {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: CI runs as root, and this test needs it"
    );
    skipped(test, "it attacks what only root can be made to give away");
    false
}

/// Waits until `file` holds at least `n` complete lines: as long as that takes on a loaded
/// machine, up to ten minutes (a bound only a referee that stopped writing reaches).
pub fn wait_for_lines(file: &Path, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(600);
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

#[test]
fn the_survivor_check_finds_a_marked_process_and_its_children() {
    let cmd = referee();
    let mut sleeper = Command::new("sh")
        .args(["-c", "sleep 30 & wait"])
        .env(MARK_VAR, mark_of(&cmd))
        .spawn()
        .unwrap();
    let deadline = Instant::now() + GONE_WITHIN;
    while count_marked(&cmd) < 2 {
        assert!(
            Instant::now() < deadline,
            "the shell and its sleep are found"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    for pid in marked_processes(&mark_of(&cmd)) {
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let _ = sleeper.wait();
    assert_no_marked_survivors(&cmd);
}

/// A fenced code block of a Markdown page that an HTML comment right before it ties to a file of
/// the repository: `<!-- KIND: PATH -->` on the line before the opening fence.
#[derive(Debug)]
pub struct MarkedBlock {
    /// The page, relative to the workspace root.
    pub page: String,
    /// The line of the opening fence (from 1).
    pub line: usize,
    /// The marker's kind: `file`, `part of`, `transcript`.
    pub kind: String,
    /// The marker's path, relative to the workspace root.
    pub path: String,
    /// The block's text: its lines without the fences, each ending with `\n`.
    pub text: String,
}

/// The marked fenced code blocks of `page` (relative to the workspace root), in order. A marker
/// that is not followed by a fence, or a fence that is not closed, fails the test.
pub fn marked_blocks(page: &str) -> Vec<MarkedBlock> {
    let source = std::fs::read_to_string(root().join(page)).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let mut blocks = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(marker) = line
            .strip_prefix("<!-- ")
            .and_then(|l| l.strip_suffix(" -->"))
        else {
            continue;
        };
        let Some((kind, path)) = marker.split_once(": ") else {
            continue;
        };
        let fence = lines.get(i + 1).copied().unwrap_or("");
        assert!(
            fence.starts_with("```"),
            "{page}:{}: the marker {line:?} is not right before a fenced code block",
            i + 1
        );
        let body: Vec<&str> = lines[i + 2..]
            .iter()
            .copied()
            .take_while(|l| *l != "```")
            .collect();
        assert!(
            i + 2 + body.len() < lines.len(),
            "{page}:{}: the code block is not closed",
            i + 2
        );
        blocks.push(MarkedBlock {
            page: page.to_string(),
            line: i + 2,
            kind: kind.to_string(),
            path: path.to_string(),
            text: body.iter().map(|l| format!("{l}\n")).collect(),
        });
    }
    blocks
}

/// The Markdown pages of `docs/`, relative to the workspace root, sorted.
pub fn doc_pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.ends_with(".md").then(|| format!("docs/{name}"))
        })
        .collect();
    pages.sort();
    pages
}

/// What a child writes to one of its pipes, read to the end on a thread of its own.
pub type PipeText = std::thread::JoinHandle<Vec<u8>>;

/// Starts `cmd` with its stdout and stderr each read to the end on a thread of its own (so that
/// neither fills while the test waits on the child).
pub fn spawn_read(cmd: &mut Command) -> (std::process::Child, PipeText, PipeText) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = reader(Box::new(child.stdout.take().unwrap()));
    let err = reader(Box::new(child.stderr.take().unwrap()));
    (child, out, err)
}

/// Runs `cmd` to its end and returns its output and its own CPU time (user and system, not its
/// children's): read from `/proc/PID/stat` once it has exited, before it is reaped.
pub fn run_timed(cmd: &mut Command) -> (std::process::Output, Duration) {
    let (mut child, out, err) = spawn_read(cmd);
    let pid = child.id();
    // SAFETY: waitid writes only the siginfo we pass; WNOWAIT leaves the child to reap.
    let waited = unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT)
    };
    assert_eq!(waited, 0, "{}", std::io::Error::last_os_error());
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    // utime and stime, the 14th and 15th fields: the 12th and 13th after the name.
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf only reads a setting.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    let status = child.wait().unwrap();
    let output = std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, Duration::from_millis(ticks * 1000 / per_second))
}

/// The JSON texts of the compressed log blocks of replay `html` (gzip and base64, as a report's
/// or a ladder's replay pages hold them), decoded as the browser's loader decodes them.
pub fn compressed_log_blocks(html: &str) -> Vec<String> {
    use base64::Engine as _;
    use std::io::Read as _;
    let open = "<script type=\"application/gzip+base64\" id=\"match-log\">";
    html.split(open)
        .skip(1)
        .map(|rest| {
            let block = &rest[..rest.find("</script>").unwrap()];
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(block.trim())
                .unwrap();
            let mut json = String::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut json)
                .unwrap();
            json
        })
        .collect()
}
