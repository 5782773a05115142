//! Numbers an attacker writes into a results directory, and files given to the referee that are
//! not what they claim (docs/security.md, files the referee reads back): a Nava `rounds` of
//! 10^15 once made `leaderboard`, `report` and `merge` take 4 GB; now each such file is refused
//! with exit 2, naming the file and the field or line, in milliseconds and a few MiB. The peak
//! memory is the kernel's figure for the referee process alone, as GNU time reports it (`.ci/run`
//! installs it): a process started by the test itself would count the test's own memory, which
//! the kernel carries over to the child it forks.

use crate::hostile_results::{Finished, GENEROUS, Scene, bounded};
use crate::util::*;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// A change an attacker makes to a file (as JSON).
type Edit<'a> = Box<dyn Fn(&mut Value) + 'a>;

/// The most resident memory a refusal may take, KiB.
const REFUSAL_RSS_KIB: u64 = 50 * 1024;

/// GNU time, which measures the peak memory of the process it starts.
const TIME: &str = "/usr/bin/time";

/// `referee ARGS` under [`TIME`]: how it ended, and its peak resident memory in KiB.
fn measured(args: &[&str]) -> (Finished, u64) {
    assert!(
        Path::new(TIME).exists(),
        "{TIME} is missing: install GNU time (apt-get install time), as .ci/run does"
    );
    let figure = tempfile_path("peak");
    let mut cmd = Command::new(TIME);
    cmd.current_dir(root())
        .args(["-f", "%M", "-o"])
        .arg(&figure)
        .arg(bin("referee"))
        .args(args);
    let done = bounded(&mut cmd, GENEROUS);
    let text = std::fs::read_to_string(&figure).unwrap();
    let kib = text.lines().last().unwrap().trim().parse().unwrap();
    (done, kib)
}

/// A fresh file name under the test's temporary directory.
fn tempfile_path(name: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("e2e-{}-{name}-{n}", std::process::id()))
}

/// A Nava tournament of nine built-in Machiavelli bots (3 rounds of 3 hands), played once.
fn nava() -> &'static Path {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = temp_dir("huge-numbers").join("nava");
        let mut cmd = referee();
        cmd.args(["tournament", "--game", "machiavelli", "--schedule", "nava"])
            .args([
                "--rounds", "3", "--hands", "3", "--seed", "1", "-q", "--format", "json",
            ])
            .arg("--out")
            .arg(&out);
        for i in 1..=9 {
            cmd.args(["--bot", &format!("b{i}=builtin:baseline")]);
        }
        board(&cmd.output().unwrap());
        out
    })
}

/// Edits `file` of `dir` as JSON (the whole file, or each line of a `.jsonl`).
fn edit(dir: &Path, file: &str, change: impl Fn(&mut Value)) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = if file.ends_with(".jsonl") {
        text.lines()
            .map(|line| {
                let mut value: Value = serde_json::from_str(line).unwrap();
                change(&mut value);
                value.to_string() + "\n"
            })
            .collect::<String>()
    } else {
        let mut value: Value = serde_json::from_str(&text).unwrap();
        change(&mut value);
        value.to_string()
    };
    std::fs::write(path, edited).unwrap();
}

/// `leaderboard`, `report` and `merge` of `dir` each refuse it with `expected` in their
/// message, quickly and in little memory; returns the largest time (ms) and peak (KiB).
fn all_refuse(dir: &Path, expected: &str) -> (u128, u64) {
    let html = dir.with_extension("report");
    let dir = dir.to_str().unwrap();
    let mut worst = (0, 0);
    for args in [
        &["leaderboard", dir][..],
        &["report", dir, "--html", html.to_str().unwrap()],
        &["merge", dir],
    ] {
        let (done, kib) = measured(args);
        done.refused(expected);
        assert!(kib < REFUSAL_RSS_KIB, "{args:?}: {kib} KiB at its peak");
        eprintln!(
            "{} {expected:?}: exit 2 in {} ms, peak {kib} KiB",
            args[0],
            done.elapsed.as_millis(),
        );
        worst = (worst.0.max(done.elapsed.as_millis()), worst.1.max(kib));
    }
    worst
}

/// A fresh copy of a played directory.
fn copy_of(played: &Path, name: &str) -> std::path::PathBuf {
    let to = temp_dir(&format!("huge-{name}")).join("out");
    let status = Command::new("cp")
        .arg("-a")
        .arg(played)
        .arg(&to)
        .status()
        .unwrap();
    assert!(status.success());
    to
}

