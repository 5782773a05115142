//! Tournaments of real bot processes: the leaderboard, determinism across -j, resume after
//! SIGKILL, shards and merge.

use crate::util::*;
use serde_json::Value;
use std::path::Path;
use std::sync::OnceLock;

/// Five sample bots in three languages.
fn field() -> Vec<String> {
    vec![
        format!("rust-heuristic={}", bin("vabanque-heuristic").display()),
        format!("rust-random={}", bin("vabanque-random").display()),
        format!(
            "py-heuristic={}",
            file("sample-bots/python/vabanque_heuristic.py")
        ),
        format!(
            "py-random={}",
            file("sample-bots/python/vabanque_random.py")
        ),
        format!(
            "js-random=node {}",
            file("sample-bots/javascript/vabanque_random.js")
        ),
    ]
}

fn tournament(out: &Path, matches: u64, extra: &[&str]) -> std::process::Command {
    let mut cmd = referee();
    cmd.args([
        "tournament",
        "--game",
        "vabanque",
        "--players",
        "4",
        "-q",
        "--format",
        "json",
    ]);
    if !extra.contains(&"--seed") {
        cmd.args(["--seed", "11"]);
    }
    // No bot is meant to time out: a decision that did would change the results compared.
    cmd.args([
        "--matches",
        &matches.to_string(),
        "--out",
        out.to_str().unwrap(),
        "--time-limit-ms",
        LIMIT_MS,
    ]);
    for bot in field() {
        cmd.args(["--bot", &bot]);
    }
    cmd.args(extra);
    cmd
}

/// What must not depend on -j, resume or sharding: every bot's rating, rank, score and wins.
fn essence(board: &Value) -> Vec<Value> {
    board["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            serde_json::json!([
                s["rank"],
                s["bot"],
                s["mu"],
                s["sigma"],
                s["mean_score"],
                s["wins"],
                s["matches"]
            ])
        })
        .collect()
}

const MATCHES: u64 = 80;

/// The uninterrupted reference run at -j 2.
fn reference() -> &'static (std::path::PathBuf, Value) {
    static REFERENCE: OnceLock<(std::path::PathBuf, Value)> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let dir = temp_dir("reference").join("out");
        let out = tournament(&dir, MATCHES, &["-j", "2"]).output().unwrap();
        (dir, board(&out))
    })
}

#[test]
fn j1_and_j2_give_identical_results_and_leaderboards() {
    let (ref_dir, ref_board) = reference();
    let dir = temp_dir("j1").join("out");
    let j1 = board(&tournament(&dir, MATCHES, &["-j", "1"]).output().unwrap());
    assert_eq!(
        results_without_timings(&dir),
        results_without_timings(ref_dir)
    );
    assert_eq!(essence(&j1), essence(ref_board));
    assert_eq!(j1["head_to_head"], ref_board["head_to_head"]);
}

