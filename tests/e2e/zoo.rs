//! The fault zoo: each misbehaving bot of `tests/bots/` plays a small tournament beside two
//! well-behaved bots (the Python and Rust random samples). For every one: the tournament
//! completes, the misbehaving bot gets the right fault and nobody else gets any, the good bots
//! play every decision themselves, every log replays, the referee's memory stays small, and no
//! process survives — the bot's, its children's, or anything they started.
//!
//! The runs use the default sandbox (bubblewrap where it works). Tests that need control groups
//! (memory, process limits, the kill of an escaped process without a sandbox) say so and are
//! skipped, with a message, on machines where the referee cannot make them.

use crate::util::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The referee's peak memory allowed in any zoo run (a debug build; a sound run takes ~12 MiB).
const MAX_REFEREE_MIB: f64 = 64.0;

/// A finished zoo tournament.
struct Zoo {
    /// The match records.
    records: Vec<Value>,
    /// The results directory.
    out: PathBuf,
    /// The referee's stderr.
    stderr: String,
}

impl Zoo {
    /// The zoo bot's faults, in order: (kind, message).
    fn faults(&self) -> Vec<(String, String)> {
        self.records
            .iter()
            .flat_map(|r| {
                r["faults"].as_array().unwrap().iter().map(|f| {
                    (
                        f["fault"].as_str().unwrap().to_string(),
                        f["message"].as_str().unwrap().to_string(),
                    )
                })
            })
            .collect()
    }

    /// The kinds of the zoo bot's faults.
    fn kinds(&self) -> BTreeSet<String> {
        self.faults().into_iter().map(|(k, _)| k).collect()
    }

    /// The zoo bot's seat in each match.
    fn seats(&self) -> Vec<usize> {
        self.records
            .iter()
            .map(|r| {
                r["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .position(|p| p == "zoo")
                    .unwrap()
            })
            .collect()
    }

    /// Whether the referee could give the bots control groups (it warns when it cannot).
    fn had_cgroups(&self) -> bool {
        !self.stderr.contains("no control group can be made here")
    }

    /// Whether the zoo bot forfeited and was ranked last in every match.
    fn forfeited_everywhere(&self) -> bool {
        self.records.iter().zip(self.seats()).all(|(r, seat)| {
            r["stats"][seat]["forfeited"] == true
                && r["ranks"][seat] == r["ranks"].as_array().unwrap().len()
        })
    }
}

/// Plays 3 matches of 3 players: `zoo` (the command line `script` under tests/bots), and the
/// Python and Rust random bots, with the flags `extra`; checks everything the zoo promises and
/// returns the results. The zoo bot's own settings (`[[bot]]` keys: its time limit, its start-up
/// limit) are `own`; the good bots get limits they meet however loaded the machine
/// ([`LIMIT_MS`], 10 s to start), so that only the zoo bot can be at fault.
fn zoo(name: &str, script: &str, own: &[(&str, &str)], extra: &[&str]) -> Zoo {
    zoo_with_env(name, script, own, extra, &[])
}

fn zoo_with_env(
    name: &str,
    script: &str,
    own: &[(&str, &str)],
    extra: &[&str],
    env: &[(&str, &str)],
) -> Zoo {
    let dir = temp_dir(&format!("zoo-{name}"));
    let out = dir.join("out");
    let mut config = format!(
        "game = \"vabanque\"\nplayers = 3\nmatches = 3\njobs = 2\n\
         time_limit_ms = {LIMIT_MS}\nstartup_limit_ms = 10000\n\
         [[bot]]\nname = \"zoo\"\ncommand = {:?}\n",
        file(&format!("tests/bots/{script}"))
    );
    for (key, value) in own {
        config.push_str(&format!("{key} = {value}\n"));
    }
    config.push_str(&format!(
        "[[bot]]\nname = \"good-py\"\ncommand = [\"python3\", {:?}]\n\
         [[bot]]\nname = \"good-rs\"\ncommand = {:?}\n",
        file("sample-bots/python/vabanque_random.py"),
        bin("vabanque-random").display().to_string()
    ));
    let path = dir.join("zoo.toml");
    std::fs::write(&path, config).unwrap();
    let mut cmd = referee();
    cmd.args(["tournament", path.to_str().unwrap()]);
    cmd.args(["-q", "--logs", "--out", out.to_str().unwrap()]);
    cmd.args(extra);
    for (name, value) in env {
        cmd.args(["--env", &format!("{name}={value}")]);
    }
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "the tournament completes: {stderr}"
    );
    assert_no_marked_survivors(&cmd);
    let records = json_lines(&out.join("matches.jsonl"));
    assert_eq!(records.len(), 3, "every match has its result");
    for record in &records {
        let players = record["players"].as_array().unwrap();
        for fault in record["faults"].as_array().unwrap() {
            let seat = fault["seat"].as_u64().unwrap() as usize;
            assert_eq!(
                players[seat], "zoo",
                "only the zoo bot is at fault: {fault}"
            );
        }
        for (seat, player) in players.iter().enumerate() {
            if player != "zoo" {
                assert_eq!(
                    record["stats"][seat]["substituted"], 0,
                    "{player} played every decision itself"
                );
            }
        }
        let log = out.join("logs").join(format!("{}.jsonl", record["id"]));
        let replay = run(&["replay", log.to_str().unwrap()]);
        assert!(replay.status.success(), "{}", stderr_of(&replay));
    }
    let peak: f64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("referee: peak memory of the referee (RSS): "))
        .and_then(|m| m.trim_end_matches(" MiB").parse().ok())
        .expect("the referee reports its peak memory");
    assert!(
        peak < MAX_REFEREE_MIB,
        "the referee stayed small: {peak} MiB"
    );
    Zoo {
        records,
        out,
        stderr,
    }
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_bot_that_never_answers_the_handshake_times_out_at_start_up_and_forfeits() {
    let z = zoo("mute", "mute.py", &[("startup_limit_ms", "500")], &[]);
    assert_eq!(z.kinds(), BTreeSet::from(["startup_timeout".to_string()]));
    assert_eq!(z.faults().len(), 3, "one per match");
    assert!(z.forfeited_everywhere());
}

