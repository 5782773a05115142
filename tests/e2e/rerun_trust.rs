//! A results directory is input like any other: what `run.json` and `tournament.json` record
//! never widens what a bot may reach by itself (docs/tournament.md, rerun; docs/security.md,
//! bot users). The attacks, as someone who hands you a results directory would make them: a
//! `run.json` that names a root-only directory as a bot's workdir and `"sandbox": "none"`; a
//! marker of the referee's copied into another directory; a marked directory given to another
//! user. Each is refused (exit 2) before any bot starts, naming the setting and the flag that
//! accepts it, and the directories keep their owner, group and mode; a workdir the referee
//! marked itself is accepted, and so is one whose path is typed (`--workdir NAME=DIR`), which
//! gets no mark. A tournament whose workdir belongs to another user is refused.
//! `rerun` says what it will run, environment values aside. And the warning for bots that must
//! run as root is said once, in one short line, for a whole class.

use crate::util::*;
use serde_json::Value;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// What an attack must leave as it was: a path's owner, group, mode and inode, and, for a
/// directory, its entries.
fn state(path: &Path) -> (u32, u32, u32, u64, Vec<String>) {
    let meta = std::fs::symlink_metadata(path).unwrap();
    let mut entries: Vec<String> = match std::fs::read_dir(path) {
        Ok(dir) => dir
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    };
    entries.sort();
    (meta.uid(), meta.gid(), meta.mode(), meta.ino(), entries)
}

/// The directory `base/name` of mode `mode`, holding `file` (with `text`, mode 600): returns
/// both.
fn private_dir(base: &Path, name: &str, mode: u32, file: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = base.join(name);
    std::fs::create_dir(&dir).unwrap();
    let inside = dir.join(file);
    std::fs::write(&inside, text).unwrap();
    std::fs::set_permissions(&inside, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode)).unwrap();
    (dir, inside)
}

/// The command of the bot `tracer`: it appends a line to `started.txt` in the directory it
/// runs in (its workdir) when it starts, then plays as the Python random bot.
fn tracer() -> Vec<String> {
    let random = file("sample-bots/python/vabanque_random.py");
    vec![
        "sh".into(),
        "-c".into(),
        format!("echo started >> started.txt; exec python3 {random}"),
    ]
}

/// Plays a 3-match Vabanque tournament of the bot `name` (`command`, in its workdir `work`,
/// with the variables `env`, a TOML table's inside) and two built-in bots into `base/out`, from
/// the workspace root; returns the results directory.
pub fn tournament(base: &Path, name: &str, command: &[String], work: &Path, env: &str) -> PathBuf {
    let config = base.join("t.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"vabanque\"\nplayers = 3\nmatches = 3\nseed = 4\njobs = 1\ntime_limit_ms = {LIMIT_MS}\n\
             [[bot]]\nname = {name:?}\ncommand = {command:?}\nworkdir = {:?}\nenv = {{ {env} }}\n\
             [[bot]]\nname = \"r1\"\ncommand = \"builtin:random\"\n\
             [[bot]]\nname = \"r2\"\ncommand = \"builtin:random\"\n",
            work.display().to_string()
        ),
    )
    .unwrap();
    let out = base.join("out");
    let played = run(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
        "--format",
        "json",
    ]);
    board(&played);
    out
}

/// Rewrites `out/run.json` as an attacker would: `edit` changes its JSON.
fn craft(out: &Path, edit: impl FnOnce(&mut Value)) {
    let path = out.join("run.json");
    let mut run: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut run);
    std::fs::write(&path, serde_json::to_string_pretty(&run).unwrap()).unwrap();
}

/// Runs `referee rerun OUT 0` with `extra` flags; checks that no bot process is left.
fn rerun(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut cmd = referee();
    cmd.args(["rerun", out.to_str().unwrap(), "0"]).args(extra);
    let output = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    output
}