#[test]
fn huge_numbers_in_tournament_json_are_refused_in_milliseconds_and_a_few_mib() {
    let huge = json!(1_000_000_000_000_000u64);
    let cases: [(&str, Edit, &str); 4] = [
        (
            "rounds",
            Box::new(|m| m["nava"]["rounds"] = huge.clone()),
            "tournament.json: nava: 1000000000000000 rounds of 3 hands",
        ),
        (
            "hands",
            Box::new(|m| m["nava"]["hands"] = huge.clone()),
            "tournament.json: nava: 3 rounds of 1000000000000000 hands",
        ),
        (
            "players",
            Box::new(|m| m["players"] = huge.clone()),
            "tournament.json: players: 1000000000000000 players",
        ),
        (
            "bots",
            Box::new(|m| {
                let first = m["bots"][0].clone();
                m["bots"] = (0..1001)
                    .map(|i| {
                        let mut bot = first.clone();
                        bot["name"] = json!(format!("b{i}"));
                        bot
                    })
                    .collect();
            }),
            "tournament.json: bots: 1001 bots; a tournament has 1 to 1000",
        ),
    ];
    let mut worst = (0, 0);
    for (name, change, expected) in cases {
        let dir = copy_of(nava(), name);
        edit(&dir, "tournament.json", change);
        let (ms, kib) = all_refuse(&dir, expected);
        worst = (worst.0.max(ms), worst.1.max(kib));
    }
    let matches = copy_of(nava(), "matches");
    edit(&matches, "tournament.json", |m| {
        m["schedule"] = json!("round-robin");
        m.as_object_mut().unwrap().remove("nava");
        m["matches"] = json!(1_000_000_000_000_000u64);
    });
    all_refuse(
        &matches,
        "tournament.json: matches: 1000000000000000 matches; a tournament has at most 100000000",
    );
    eprintln!("worst refusal: {} ms, {} KiB", worst.0, worst.1);
}

#[test]
fn huge_numbers_in_matches_jsonl_are_refused_naming_the_line() {
    for (name, change, expected) in [
        (
            "id",
            Box::new(|r: &mut Value| r["id"] = json!(1_000_000_000_000_000u64))
                as Box<dyn Fn(&mut Value)>,
            "match id 1000000000000000 is beyond the schedule's 27 matches",
        ),
        (
            "score",
            Box::new(|r: &mut Value| r["scores"][0] = json!(-1_000_000_000_000_000i64)),
            "a score of -1000000000000000, beyond ±10000000000",
        ),
        (
            "decisions",
            Box::new(|r: &mut Value| r["stats"][1]["decisions"] = json!(u64::MAX)),
            "seat 1: 18446744073709551615 decisions",
        ),
        (
            "histogram",
            Box::new(|r: &mut Value| {
                r["stats"][0]["times"] = json!([[3, u64::MAX], [3, u64::MAX]]);
            }),
            "seat 0: ",
        ),
    ] {
        let dir = copy_of(nava(), name);
        edit(&dir, "matches.jsonl", change);
        all_refuse(&dir, expected);
        let done = bounded(
            referee().args(["leaderboard", dir.to_str().unwrap()]),
            GENEROUS,
        );
        done.refused("matches.jsonl, line 1: not a match result (");
    }
}

#[test]
fn a_stderr_range_beyond_its_file_is_skipped_with_a_message() {
    let scene = Scene::new("range-beyond");
    edit(&scene.out, "matches.jsonl", |r| {
        for range in r["stderr"].as_array_mut().unwrap() {
            if range["file"] == "diarist.w0.1.stderr" {
                range["to"] = json!(1_000_000_000_000_000_000u64);
            }
        }
    });
    let html = scene.out.with_file_name("report");
    let report = scene.referee(&["report", "{}", "--html", html.to_str().unwrap()]);
    report.succeeded();
    assert!(
        report
            .stdout
            .contains("the range ends at byte 1000000000000000000, after the file's end"),
        "{}",
        report.stdout
    );
}

#[test]
fn a_config_or_a_log_that_is_a_fifo_or_too_big_is_refused_at_once() {
    let dir = temp_dir("named-files");
    let fifo = dir.join("fifo");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    let fifo = fifo.to_str().unwrap();
    for args in [
        &["tournament", fifo][..],
        &["match", fifo],
        &["replay", fifo],
        &["replay", fifo, "--text"],
    ] {
        bounded(referee().args(args), GENEROUS).refused("fifo: is a FIFO, not a regular file");
    }
    let big = dir.join("big.toml");
    std::fs::write(
        &big,
        format!("game = \"vabanque\"\n#{}\n", "x".repeat(4 << 20)),
    )
    .unwrap();
    bounded(
        referee().args(["tournament", big.to_str().unwrap()]),
        GENEROUS,
    )
    .refused("big.toml: is larger than 4 MiB, the most the referee reads of such a file");
    let long = dir.join("long.jsonl");
    std::fs::write(&long, "x".repeat(17 << 20)).unwrap();
    let (done, kib) = measured(&["replay", long.to_str().unwrap()]);
    done.refused("long.jsonl: line 1 is longer than 16 MiB");
    assert!(kib < REFUSAL_RSS_KIB, "{kib} KiB");
}