#[test]
fn a_bot_that_hangs_mid_match_times_out_until_it_is_stopped() {
    // Its four answers come well within its limit; then it hangs, far beyond any limit.
    let z = zoo(
        "hangs",
        "hangs.py",
        &[("time_limit_ms", SHORT_LIMIT_MS)],
        &["--max-faults", "2"],
    );
    assert_eq!(z.kinds(), BTreeSet::from(["timeout".to_string()]));
    let faults = z.faults();
    assert!(
        faults
            .iter()
            .any(|(_, m)| m.contains("fault limit reached")),
        "{faults:?}"
    );
    // It answered its first 4 requests itself: the hang is mid-match, not at the start.
    for (record, seat) in z.records.iter().zip(z.seats()) {
        let played = record["stats"][seat]["decisions"].as_u64().unwrap()
            - record["stats"][seat]["substituted"].as_u64().unwrap();
        assert!(played >= 4, "{}", record["stats"][seat]);
    }
}

#[test]
fn a_bot_that_is_slow_once_costs_one_timeout_and_plays_on() {
    // One worker and no duplicate play (which keeps a process per rotation), so one process
    // plays all three matches and is late once: it answers its first request only once the
    // referee has given up on it and sent the next, whatever the speed of the machine.
    let z = zoo(
        "slow-once",
        "late_once.py 1",
        &[("time_limit_ms", SHORT_LIMIT_MS)],
        &["-j", "1", "--duplicate", "false"],
    );
    assert_eq!(z.faults().len(), 1, "{:?}", z.faults());
    assert_eq!(z.kinds(), BTreeSet::from(["timeout".to_string()]));
}

#[test]
fn bots_that_exit_at_once_or_crash_mid_match_forfeit() {
    let z = zoo("exits", "exits.py", &[], &[]);
    assert_eq!(z.kinds(), BTreeSet::from(["exited".to_string()]));
    assert!(
        z.faults()[0].1.contains("exited with status 3"),
        "{:?}",
        z.faults()
    );
    assert!(z.forfeited_everywhere());
    let z = zoo("crasher", "crasher.py", &[], &[]);
    assert_eq!(z.kinds(), BTreeSet::from(["exited".to_string()]));
    assert!(
        z.faults()[0].1.contains("deliberate crash"),
        "{:?}",
        z.faults()
    );
    assert!(z.forfeited_everywhere());
}