/// Lines in `dir/started.txt`: how many times the tracer started there.
fn starts(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("started.txt"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

#[test]
fn a_crafted_run_json_with_a_root_only_workdir_and_no_sandbox_is_refused_and_changes_nothing() {
    let test =
        "a_crafted_run_json_with_a_root_only_workdir_and_no_sandbox_is_refused_and_changes_nothing";
    if !as_root(test) {
        return;
    }
    let base = temp_dir("trust-crafted");
    let work = base.join("work");
    std::fs::create_dir(&work).unwrap();
    let out = tournament(&base, "tracer", &tracer(), &work, "");
    // A directory only root may enter, holding a file only root may read: `/etc`'s shape.
    let (secret, shadow) = private_dir(&base, "secret", 0o700, "shadow", "root:$6$x:19000::::::\n");
    craft(&out, |run| {
        run["sandbox"] = "none".into();
        run["bots"]["tracer"]["workdir"] = secret.display().to_string().into();
    });
    let before = (state(&secret), state(&shadow));
    let started = starts(&work);

    let refused = rerun(&out, &[]);
    let err = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    for expected in [
        "referee: run.json records sandbox \"none\": the bots would run without a sandbox",
        "to accept it, add --trust-recorded sandbox (or --sandbox none)",
        &format!(
            "referee: bot 'tracer': workdir {}: run.json records it, but the referee did not give it to this bot: it holds no .referee-workdir",
            secret.display()
        ),
        &format!(
            "to give it to the bot anyway, type its path: --workdir 'tracer={}'",
            secret.display()
        ),
    ] {
        assert!(err.contains(expected), "{expected:?} in {err}");
    }
    assert!(!err.contains("panicked"), "{err}");

    // The sandbox accepted, the workdir is still refused.
    let half = rerun(&out, &["--trust-recorded", "sandbox"]);
    let err = stderr(&half);
    assert_eq!(half.status.code(), Some(2), "{err}");
    assert!(!err.contains("records sandbox"), "{err}");
    assert!(err.contains("type its path: --workdir 'tracer="), "{err}");

    // Nothing was changed, and no bot started: neither in its own workdir nor in the secret.
    assert_eq!((state(&secret), state(&shadow)), before);
    assert_eq!(starts(&work), started);
    assert!(!err.contains("bots run as"), "no bot was set up: {err}");
}

#[test]
fn a_workdir_the_referee_marked_is_accepted_and_a_copied_or_foreign_mark_is_not() {
    let test = "a_workdir_the_referee_marked_is_accepted_and_a_copied_or_foreign_mark_is_not";
    if !as_root(test) {
        return;
    }
    let base = temp_dir("trust-marked");
    let work = base.join("work");
    std::fs::create_dir(&work).unwrap();
    let out = tournament(&base, "tracer", &tracer(), &work, "");
    let marker = work.join(".referee-workdir");
    let mark = std::fs::metadata(&marker).unwrap();
    assert_eq!(
        (mark.uid(), mark.mode() & 0o777),
        (0, 0o600),
        "root's, root's alone"
    );

    // The tournament's own workdir, marked for the tracer: the match is played again there.
    let started = starts(&work);
    let again = rerun(&out, &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains(&format!(
            "workdir {} (the referee's mark for this bot)",
            work.display()
        )),
        "{}",
        stderr(&again)
    );
    assert_eq!(starts(&work), started + 1);

    // The mark copied into another root directory (as `cp -a` would): not that directory's.
    let copy = base.join("copy");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(&marker, copy.join(".referee-workdir")).unwrap();
    craft(&out, |run| {
        run["bots"]["tracer"]["workdir"] = copy.display().to_string().into();
    });
    let before = state(&copy);
    let refused = rerun(&out, &[]);
    let err = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "marks {} (device {}, inode {}), not this directory",
            work.display(),
            mark.dev(),
            std::fs::metadata(&work).unwrap().ino()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "type its path: --workdir 'tracer={}'",
            copy.display()
        )),
        "{err}"
    );
    assert_eq!(state(&copy), before);

    // Its path typed: the match is played there, and rerun writes no mark (neither a directory
    // typed nor the tournament's own gets one, or a new one).
    let typed = base.join("typed");
    std::fs::create_dir(&typed).unwrap();
    let named = format!("tracer={}", typed.display());
    let again = rerun(&out, &["--workdir", &named]);
    let err = stderr(&again);
    assert!(again.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "workdir {} (typed with --workdir)",
            typed.display()
        )),
        "{err}"
    );
    assert_eq!(starts(&typed), 1);
    assert!(!typed.join(".referee-workdir").exists(), "no mark: {err}");
    assert_eq!(
        std::fs::metadata(&marker).unwrap().modified().unwrap(),
        mark.modified().unwrap(),
        "the tournament's mark as it was"
    );

    // The referee's own mark, in a directory since given to another user: refused whatever
    // the command line says.
    std::os::unix::fs::chown(&work, Some(1000), Some(1000)).unwrap();
    craft(&out, |run| {
        run["bots"]["tracer"]["workdir"] = work.display().to_string().into();
    });
    let before = state(&work);
    let named = format!("tracer={}", work.display());
    for extra in [&[][..], &["--workdir", named.as_str()][..]] {
        let refused = rerun(&out, extra);
        let err = stderr(&refused);
        assert_eq!(refused.status.code(), Some(2), "{extra:?}: {err}");
        assert!(
            err.contains(&format!(
                "bot 'tracer': workdir {}: it belongs to uid 1000, not to the referee's user (uid 0)",
                work.display()
            )),
            "{extra:?}: {err}"
        );
        assert!(!err.contains("type its path"), "{err}");
    }
    assert_eq!(state(&work), before);
    assert_eq!(starts(&work), started + 1, "no bot started");
}

