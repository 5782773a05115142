//! A workdir swapped for a symbolic link once the run has started, as the red team did it
//! (docs/security.md#bot-users): the bot `alice` has `workdir = .../bots/work`, a directory of
//! root's; its author, who may write `bots`, runs `mv work work.real; ln -s TARGET work` while
//! the tournament goes on, and alice exits at each `match_end`, so that each match starts it
//! again. TARGET is the results directory (the seed, every deal, and `matches.jsonl` to forge)
//! or the honest Python bots' library (which a sandbox hid from them, as another bot's workdir).
//!
//! With the author owning `bots` (uid 2001 here), the workdir is refused before the run starts.
//! In a directory of root's, the swap is played by root, between alice's first start and the
//! next, as a race the rule would otherwise prevent: alice's later starts are refused
//! (`spawn_failed`), her one start ran in the directory admitted, nothing reached the results
//! directory, and the honest bots, started again at every match, keep their library.
//!
//! And the places the rule refuses outright, whoever owns what: `/`, a top-level directory, a
//! directory of the system.

use crate::util::*;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The matches of a swap tournament.
const MATCHES: usize = 3;

/// A 3-match Vabanque tournament (`-j 1`, `sandbox`) of alice (`swap_probe.py` in `work`) and
/// two honest Python bots that exit at each `match_end` (`one_match.py`), into `base/out`.
fn swap_tournament(base: &Path, work: &Path, sandbox: &str) -> std::process::Command {
    let config = base.join("t.toml");
    let honest = |name: &str| {
        format!(
            "[[bot]]\nname = {name:?}\ncommand = {:?}\n",
            format!("python3 {}", file("tests/bots/one_match.py"))
        )
    };
    std::fs::write(
        &config,
        format!(
            "game = \"vabanque\"\nplayers = 3\nmatches = {MATCHES}\nseed = 424242\njobs = 1\n\
             time_limit_ms = {LIMIT_MS}\nstartup_limit_ms = 600000\nsandbox = {sandbox:?}\n\
             [[bot]]\nname = \"alice\"\ncommand = {:?}\nworkdir = {:?}\n{}{}",
            format!("python3 {}", file("tests/bots/swap_probe.py")),
            work.display().to_string(),
            honest("b"),
            honest("c"),
        ),
    )
    .unwrap();
    let mut cmd = referee();
    cmd.args(["tournament", config.to_str().unwrap(), "-q"])
        .args(["--out", base.join("out").to_str().unwrap()]);
    cmd
}

/// Plays the swap tournament of `work` with `sandbox`: once alice is waiting at her first
/// start, her workdir is renamed `work.real` and a link to `target` put in its place, then she
/// is let go. Returns the referee's output and the results directory.
fn swapped(base: &Path, work: &Path, target: &Path, sandbox: &str) -> (String, PathBuf) {
    let mut cmd = swap_tournament(base, work, sandbox);
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(&work.join("waiting"), 1);
    let real = work.with_file_name("work.real");
    std::fs::rename(work, &real).unwrap();
    std::os::unix::fs::symlink(target, work).unwrap();
    let owned = |path: &Path| {
        let meta = std::fs::metadata(path).unwrap();
        (meta.uid(), meta.gid(), meta.mode())
    };
    let before = owned(target);
    std::fs::write(real.join("released"), "").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_no_marked_survivors(&cmd);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(
        owned(target),
        before,
        "the link's target never handed over: {err}"
    );
    (err, base.join("out"))
}