#[test]
fn a_tournament_killed_with_sigkill_and_resumed_ends_with_the_same_leaderboard() {
    let (_, ref_board) = reference();
    let dir = temp_dir("kill9").join("out");
    let mut child = tournament(&dir, MATCHES, &["-j", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let file = dir.join("matches.jsonl");
    wait_for_lines(&file, 20);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let written = json_lines_lenient(&file);
    assert!(
        (20..MATCHES as usize).contains(&written),
        "{written} matches written before the kill"
    );
    let resumed = board(
        &tournament(&dir, MATCHES, &["-j", "2", "--resume"])
            .output()
            .unwrap(),
    );
    assert_eq!(essence(&resumed), essence(ref_board));
    assert_eq!(
        json_lines(&file).len(),
        MATCHES as usize,
        "every match exactly once"
    );
}

/// Complete lines of a file that may end in a half-written one.
fn json_lines_lenient(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok())
        .count()
}

#[test]
fn two_shards_merged_equal_one_unsharded_run() {
    let (ref_dir, ref_board) = reference();
    let base = temp_dir("shards");
    for k in 1..=2 {
        let out = tournament(
            &base.join(format!("s{k}")),
            MATCHES,
            &["-j", "1", "--shard", &format!("{k}/2")],
        )
        .output()
        .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let merged_dir = base.join("merged");
    let out = run(&[
        "merge",
        base.join("s1").to_str().unwrap(),
        base.join("s2").to_str().unwrap(),
        "--out",
        merged_dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(essence(&board(&out)), essence(ref_board));
    assert_eq!(
        results_without_timings(&merged_dir),
        results_without_timings(ref_dir)
    );
    // And `referee leaderboard` re-prints the same from the merged directory, in every format.
    let again = run(&[
        "leaderboard",
        merged_dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(essence(&board(&again)), essence(ref_board));
    let csv = stdout(&run(&[
        "leaderboard",
        merged_dir.to_str().unwrap(),
        "--format",
        "csv",
    ]));
    assert_eq!(csv.lines().count(), 6);
    assert!(csv.starts_with("rank,bot,conservative,mu,sigma"));
    let md = stdout(&run(&[
        "leaderboard",
        merged_dir.to_str().unwrap(),
        "--format",
        "markdown",
    ]));
    assert!(
        md.contains("| rank |") && md.contains("| py-heuristic |"),
        "{md}"
    );
}

#[test]
fn shards_of_different_tournaments_and_bad_settings_are_refused() {
    let base = temp_dir("refused");
    let a = base.join("a");
    assert!(
        tournament(&a, 8, &["-j", "1"])
            .output()
            .unwrap()
            .status
            .success()
    );
    let other = tournament(&base.join("b"), 8, &["-j", "1", "--seed", "12"])
        .output()
        .unwrap();
    assert!(other.status.success(), "{}", stderr(&other));
    let out = run(&[
        "merge",
        a.to_str().unwrap(),
        base.join("b").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("are not shards of one tournament (seed differs)"),
        "{}",
        stderr(&out)
    );
    // Running again into a directory with results needs --resume.
    let out = tournament(&a, 8, &["-j", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("already holds results: add --resume"),
        "{}",
        stderr(&out)
    );
    let out = tournament(&base.join("c"), 8, &["--shard", "3/2"])
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("expected K/N with 1 ≤ K ≤ N"),
        "{}",
        stderr(&out)
    );
    let out = run(&[
        "tournament",
        "--game",
        "vabanque",
        "--bot",
        "a=builtin:random",
        "--bot",
        "b=builtin:random",
        "--players",
        "3",
    ]);
    assert!(
        stderr(&out).contains("3 players per match need at least 3 bots; 2 were given"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn round_robin_of_1000_matches_ranks_heuristics_above_randoms_with_separate_intervals() {
    let dir = temp_dir("thousand").join("out");
    let out = tournament(&dir, 1000, &["-j", "2"]).output().unwrap();
    let board = board(&out);
    assert_eq!(board["matches"], 1000);
    let standings = board["standings"].as_array().unwrap();
    let find = |name: &str| standings.iter().find(|s| s["bot"] == name).unwrap();
    for heuristic in ["py-heuristic", "rust-heuristic"] {
        for random in ["py-random", "rust-random", "js-random"] {
            let (h, r) = (find(heuristic), find(random));
            assert!(
                h["rank"].as_u64() < r["rank"].as_u64(),
                "{heuristic} ranks above {random}"
            );
            let low = h["mean_score"].as_f64().unwrap() - h["score_ci95"].as_f64().unwrap();
            let high = r["mean_score"].as_f64().unwrap() + r["score_ci95"].as_f64().unwrap();
            assert!(
                low > high,
                "{heuristic}'s score interval lies above {random}'s ({low} > {high})"
            );
            let h_low = h["mu"].as_f64().unwrap() - 3.0 * h["sigma"].as_f64().unwrap();
            let r_high = r["mu"].as_f64().unwrap() + 3.0 * r["sigma"].as_f64().unwrap();
            assert!(
                h_low > r_high,
                "{heuristic}'s rating interval lies above {random}'s"
            );
        }
        assert_eq!(find(heuristic)["matches"], 800);
    }
    assert!(
        standings
            .iter()
            .all(|s| s["faults"].as_object().unwrap().is_empty()),
        "no faults"
    );
}

#[test]
fn at_most_one_process_per_bot_worker_and_rotation_and_no_restarts_without_crashes() {
    // Duplicate play keeps up to one process per bot, worker and match of a group (4 seats), so
    // that no process plays two matches of one deal; none is restarted when nothing crashed.
    let (dir, _) = reference();
    for name in ["rust-heuristic", "py-random", "js-random"] {
        let files = std::fs::read_dir(dir.join("stderr"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_str()
                    .unwrap()
                    .starts_with(&format!("{name}.w"))
            })
            .count();
        assert!(
            (2..=8).contains(&files),
            "{name}: {files} processes for -j 2 and 4 rotations"
        );
    }
}

#[test]
fn a_crashing_bot_is_restarted_for_every_match_and_each_crash_is_recorded() {
    let dir = temp_dir("crashes").join("out");
    let out = run(&[
        "tournament",
        "--game",
        "vabanque",
        "--players",
        "3",
        "--matches",
        "12",
        "-j",
        "2",
        "-q",
        "--logs",
        "--out",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--time-limit-ms",
        LIMIT_MS,
        "--bot",
        &format!("crasher={}", file("tests/bots/crasher.py")),
        "--bot",
        "a=builtin:random",
        "--bot",
        "b=builtin:heuristic",
        "--bot",
        "c=builtin:random",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let results = json_lines(&dir.join("matches.jsonl"));
    let with_crasher: Vec<&Value> = results
        .iter()
        .filter(|r| r["players"].as_array().unwrap().contains(&"crasher".into()))
        .collect();
    assert_eq!(with_crasher.len(), 9, "3 of the 4 groups of 3 rotations");
    for r in &with_crasher {
        let seat = r["players"]
            .as_array()
            .unwrap()
            .iter()
            .position(|p| p == "crasher")
            .unwrap();
        let faults: Vec<&str> = r["faults"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["fault"].as_str().unwrap())
            .collect();
        assert_eq!(
            faults,
            ["exited"],
            "match {}: a fresh process played 5 decisions, then crashed",
            r["id"]
        );
        assert_eq!(
            r["stats"][seat]["decisions"].as_u64().unwrap()
                - r["stats"][seat]["substituted"].as_u64().unwrap(),
            5
        );
        // --logs: every match's log replays.
        let log = dir.join("logs").join(format!("{}.jsonl", r["id"]));
        let replay = run(&["replay", log.to_str().unwrap()]);
        assert!(replay.status.success(), "{}", stderr(&replay));
    }
    let board: Value = serde_json::from_slice(&out.stdout).unwrap();
    let crasher = board["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["bot"] == "crasher")
        .unwrap();
    assert_eq!(crasher["faults"]["exited"], 9);
}

#[test]
fn sigterm_stops_cleanly_keeps_every_result_and_prints_the_resume_command() {
    let base = temp_dir("sigterm-tournament");
    let dir = base.join("out");
    let script = base.join("empty.json");
    std::fs::write(&script, "[]").unwrap();
    let mut cmd = referee();
    cmd.args([
        "tournament",
        "--game",
        "vabanque",
        "--players",
        "3",
        "--matches",
        "300",
        "-j",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    for name in ["a", "b", "c", "d"] {
        cmd.args([
            "--bot",
            &format!(
                "{name}=python3 {} {}",
                file("tests/bots/scripted.py"),
                script.display()
            ),
        ]);
    }
    let child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let file = dir.join("matches.jsonl");
    wait_for_lines(&file, 5);
    assert!(count_marked(&cmd) > 1, "the referee and its bots run");
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let err = stderr(&out);
    assert!(
        err.contains("resume with: ") && err.contains("--resume"),
        "{err}"
    );
    let lines = std::fs::read_to_string(&file).unwrap();
    assert!(
        lines.ends_with('\n'),
        "no half-written line after a clean stop"
    );
    assert!(
        lines
            .lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok())
    );
    assert_no_marked_survivors(&cmd);
}

#[test]
fn two_runs_cannot_write_one_directory_at_once() {
    let dir = temp_dir("locked").join("out");
    let mut first = tournament(&dir, 400, &["-j", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&dir.join("matches.jsonl"), 2);
    let second = tournament(&dir, 400, &["-j", "1", "--resume"])
        .output()
        .unwrap();
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(second.status.code(), Some(2));
    assert!(
        stderr(&second).contains("is in use by another referee"),
        "{}",
        stderr(&second)
    );
}

#[test]
fn bench_measures_the_pipe_games_and_real_bots_and_prints_them() {
    let out = run(&["bench", "--quick", "--matches", "20"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for section in [
        "1. pipe round trip",
        "same core:",
        "2. in-process games",
        "engine alone",
        "3. decisions with real bot processes",
        "Rust, -j 1 (pinned)",
        "Python, -j 1 (pinned)",
        "4. starting a bot process",
        "5. peak memory",
    ] {
        assert!(text.contains(section), "{section} missing:\n{text}");
    }
    // Every rate printed is a positive number.
    let rates: Vec<f64> = text
        .split_whitespace()
        .zip(text.split_whitespace().skip(1))
        .filter(|(_, unit)| unit.starts_with("decisions/s") || unit.starts_with("games/s"))
        .map(|(n, _)| n.parse().unwrap())
        .collect();
    assert!(rates.len() >= 7, "{text}");
    assert!(rates.iter().all(|&r| r > 0.0), "{rates:?}");
}

#[test]
fn without_a_seed_a_tournament_draws_one_keeps_it_for_resume_and_shards_need_one() {
    let dir = temp_dir("drawn-seed");
    let base = [
        "tournament",
        "--game",
        "bouillabaisse",
        "--bot",
        "a=builtin:random",
        "--bot",
        "b=builtin:random",
        "--players",
        "2",
        "--matches",
        "4",
        "-q",
        "--out",
    ];
    let seed_of = |out: &std::path::Path| -> u64 {
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
                .unwrap();
        meta["seed"].as_u64().unwrap()
    };
    let first = dir.join("first");
    let out = run(&[&base[..], &[first.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let seed = seed_of(&first);
    assert!(
        stderr(&out).contains(&format!("no seed given: drew seed {seed}")),
        "{}",
        stderr(&out)
    );
    let again = run(&[&base[..], &[first.to_str().unwrap(), "--resume"]].concat());
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(!stderr(&again).contains("drew seed"));
    assert!(stderr(&again).contains(&format!("seed {seed},")));

    let second = dir.join("second");
    let out = run(&[&base[..], &[second.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(seed_of(&second), seed, "each tournament draws its own seed");

    let shard = dir.join("shard");
    let out = run(&[&base[..], &[shard.to_str().unwrap(), "--shard", "1/2"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--shard needs --seed"),
        "{}",
        stderr(&out)
    );
}