#[test]
fn a_tournament_with_a_workdir_of_another_user_is_refused_and_changes_nothing() {
    let test = "a_tournament_with_a_workdir_of_another_user_is_refused_and_changes_nothing";
    if !as_root(test) {
        return;
    }
    let base = temp_dir("trust-foreign");
    let (work, notes) = private_dir(&base, "alice", 0o750, "notes.txt", "alice's\n");
    for path in [&work, &notes] {
        std::os::unix::fs::chown(path, Some(1000), Some(1000)).unwrap();
    }
    let before = (state(&work), state(&notes));
    let config = base.join("t.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"vabanque\"\nplayers = 3\nmatches = 3\n\
             [[bot]]\nname = \"tracer\"\ncommand = {:?}\nworkdir = {:?}\n\
             [[bot]]\nname = \"r1\"\ncommand = \"builtin:random\"\n\
             [[bot]]\nname = \"r2\"\ncommand = \"builtin:random\"\n",
            tracer(),
            work.display().to_string()
        ),
    )
    .unwrap();
    let out = base.join("out");
    let mut cmd = referee();
    cmd.args(["tournament", config.to_str().unwrap(), "-q"])
        .args(["--out", out.to_str().unwrap()]);
    let refused = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    let err = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "referee: bot 'tracer': workdir {}: it belongs to uid 1000, not to the referee's user (uid 0): a bot gets no directory of another user",
            work.display()
        )),
        "{err}"
    );
    assert_eq!((state(&work), state(&notes)), before, "nothing changed");
    assert!(!out.exists(), "no results directory");
}