/// Each match's faults, as (bot, fault, message).
fn faults(out: &Path) -> Vec<Vec<(String, String, String)>> {
    json_lines(&out.join("matches.jsonl"))
        .iter()
        .map(|m| {
            m["faults"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    let seat = f["seat"].as_u64().unwrap() as usize;
                    (
                        m["players"][seat].as_str().unwrap().to_string(),
                        f["fault"].as_str().unwrap().to_string(),
                        f["message"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .collect()
}

/// What alice's starts said of where they ran (`PROBE ...` lines of her stderr files).
fn probes(out: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(out.join("stderr")).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("alice")
        {
            let text = std::fs::read_to_string(&path).unwrap();
            lines.extend(
                text.lines()
                    .filter(|l| l.starts_with("PROBE"))
                    .map(String::from),
            );
        }
    }
    lines
}

/// Asserts what a swap must leave: alice started once, in her own directory, never in the
/// link's target; each later start of hers refused, saying why; the honest bots without fault.
fn assert_swap_held(out: &Path, work: &Path, target: &Path) {
    let probes = probes(out);
    let [probe] = probes.as_slice() else {
        panic!("alice started once: {probes:?}")
    };
    assert!(
        probe.contains(&format!("cwd={} ", work.display()))
            && probe.contains("'released'")
            && !probe.contains("tournament.json")
            && probe.contains("seed=FileNotFoundError"),
        "her admitted directory: {probe}"
    );
    let faults = faults(out);
    assert_eq!(faults.len(), MATCHES);
    assert!(faults[0].is_empty(), "{:?}", faults[0]);
    for (id, faults) in faults.iter().enumerate().skip(1) {
        let [(bot, fault, message)] = faults.as_slice() else {
            panic!("match {id}: alice's start refused, the honest bots without fault: {faults:?}")
        };
        assert_eq!((bot.as_str(), fault.as_str()), ("alice", "spawn_failed"));
        assert!(
            message.starts_with(&format!(
                "its workdir {} is not the directory the run started with (device ",
                work.display()
            )) && message.contains(&format!(
                "{} is now a symbolic link (to {}); the bot is not started",
                work.display(),
                target.display()
            )),
            "{message}"
        );
    }
    let results = std::fs::read_to_string(out.join("matches.jsonl")).unwrap();
    assert!(!results.contains("forged"), "{results}");
}

/// A directory `base/bots` (of `owner`, `mode`) holding alice's workdir `work`, root's.
fn workdir_in(base: &Path, owner: u32, mode: u32) -> (PathBuf, PathBuf) {
    let bots = base.join("bots");
    let work = bots.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::os::unix::fs::chown(&bots, Some(owner), Some(owner)).unwrap();
    std::fs::set_permissions(&bots, std::fs::Permissions::from_mode(mode)).unwrap();
    (bots, work)
}

/// Plays the swap tournament of `work` (`sandbox = "auto"`), which must be refused before the
/// run (exit code 2) and leave `work` as it was: its owner, group and mode, no mark, and no
/// results directory. Returns the referee's output.
fn refused(base: &Path, work: &Path) -> String {
    let owned = |meta: std::fs::Metadata| (meta.uid(), meta.gid(), meta.mode());
    let before = owned(std::fs::metadata(work).unwrap());
    let mut cmd = swap_tournament(base, work, "auto");
    let out = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    let err = stderr(&out);
    let shown = work.display();
    assert_eq!(out.status.code(), Some(2), "{shown}: {err}");
    assert_eq!(owned(std::fs::metadata(work).unwrap()), before, "{shown}");
    assert!(!work.join(".referee-workdir").exists(), "{shown}: no mark");
    assert!(!base.join("out").exists(), "{shown}: no results directory");
    err
}

#[test]
fn a_workdir_in_a_directory_another_user_can_change_is_refused_before_the_run() {
    let test = "a_workdir_in_a_directory_another_user_can_change_is_refused_before_the_run";
    if !as_root(test) {
        return;
    }
    for (owner, mode, why) in [
        (
            2001,
            0o755,
            "belongs to uid 2001, not to root or to the referee's user",
        ),
        (0, 0o775, "is writable by its group (mode 775)"),
        (0, 0o777, "is writable by every user (mode 777)"),
    ] {
        let base = temp_dir(&format!("swap-refused-{owner}-{mode:o}"));
        let (bots, work) = workdir_in(&base, owner, mode);
        let err = refused(&base, &work);
        assert!(
            err.contains(&format!(
                "referee: bot 'alice': workdir {}: the directory {} above it {why}: whoever can write there could rename the workdir",
                work.display(),
                bots.display()
            )) && err.contains("(sshd's StrictModes rule)"),
            "{err}"
        );
    }
}

#[test]
fn a_workdir_swapped_for_a_link_to_the_results_is_never_the_bots() {
    let test = "a_workdir_swapped_for_a_link_to_the_results_is_never_the_bots";
    if !as_root(test) {
        return;
    }
    let mut sandboxes = vec!["none"];
    if bwrap_works(test) {
        sandboxes.push("bwrap");
    }
    for sandbox in sandboxes {
        let base = temp_dir(&format!("swap-results-{sandbox}"));
        let (_, work) = workdir_in(&base, 0, 0o755);
        let target = base.join("out");
        let (_, out) = swapped(&base, &work, &target, sandbox);
        assert_swap_held(&out, &work, &target);
        let real = work.with_file_name("work.real");
        assert_eq!(
            std::fs::metadata(&real).unwrap().gid(),
            0,
            "{sandbox}: given back to root's group"
        );
    }
}

#[test]
fn a_workdir_swapped_for_a_link_to_a_library_hides_it_from_no_other_bot() {
    let test = "a_workdir_swapped_for_a_link_to_a_library_hides_it_from_no_other_bot";
    if !as_root(test) || !bwrap_works(test) {
        return;
    }
    // The honest bots' Python library (json, os, ...): what a sandbox hiding alice's workdir
    // through the link would have taken from them.
    let library = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, os; print(os.path.dirname(json.__path__[0]))",
        ])
        .output()
        .unwrap();
    let library = PathBuf::from(String::from_utf8(library.stdout).unwrap().trim());
    assert!(library.join("json").is_dir(), "{}", library.display());
    let base = temp_dir("swap-library");
    let (_, work) = workdir_in(&base, 0, 0o755);
    let (_, out) = swapped(&base, &work, &library, "bwrap");
    assert_swap_held(&out, &work, &library);
    // The honest bots started again at every match, after the swap, and played.
    for name in ["b", "c"] {
        let starts = std::fs::read_dir(out.join("stderr"))
            .unwrap()
            .filter(|e| {
                let name_of = e.as_ref().unwrap().file_name();
                name_of.to_string_lossy().starts_with(&format!("{name}."))
            })
            .count();
        assert_eq!(starts, MATCHES, "{name} ran in each match");
    }
}

#[test]
fn a_system_or_top_level_directory_is_no_workdir() {
    let test = "a_system_or_top_level_directory_is_no_workdir";
    if !as_root(test) {
        return;
    }
    for (dir, what) in [
        ("/", "/ itself"),
        ("/tmp", "a directory at the top of the file system"),
        ("/etc", "a directory of the system"),
        ("/usr/share", "inside a directory of the system"),
    ] {
        let err = refused(&temp_dir("swap-system"), Path::new(dir));
        assert!(
            err.contains(&format!(
                "referee: bot 'alice': workdir {dir}: it is {what}: a bot's workdir is given to it to write"
            )),
            "{dir}: {err}"
        );
    }
}
