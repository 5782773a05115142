//! A results directory handed over by an attacker (docs/security.md, files the referee reads
//! back): a real small tournament is played, then links to a secret file, FIFOs and names that
//! leave the directory are planted in it as an attacker would, and `tournament --resume`,
//! `report`, `leaderboard`, `merge` and `rerun` are run on it. Each refuses (exit 2, naming the
//! file) or skips what it cannot read with a message, within a generous bound, and the secret —
//! root's, mode 0600, outside the directory — is never read, written, or has its owner or mode
//! changed.

use crate::util::*;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What the secret file holds.
const SECRET: &str = "root:$6$never-shown-secret-hash:19000:0:99999:7:::\n";

/// A bound no refusal comes near (they take milliseconds), and no hang stays under.
pub const GENEROUS: Duration = Duration::from_secs(60);

/// The arguments of the tournament: three bots (one writes a line to stderr at each request
/// and faults once a match), three matches, logs kept.
fn tournament(out: &Path) -> Vec<String> {
    let mut args: Vec<String> = [
        "tournament",
        "--game",
        "vabanque",
        "--players",
        "3",
        "--matches",
        "3",
        "--seed",
        "1",
        "-j",
        "1",
        "--logs",
        "-q",
        "--format",
        "json",
        "--time-limit-ms",
        LIMIT_MS,
    ]
    .map(String::from)
    .to_vec();
    args.extend([
        "--out".into(),
        out.display().to_string(),
        "--bot".into(),
        format!("diarist={}", file("tests/bots/stderr_diarist.py")),
        "--bot".into(),
        format!("rnd={}", bin("vabanque-random").display()),
        "--bot".into(),
        "b=builtin:random".into(),
    ]);
    args
}

/// The tournament, played once: its directory.
fn played() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = temp_dir("hostile-results").join("played");
        let args = tournament(&out);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        board(&run(&args));
        out
    })
}

/// A scene: a copy of the played tournament in `DIR/out`, and root's secret beside it,
/// `DIR/secret` (mode 0600), that nothing may read or change.
pub struct Scene {
    /// The results directory.
    pub out: PathBuf,
    /// The secret file.
    pub secret: PathBuf,
}

impl Scene {
    /// A fresh copy of the played tournament for the test `name`.
    pub fn new(name: &str) -> Self {
        let dir = temp_dir(&format!("hostile-{name}"));
        let out = dir.join("out");
        copy(played(), &out);
        let secret = dir.join("secret");
        std::fs::write(&secret, SECRET).unwrap();
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
        Scene { out, secret }
    }

    /// Plants a symbolic link at `rel` (a file there is removed first) pointing to `target`.
    pub fn link(&self, rel: &str, target: &Path) {
        let at = self.out.join(rel);
        let _ = std::fs::remove_file(&at);
        symlink(target, at).unwrap();
    }

