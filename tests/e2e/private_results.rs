//! Results are the referee's user's alone until the competition ends (docs/security.md, who can
//! read the results): the seed in `tournament.json` is the key to every deal and `logs/` holds
//! every hand. A running tournament's directory is read by another user (`nobody`, through
//! `runuser`) as a local attacker would; an `--out` that another user made open to all is
//! handed to every command that writes one; a directory of an older referee (0755, files 0644)
//! is resumed; a report is made of a tournament still running and of a finished one; and a
//! match's log and stderr directory are looked at.

use crate::hostile_results::{GENEROUS, Scene, bounded};
use crate::util::*;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The uid and gid of the other user who owns the `--out` of the refusal test.
const OTHER: u32 = 2001;

/// Whether the test can act as root (make another user's directory, read as `nobody`); says
/// so and returns false where it cannot (and fails under CI, where it always can).
fn as_root(test: &str) -> bool {
    // SAFETY: geteuid only reads the caller's id.
    if unsafe { libc::geteuid() } == 0 {
        return true;
    }
    skipped(
        test,
        "it needs root, to be another user and to give a directory away",
    );
    false
}

/// `ARGS` run as the user `nobody`, with no group of root's.
fn as_nobody(args: &[&str]) -> Output {
    Command::new("runuser")
        .args(["-u", "nobody", "--"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Every entry under `dir` (itself included, as `.`), with its permission bits, in order.
fn modes(dir: &Path) -> Vec<(String, u32)> {
    let mut found = vec![(".".to_string(), mode(dir))];
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.symlink_metadata().unwrap().is_dir() {
            found.extend(modes(&path).into_iter().map(|(rel, m)| match rel.as_str() {
                "." => (name.clone(), m),
                _ => (format!("{name}/{rel}"), m),
            }));
        } else {
            found.push((name, mode(&path)));
        }
    }
    found
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

/// Asserts that every directory under `dir` is 0700 and every file 0600.
fn assert_private(dir: &Path) {
    for (rel, m) in modes(dir) {
        let wanted = if dir.join(&rel).is_dir() {
            0o700
        } else {
            0o600
        };
        assert_eq!(m, wanted, "{}/{rel} is {m:o}", dir.display());
    }
}

/// Sets the permission bits of every entry under `dir` as a referee before this rule left them
/// (umask 022): directories 0755, files 0644.
fn as_an_older_referee_left_it(dir: &Path) {
    for (rel, _) in modes(dir) {
        let path = dir.join(&rel);
        let m = if path.is_dir() { 0o755 } else { 0o644 };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(m)).unwrap();
    }
}

/// A referee that is killed if the test fails while it runs.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

#[test]
fn another_user_reads_nothing_of_a_running_tournament() {
    if !as_root("private_results::another_user_reads_nothing_of_a_running_tournament") {
        return;
    }
    let dir = temp_dir("private-running");
    // What nobody can read beside the results: proof that the refusals below are the
    // directory's, not the way to it.
    let public = dir.join("public.txt");
    std::fs::write(&public, "readable\n").unwrap();
    std::fs::set_permissions(&public, std::fs::Permissions::from_mode(0o644)).unwrap();
    let control = as_nobody(&["cat", public.to_str().unwrap()]);
    assert_eq!(stdout(&control), "readable\n", "{}", stderr(&control));

    let out = dir.join("out");
    let mut cmd = referee();
    let mut child = Running(
        cmd.args([
            "tournament",
            "--game",
            "vabanque",
            "--players",
            "3",
            "--matches",
            "6",
            "--seed",
            "5",
            "-j",
            "1",
            "--logs",
            "-q",
            "--time-limit-ms",
            LIMIT_MS,
            "--out",
            out.to_str().unwrap(),
            "--bot",
            &format!("slow={}", file("tests/bots/slow_answer.py")),
            "--bot",
            &format!("diarist={}", file("tests/bots/stderr_diarist.py")),
            "--bot",
            "b=builtin:random",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap(),
    );
    // The slow bot takes 300 ms a decision: the run goes on for most of a minute after its
    // first match (it is stopped once looked at).
    wait_for_lines(&out.join("matches.jsonl"), 1);
    assert!(
        child.0.try_wait().unwrap().is_none(),
        "the run is still going"
    );
    let first_log = std::fs::read_dir(out.join("logs"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let first_stderr = out.join("stderr/diarist.w0.1.stderr");
    for (args, what) in [
        (vec!["cat", "tournament.json"], "the seed"),
        (vec!["cat", "matches.jsonl"], "the results and match seeds"),
        (vec!["cat", "run.json"], "how bots run"),
        (vec!["cat", first_log.to_str().unwrap()], "every hand"),
        (
            vec!["cat", first_stderr.to_str().unwrap()],
            "a bot's stderr",
        ),
        (vec!["ls", "-la", "."], "the names"),
        (vec!["ls", "-la", "logs"], "the logs' names"),
        (vec!["stat", "matches.jsonl"], "the results' size"),
    ] {
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let last = args.len() - 1;
        args[last] = out.join(&args[last]).display().to_string();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let read = as_nobody(&args);
        assert!(!read.status.success(), "nobody read {what}: {args:?}");
        assert!(
            stderr(&read).contains("Permission denied"),
            "{args:?}: {}",
            stderr(&read)
        );
        assert!(!stdout(&read).contains("\"seed\""), "{}", stdout(&read));
    }
    assert_private(&out);
    // SAFETY: kill with the pid of a child this test started.
    unsafe { libc::kill(child.0.id() as i32, libc::SIGTERM) };
    let status = child.0.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_no_marked_survivors(&cmd);
    assert_private(&out);
}

#[test]
fn an_out_that_another_user_made_open_to_all_is_refused_before_anything_is_written() {
    if !as_root("private_results::an_out_that_another_user_made_open_to_all_is_refused") {
        return;
    }
    let scene = Scene::new("private-theirs");
    scene.interrupted();
    let theirs = scene.secret.with_file_name("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::os::unix::fs::chown(&theirs, Some(OTHER), Some(OTHER)).unwrap();
    std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o777)).unwrap();
    let at = theirs.to_str().unwrap();
    let random = bin("vabanque-random").display().to_string();
    let first = json_lines(&scene.out.join("matches.jsonl"))[0]["id"].to_string();
    let commands: Vec<Vec<String>> = [
        vec![
            "tournament",
            "--game",
            "vabanque",
            "--players",
            "3",
            "--matches",
            "3",
            "--seed",
            "5",
            "--bot",
            "a=builtin:random",
            "--bot",
            "b=builtin:random",
            "--bot",
            "c=builtin:random",
            "--out",
            at,
        ],
        vec!["merge", "{}", "--out", at],
        vec![
            "match",
            "--game",
            "vabanque",
            "--bot",
            &format!("r={random}"),
            "--bot",
            "b=builtin:random",
            "--bot",
            "c=builtin:random",
            "--stderr-dir",
            at,
        ],
        vec!["rerun", "{}", &first, "--stderr-dir", at],
        // Not finished (one of three matches): the report shows the seed, so it is private.
        vec!["report", "{}", "--html", at],
    ]
    .iter()
    .map(|c| c.iter().map(|a| a.to_string()).collect())
    .collect();
    for command in &commands {
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        let done = scene.referee(&args);
        done.refused(&format!(
            "{at}: is owned by uid {OTHER}, not by the referee's user (uid 0): drwxrwxrwx (777); that user could read and change what the referee writes there: give a new directory, which the referee makes private (700)"
        ));
        assert!(done.elapsed < GENEROUS);
        let meta = std::fs::metadata(&theirs).unwrap();
        assert_eq!(
            (meta.uid(), meta.gid(), meta.mode() & 0o7777),
            (OTHER, OTHER, 0o777),
            "{args:?}"
        );
        assert_eq!(
            std::fs::read_dir(&theirs).unwrap().count(),
            0,
            "{args:?} wrote into it"
        );
    }
    // The referee's user's own, but open to all (like /tmp): refused too, with the fix.
    for open in [0o777, 0o1777, 0o775] {
        let shared = scene.secret.with_file_name(format!("shared-{open:o}"));
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(open)).unwrap();
        let merged = scene.referee(&["merge", "{}", "--out", shared.to_str().unwrap()]);
        merged.refused(&format!(
            "other users can write it, and could rename or replace what the referee writes there; give a new directory, which the referee makes private (700), or make this one yours alone: chmod go-w {}",
            shared.display()
        ));
        assert_eq!(mode(&shared), open);
        assert_eq!(std::fs::read_dir(&shared).unwrap().count(), 0);
    }
    scene.untouched();
}

#[test]
fn a_resumed_directory_of_an_older_referee_is_made_private_and_says_its_seed_was_open() {
    let scene = Scene::new("private-older");
    scene.interrupted();
    as_an_older_referee_left_it(&scene.out);
    let resumed = scene.resume();
    resumed.succeeded();
    let note = format!(
        "referee: note: {} was drwxr-xr-x (755), open to other users of this machine: the referee made it private (700, its files 600); they could read its seed (tournament.json) until now: if they must not know the deals, start again with a new --seed and --out; see docs/security.md#who-can-read-the-results",
        scene.out.display()
    );
    assert!(resumed.stderr.contains(&note), "{}", resumed.stderr);
    assert_eq!(resumed.stderr.matches("note: ").count(), 1, "said once");
    assert_private(&scene.out);
    assert_eq!(json_lines(&scene.out.join("matches.jsonl")).len(), 3);
    // Resumed again, private already: nothing to say.
    let again = scene.resume();
    again.succeeded();
    assert!(!again.stderr.contains("note: "), "{}", again.stderr);
    scene.untouched();
}

#[test]
fn a_report_is_private_until_the_tournament_is_over() {
    let scene = Scene::new("private-report");
    let finished = scene.out.with_file_name("finished-report");
    let done = scene.referee(&["report", "{}", "--html", finished.to_str().unwrap()]);
    done.succeeded();
    assert!(!done.stdout.contains("not finished"), "{}", done.stdout);
    // Published: as the umask makes a directory and a file of the test's.
    let (umask_dir, umask_file) = (scene.out.with_file_name("d"), scene.out.with_file_name("f"));
    std::fs::create_dir(&umask_dir).unwrap();
    std::fs::write(&umask_file, "").unwrap();
    assert_eq!(mode(&finished), mode(&umask_dir));
    assert_eq!(mode(&finished.join("index.html")), mode(&umask_file));
    assert_eq!(mode(&finished.join("replays/0.html")), mode(&umask_file));

    scene.interrupted();
    let running = scene.out.with_file_name("running-report");
    let partial = scene.referee(&["report", "{}", "--html", running.to_str().unwrap()]);
    partial.succeeded();
    assert!(
        partial.stdout.contains(
            "note: the tournament is not finished (1 of 3 matches) and the page shows its seed: the report is yours alone (700, its files 600) until it is; make it again then to publish it"
        ),
        "{}",
        partial.stdout
    );
    assert_private(&running);
    assert!(running.join("replays").is_dir());
    scene.untouched();
}

#[test]
fn a_matchs_log_and_stderr_directory_are_its_users_alone() {
    let dir = temp_dir("private-match");
    let (log, errs) = (dir.join("match.jsonl"), dir.join("errs"));
    // A log of an earlier run, readable by all: written again, it is private too.
    std::fs::write(&log, "an earlier log\n").unwrap();
    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).unwrap();
    let played = bounded(
        referee().args([
            "match",
            "--game",
            "vabanque",
            "--seed",
            "5",
            "--time-limit-ms",
            LIMIT_MS,
            "--bot",
            &format!("diarist={}", file("tests/bots/stderr_diarist.py")),
            "--bot",
            "b=builtin:random",
            "--bot",
            "c=builtin:random",
            "--log",
            log.to_str().unwrap(),
            "--stderr-dir",
            errs.to_str().unwrap(),
        ]),
        GENEROUS,
    );
    played.succeeded();
    assert_eq!(mode(&log), 0o600);
    assert!(std::fs::read_to_string(&log).unwrap().contains("\"seed\""));
    assert_private(&errs);
    assert!(
        std::fs::metadata(errs.join("diarist.stderr"))
            .unwrap()
            .len()
            > 0,
        "the diarist's stderr is kept"
    );
}