#[test]
fn a_bot_that_closes_stdout_but_keeps_running_is_an_exit_and_is_killed() {
    // In the sandbox its closed output is seen when its request times out: a short limit.
    let z = zoo(
        "closes-stdout",
        "closes_stdout.py",
        &[("time_limit_ms", SHORT_LIMIT_MS)],
        &[],
    );
    let sandboxed = !z.stderr.contains("bots run without a sandbox");
    if sandboxed && !z.had_cgroups() {
        // bubblewrap holds the pipe open; without a control group the referee cannot tell
        // that no process of the bot does (docs/security.md): the bot times out instead.
        skipped(
            "closed stdout seen through the sandbox",
            "no control groups can be made here",
        );
        assert_eq!(z.kinds(), BTreeSet::from(["timeout".to_string()]));
        return;
    }
    assert_eq!(z.kinds(), BTreeSet::from(["exited".to_string()]));
    assert!(
        z.faults()[0].1.contains("closed its standard output"),
        "{:?}",
        z.faults()
    );
}

#[test]
fn invalid_json_wrong_shapes_wrong_ids_and_double_replies_get_their_own_fault() {
    for (name, script, kind) in [
        ("garbage", "garbage.py", "malformed"),
        ("wrong-shape", "wrong_shape.py", "wrong_shape"),
        ("wrong-id", "wrong_id.py", "stale_id"),
        ("double", "double.py", "stale_id"),
    ] {
        // Each reply (or line) is the answer to its request: one fault, never a timeout after
        // it, so no bot waits for the limit.
        let z = zoo(name, script, &[], &[]);
        assert!(z.kinds().contains(kind), "{name}: {:?}", z.kinds());
        let others: Vec<String> = z.kinds().into_iter().filter(|k| k != kind).collect();
        assert!(others.is_empty(), "{name}: {others:?}");
    }
}

#[test]
fn a_100_mb_line_without_newline_is_cut_at_the_cap_and_memory_stays_small() {
    let z = zoo("hugeline", "hugeline.py", &[], &[]);
    assert_eq!(z.kinds(), BTreeSet::from(["line_too_long".to_string()]));
}

#[test]
fn a_bot_that_never_reads_fills_its_pipe_and_the_write_times_out() {
    let z = zoo(
        "deaf",
        "deaf.py",
        // A short limit of its own (a write to it times out after its decision limit): it never
        // reads, however long it is given.
        &[("time_limit_ms", "20")],
        // One process per worker (no duplicate play), so that its pipe fills over the matches.
        &["--max-faults", "1000", "--duplicate", "false"],
    );
    assert!(z.kinds().contains("write_failed"), "{:?}", z.kinds());
    assert!(
        z.kinds()
            .iter()
            .all(|k| k == "write_failed" || k == "timeout")
    );
}