#[test]
fn rerun_says_each_bots_command_sandbox_uids_workdir_and_environment_names_but_no_values() {
    let base = temp_dir("trust-plan");
    let work = base.join("work");
    std::fs::create_dir(&work).unwrap();
    let out = tournament(
        &base,
        "tracer",
        &tracer(),
        &work,
        "API_TOKEN = \"hunter2-not-shown\", MODE = \"fast\"",
    );
    let started = starts(&work);

    // The environment is refused until accepted; the plan is said first either way. (The
    // sandbox is given: run.json records "none" where bubblewrap does not work.)
    let refused = rerun(&out, &["--dry-run", "--sandbox", "auto"]);
    let err = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(
        err.contains("run.json records environment variables API_TOKEN, MODE for bot 'tracer'"),
        "{err}"
    );
    assert!(err.contains("add --trust-recorded env"), "{err}");

    let dry = rerun(
        &out,
        &["--dry-run", "--sandbox", "auto", "--trust-recorded", "env"],
    );
    let err = stderr(&dry);
    assert!(dry.status.success(), "{err}");
    let command = format!(
        "sh -c 'echo started >> started.txt; exec python3 {}'",
        file("sample-bots/python/vabanque_random.py")
    );
    for expected in [
        format!("referee: rerun runs match 0 of {}", out.display()),
        format!("  bot 'tracer': {command}\n"),
        "  every bot: sandbox auto, bot uids auto; no workdir, no env and the default limits unless its line says\n".to_string(),
        format!(
            "    workdir {} (the referee's mark for this bot); env API_TOKEN, MODE (values not shown); limits time_limit_ms {LIMIT_MS} (default 1000)\n",
            work.display()
        ),
        "  bot 'r1': builtin:random (inside the referee)\n".to_string(),
        format!("  from {} (run.json's cwd)\n", root().display()),
    ] {
        assert!(err.contains(&expected), "{expected:?} in {err}");
    }
    assert!(!err.contains("hunter2"), "no value: {err}");
    assert!(!err.contains("fast"), "no value: {err}");
    assert_eq!(starts(&work), started, "--dry-run runs nothing");

    // --resume says what it runs too: from its own command line.
    let resumed = run(&[
        "tournament",
        base.join("t.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--resume",
        "-q",
    ]);
    let err = stderr(&resumed);
    assert!(resumed.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "referee: --resume runs these bots on {}, as this command line gives them",
            out.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("env API_TOKEN, MODE (values not shown)"),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");
}

#[test]
fn an_unknown_recorded_setting_is_a_usage_error_listing_the_valid_ones() {
    // `workdir` is no recorded setting to trust any more: a workdir is given by typing it.
    for word in ["shell", "workdir"] {
        let out = run(&[
            "rerun",
            "/nonexistent",
            "0",
            "--trust-recorded",
            &format!("sandbox,{word}"),
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("invalid value '{word}'")), "{err}");
        assert!(
            err.contains("[possible values: sandbox, env, limits, cwd]"),
            "{err}"
        );
    }
}

#[test]
fn a_class_whose_bots_all_run_as_root_is_warned_once_in_one_short_line() {
    let test = "a_class_whose_bots_all_run_as_root_is_warned_once_in_one_short_line";
    if !as_root(test) {
        return;
    }
    // Five students' bots in a checkout only root may enter, as under /root.
    let base = temp_dir("trust-class");
    let random = std::fs::read_to_string(file("sample-bots/python/vabanque_random.py")).unwrap();
    let (_, bot) = private_dir(&base, "locked", 0o700, "vabanque_random.py", &random);
    let names = ["ada", "brian", "chen", "dana", "emil"];
    let play = |extra: &[&str]| {
        let mut cmd = referee();
        cmd.args(["tournament", "--game", "vabanque", "--players", "5"])
            .args(["--matches", "1", "-j", "1", "-q", "--format", "json"])
            .args(["--time-limit-ms", LIMIT_MS])
            .args([
                "--out",
                base.join(format!("out{}", extra.len())).to_str().unwrap(),
            ]);
        for name in names {
            cmd.args(["--bot", &format!("{name}=python3 {}", bot.display())]);
        }
        let out = cmd.args(extra).output().unwrap();
        assert_no_marked_survivors(&cmd);
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };

    let err = play(&[]);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("as root")).collect();
    let [warning] = warnings.as_slice() else {
        panic!("one warning: {err}")
    };
    assert!(
        warning.starts_with("referee: warning: bots 'ada', 'brian'")
            && warning.contains(" more run as root ")
            && warning.contains("see docs/security.md#bot-users"),
        "{warning}"
    );
    assert!(
        warning.chars().count() <= 160 + "referee: ".len(),
        "{warning}"
    );
    for line in err
        .lines()
        .filter(|l| l.contains("warning") || l.contains("bots run"))
    {
        assert!(
            line.chars().count() <= 170,
            "every start-up line short: {line}"
        );
    }

    let err = play(&["--verbose"]);
    for name in names {
        // What is out of reach first: the bot, or a Python of root's own (a version manager's
        // shim under /root).
        let long = format!(
            "referee: warning: bot '{name}' runs as root, not as a uid of its own: a uid of its own cannot reach "
        );
        assert_eq!(err.matches(&long).count(), 1, "{long:?} once in {err}");
        assert!(err.contains("is drwx------ (700, owner uid 0, gid 0); fix: chmod o+x "));
    }
}