    /// Plants a FIFO at `rel` (a file there is removed first).
    pub fn fifo(&self, rel: &str) {
        let at = self.out.join(rel);
        let _ = std::fs::remove_file(&at);
        let path = std::ffi::CString::new(at.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    }

    /// Keeps the first line of `matches.jsonl` only, as a run killed after one match leaves it.
    pub fn interrupted(&self) {
        let path = self.out.join("matches.jsonl");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{}\n", text.lines().next().unwrap())).unwrap();
    }

    /// Asserts that the secret is as it was: content, owner (root, the test's user) and mode.
    pub fn untouched(&self) {
        assert_eq!(std::fs::read_to_string(&self.secret).unwrap(), SECRET);
        let meta = std::fs::metadata(&self.secret).unwrap();
        // SAFETY: geteuid has no preconditions.
        assert_eq!(meta.uid(), unsafe { libc::geteuid() });
        assert_eq!(meta.mode() & 0o7777, 0o600);
    }

    /// `tournament --resume` of the scene's directory.
    pub fn resume(&self) -> Finished {
        let mut args = tournament(&self.out);
        args.push("--resume".into());
        bounded(referee().args(&args), GENEROUS)
    }

    /// `referee ARGS` with `{}` in ARGS replaced by the directory.
    pub fn referee(&self, args: &[&str]) -> Finished {
        let out = self.out.display().to_string();
        let args: Vec<String> = args.iter().map(|a| a.replace("{}", &out)).collect();
        bounded(referee().args(&args), GENEROUS)
    }
}

/// Copies a directory tree as it is (`cp -a`).
fn copy(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// How a command ended: its exit code, its outputs and how long it took.
pub struct Finished {
    /// The exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Wall time.
    pub elapsed: Duration,
}

impl Finished {
    /// Asserts that it was refused: exit 2, `expected` in its message, no panic.
    pub fn refused(&self, expected: &str) {
        assert_eq!(self.code, Some(2), "{}", self.stderr);
        assert!(
            self.stderr.contains(expected),
            "expected {expected:?} in {}",
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
    }

    /// Asserts that it succeeded.
    pub fn succeeded(&self) {
        assert_eq!(self.code, Some(0), "{}", self.stderr);
    }

    /// Asserts that `SECRET` is in neither output.
    fn shows_no_secret(&self) {
        for text in [&self.stdout, &self.stderr] {
            assert!(!text.contains("never-shown"), "{text}");
        }
    }
}

/// Runs `cmd` to its end, at most `limit` (then it is killed and the test fails: a hang).
pub fn bounded(cmd: &mut Command, limit: Duration) -> Finished {
    let started = Instant::now();
    let (mut child, out, err) = spawn_read(cmd.stdin(Stdio::null()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} did not finish within {limit:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Finished {
        code: status.code(),
        stdout: String::from_utf8_lossy(&out.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().unwrap()).into_owned(),
        elapsed: started.elapsed(),
    }
}

#[test]
fn resume_refuses_a_link_at_run_json_a_log_or_a_stderr_file_and_the_target_is_untouched() {
    for (planted, named) in [
        ("run.json", "run.json: is a symbolic link"),
        ("logs/1.jsonl", "logs/1.jsonl: is a symbolic link"),
        (
            "stderr/diarist.w0.1.stderr",
            "diarist.w0.1.stderr: is a symbolic link",
        ),
    ] {
        let scene = Scene::new(&format!("resume-{}", planted.replace('/', "-")));
        scene.interrupted();
        scene.link(planted, &scene.secret);
        let resumed = scene.resume();
        resumed.refused(named);
        scene.untouched();
        assert!(
            std::fs::symlink_metadata(scene.out.join(planted))
                .unwrap()
                .is_symlink(),
            "{planted}: left as found"
        );
    }
    // Without a link, the same directory resumes and finishes the tournament.
    let scene = Scene::new("resume-clean");
    scene.interrupted();
    scene.resume().succeeded();
    assert_eq!(json_lines(&scene.out.join("matches.jsonl")).len(), 3);
}

#[test]
fn the_report_never_shows_a_secret_linked_from_stderr_and_says_why() {
    let scene = Scene::new("report-link");
    scene.link("stderr/diarist.w0.1.stderr", &scene.secret);
    let html = scene.out.with_file_name("report");
    let report = scene.referee(&["report", "{}", "--html", html.to_str().unwrap()]);
    report.succeeded();
    report.shows_no_secret();
    assert!(
        report.stdout.contains("faulty matches was not read")
            && report.stdout.contains("is a symbolic link"),
        "{}",
        report.stdout
    );
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(!page.contains("never-shown"), "the secret is on the page");
    assert!(page.contains("diarist.w0.1.stderr: is a symbolic link"));
    let bot = scene.referee(&["leaderboard", "{}", "--bot", "diarist", "--all-faults"]);
    bot.succeeded();
    bot.shows_no_secret();
    assert!(bot.stdout.contains("stderr not read: "), "{}", bot.stdout);
    // `stderr/` itself a link to a directory holding a copy of the secret.
    let scene = Scene::new("report-link-dir");
    let elsewhere = scene.secret.with_file_name("elsewhere");
    copy(&scene.out.join("stderr"), &elsewhere);
    std::fs::write(elsewhere.join("diarist.w0.1.stderr"), SECRET.repeat(3)).unwrap();
    std::fs::remove_dir_all(scene.out.join("stderr")).unwrap();
    scene.link("stderr", &elsewhere);
    let report = scene.referee(&["report", "{}", "--html", html.to_str().unwrap()]);
    report.succeeded();
    report.shows_no_secret();
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(!page.contains("never-shown"));
    scene.untouched();
}

#[test]
fn a_fifo_at_matches_jsonl_or_in_stderr_or_logs_makes_no_command_wait() {
    let commands: [&[&str]; 5] = [
        &["report", "{}", "--html", "{}/../report"],
        &["leaderboard", "{}"],
        &["leaderboard", "{}", "--bot", "diarist"],
        &["merge", "{}"],
        &["rerun", "{}", "0"],
    ];
    let scene = Scene::new("fifo-matches");
    scene.fifo("matches.jsonl");
    for args in commands {
        scene
            .referee(args)
            .refused("matches.jsonl: is a FIFO, not a regular file");
    }
    scene
        .resume()
        .refused("matches.jsonl: is a FIFO, not a regular file");
    // run.json: read by rerun only, checked by --resume before it is replaced.
    let scene = Scene::new("fifo-run-json");
    scene.fifo("run.json");
    for args in &commands[..4] {
        scene.referee(args).succeeded();
    }
    scene
        .referee(commands[4])
        .refused("run.json: is a FIFO, not a regular file");
    scene
        .resume()
        .refused("run.json: is a FIFO, not a regular file");
    for (planted, skipped) in [
        ("stderr/diarist.w0.1.stderr", "faulty matches was not read"),
        ("logs/0.jsonl", "0.jsonl: is a FIFO"),
    ] {
        let scene = Scene::new(&format!("fifo-{}", planted.replace('/', "-")));
        scene.fifo(planted);
        for args in commands {
            let done = scene.referee(args);
            // rerun plays the match again: the same result (0) or, if not, exit 5.
            assert!(
                matches!(done.code, Some(0 | 5)),
                "{args:?}: {}",
                done.stderr
            );
            if args[0] == "report" {
                assert!(done.stdout.contains(skipped), "{}", done.stdout);
            }
        }
        scene.interrupted();
        scene
            .resume()
            .refused(&format!("{planted}: is a FIFO, not a regular file"));
    }
}

#[test]
fn a_stderr_range_naming_a_file_outside_stderr_is_refused_unread() {
    for (k, name) in ["../../secret", "ABSOLUTE"].into_iter().enumerate() {
        let scene = Scene::new(&format!("range-{k}"));
        let name = name.replace("ABSOLUTE", scene.secret.to_str().unwrap());
        let path = scene.out.join("matches.jsonl");
        let text = std::fs::read_to_string(&path).unwrap();
        let forged = text.replacen(
            "\"file\":\"diarist.w0.1.stderr\"",
            &format!("\"file\":{}", serde_json::json!(name)),
            1,
        );
        assert_ne!(forged, text, "a range to forge");
        std::fs::write(&path, forged).unwrap();
        let html = scene.out.with_file_name("report");
        for args in [
            &["report", "{}", "--html", html.to_str().unwrap()][..],
            &["leaderboard", "{}", "--bot", "diarist"],
            &["merge", "{}"],
            &["rerun", "{}", "0"],
        ] {
            let done = scene.referee(args);
            done.refused("matches.jsonl, line ");
            assert!(done.stderr.contains("a stderr range"), "{}", done.stderr);
            done.shows_no_secret();
        }
        scene.untouched();
    }
}

#[test]
fn merge_out_and_report_html_write_nothing_through_a_planted_link() {
    let scene = Scene::new("merge-out");
    let made = scene.secret.with_file_name("made");
    for (k, (planted, target, named)) in [
        (
            "tournament.json",
            &scene.secret,
            "tournament.json: is a symbolic link",
        ),
        (
            "matches.jsonl",
            &scene.secret,
            "matches.jsonl: is a symbolic link",
        ),
        ("matches.jsonl", &made, "matches.jsonl: is a symbolic link"),
        (".lock", &scene.secret, ".lock: is a symbolic link"),
        ("run.json", &scene.secret, "run.json: is a symbolic link"),
        (
            "stderr",
            &scene.secret.with_file_name("out"),
            "stderr: is a symbolic link",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let into = scene.secret.with_file_name(format!("merged-{k}"));
        std::fs::create_dir_all(&into).unwrap();
        symlink(target, into.join(planted)).unwrap();
        let merged = scene.referee(&["merge", "{}", "--out", into.to_str().unwrap()]);
        merged.refused(named);
        assert!(!made.exists(), "{planted}: a file made outside");
        scene.untouched();
    }
    // A report's directory: a link at index.html is replaced, never written through; a link
    // at replays/ is refused.
    let html = scene.secret.with_file_name("report");
    std::fs::create_dir_all(&html).unwrap();
    symlink(&scene.secret, html.join("index.html")).unwrap();
    scene
        .referee(&["report", "{}", "--html", html.to_str().unwrap()])
        .succeeded();
    assert!(
        !std::fs::symlink_metadata(html.join("index.html"))
            .unwrap()
            .is_symlink()
    );
    let html = scene.secret.with_file_name("report-replays");
    std::fs::create_dir_all(&html).unwrap();
    symlink(scene.secret.parent().unwrap(), html.join("replays")).unwrap();
    let report = scene.referee(&["report", "{}", "--html", html.to_str().unwrap()]);
    report.refused("replays: is a symbolic link");
    assert!(!scene.secret.with_file_name("0.html").exists());
    scene.untouched();
}