#[test]
fn a_stderr_flood_past_its_budget_waits_on_its_own_writes_and_times_out() {
    // 2 MiB before each reply, twice its budget of a decision: the referee stops reading, and
    // the bot waits on its write until its limit is over.
    let z = zoo(
        "stderr-flood",
        "stderr_flood.py",
        &[("time_limit_ms", SHORT_LIMIT_MS)],
        &[],
    );
    assert_eq!(z.kinds(), BTreeSet::from(["timeout".to_string()]));
    for (_, message) in z.faults() {
        assert!(
            message.contains("its stderr was over its budget"),
            "{message}"
        );
    }
    // Said once per match in its record: the stops, and what its full file dropped.
    for (record, seat) in z.records.iter().zip(z.seats()) {
        let overflow = &record["stats"][seat]["stderr"];
        assert!(overflow["stops"].as_u64().unwrap() >= 1, "{record}");
    }
    let files: Vec<_> = std::fs::read_dir(z.out.join("stderr"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("zoo."))
        .collect();
    assert!(!files.is_empty());
    for f in files {
        let size = std::fs::metadata(&f).unwrap().len();
        assert!(size <= (1 << 20) + 4096, "{} is {size} bytes", f.display());
        assert!(size >= 1 << 20, "the cap, not less, is kept: {size}");
    }
}

#[test]
fn children_that_hold_the_pipes_and_setsid_grandchildren_are_killed() {
    let z = zoo("forker", "forker.py", &[], &[]);
    assert!(z.faults().is_empty(), "{:?}", z.faults());
    if bwrap_works("escaper in the sandbox") {
        let z = zoo("escaper", "escaper.py", &[], &["--sandbox", "bwrap"]);
        assert!(z.faults().is_empty(), "{:?}", z.faults());
    }
    // Without the sandbox's PID namespace, the control group still reaches the grandchild.
    if cgroups_available() {
        let z = zoo("escaper-none", "escaper.py", &[], &["--sandbox", "none"]);
        assert!(z.faults().is_empty(), "{:?}", z.faults());
    } else {
        skipped(
            "escaper without a sandbox",
            "no control groups can be made here",
        );
    }
}

#[test]
fn unbounded_memory_is_stopped_by_the_memory_limit() {
    let z = zoo("memhog", "memhog.py", &[], &["--memory-mb", "200"]);
    let (kind, message) = &z.faults()[0];
    if z.had_cgroups() {
        assert_eq!(kind, "resource_limit", "{message}");
        assert!(message.contains("memory limit of 200 MiB"), "{message}");
    } else {
        // RLIMIT_AS: the allocation fails inside the bot.
        assert_eq!(kind, "exited", "{message}");
        assert!(message.contains("MemoryError"), "{message}");
    }
    assert!(z.forfeited_everywhere());
}

#[test]
fn a_spinning_bot_is_stopped_by_the_cpu_time_limit() {
    // A CPU second can take many seconds of a loaded machine: a minute's limit, which only a
    // spinner the CPU limit does not stop would reach.
    let z = zoo(
        "spinner",
        "spinner.py",
        &[("time_limit_ms", "60000")],
        &["--cpu-s", "1"],
    );
    let (kind, message) = &z.faults()[0];
    assert_eq!(kind, "resource_limit", "{message}");
    assert!(message.contains("CPU-time limit of 1 s"), "{message}");
}

#[test]
fn a_huge_file_is_stopped_at_the_file_size_limit() {
    let dir = temp_dir("zoo-bigfile-files");
    writable_by_bots(&dir);
    let z = zoo_with_env(
        "bigfile",
        "bigfile.py",
        &[],
        &["--file-mb", "16", "--sandbox", "none"],
        &[("ZOO_DIR", dir.to_str().unwrap())],
    );
    let (kind, message) = &z.faults()[0];
    assert_eq!(kind, "exited", "{message}");
    assert!(message.contains("File too large"), "{message}");
    let size = std::fs::metadata(dir.join("bigfile.out")).unwrap().len();
    assert!(size <= 16 << 20, "{size}");
    // In the sandbox the same bot can only write its private /tmp, and hits the same limit.
    // Only in the sandbox: without it, that /tmp is the machine's, which earlier runs' bots,
    // of other uids, may have written.
    if !bwrap_works("zoo::a_huge_file_is_stopped_at_the_file_size_limit (in the sandbox)") {
        return;
    }
    let z = zoo(
        "bigfile-sandboxed",
        "bigfile.py",
        &[],
        &["--file-mb", "16", "--sandbox", "bwrap"],
    );
    assert!(
        z.faults()[0].1.contains("File too large"),
        "{:?}",
        z.faults()
    );
}

#[test]
fn a_fork_bomb_is_stopped_at_the_process_limit() {
    // It forks until refused, then hangs: its timeout, at its first request, says why. One
    // timeout a match is enough to see it.
    let z = zoo(
        "forkbomb",
        "forkbomb.py",
        &[("time_limit_ms", SHORT_LIMIT_MS)],
        &["--processes", "64", "--max-faults", "1"],
    );
    if !z.had_cgroups() {
        skipped(
            "fork bomb's process limit",
            "no control groups can be made here",
        );
        return;
    }
    let (kind, message) = &z.faults()[0];
    assert_eq!(kind, "timeout", "{message}");
    assert!(message.contains("limit of 64 processes"), "{message}");
    let bot_stderr: String = std::fs::read_dir(z.out.join("stderr"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect();
    let forked: usize = bot_stderr
        .lines()
        .find_map(|l| {
            let rest = l.split("forkbomb: forked ").nth(1)?;
            rest.split(',').next()?.trim().parse().ok()
        })
        .unwrap_or(0);
    assert!(forked < 64, "forked {forked}");
}
