//! A bot's stderr costs the bot: a bot that writes stderr as fast as it can, all the time
//! (`tests/bots/stderr_firehose.py`), beside three honest bots, costs the referee no more than
//! twice the CPU of the same tournament with that bot quiet; the honest bots see no difference;
//! the flood is said once per match in the record, and its file holds at most its cap.

use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The CPU time the quiet tournament is allowed at least, however little it took: twice this
/// is far below what draining the flood cost the referee (seconds per match), and far above
/// what a loaded machine adds to a tournament of 3 short matches.
const QUIET_FLOOR: Duration = Duration::from_millis(500);

/// A finished tournament, and the referee's own CPU time.
struct Run {
    records: Vec<Value>,
    out: PathBuf,
    cpu: Duration,
}

/// Plays 3 matches of 4 players — `seat`, the firehose with `args`; `slow`, an honest bot that
/// takes 100 ms a decision (so that a match lasts seconds, as a match of bots that think does);
/// and the Python and Rust random bots — with a fixed seed, and checks that it completes and
/// leaves no process.
fn tournament(name: &str, args: &str, extra: &[&str]) -> Run {
    let dir = temp_dir(&format!("stderr-budget-{name}"));
    let out = dir.join("out");
    let config = format!(
        "game = \"vabanque\"\nplayers = 4\nmatches = 3\njobs = 2\nseed = 7\n\
         time_limit_ms = {LIMIT_MS}\nstartup_limit_ms = 10000\n\
         [[bot]]\nname = \"seat\"\ncommand = \"{} {args}\"\n\
         [[bot]]\nname = \"slow\"\ncommand = \"{} 0.1\"\n\
         [[bot]]\nname = \"good-py\"\ncommand = [\"python3\", {:?}]\n\
         [[bot]]\nname = \"good-rs\"\ncommand = {:?}\n",
        file("tests/bots/stderr_firehose.py"),
        file("tests/bots/slowpoke.py"),
        file("sample-bots/python/vabanque_random.py"),
        bin("vabanque-random").display().to_string()
    );
    let path = dir.join("budget.toml");
    std::fs::write(&path, config).unwrap();
    let mut cmd = referee();
    cmd.args(["tournament", path.to_str().unwrap()]);
    cmd.args(["-q", "--out", out.to_str().unwrap()]);
    cmd.args(extra);
    let (output, cpu) = run_timed(&mut cmd);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_no_marked_survivors(&cmd);
    let records = json_lines(&out.join("matches.jsonl"));
    assert_eq!(records.len(), 3);
    Run { records, out, cpu }
}

/// Each match's players, scores and ranks, by id.
fn outcomes(run: &Run) -> Vec<(u64, Value, Value, Value)> {
    let mut all: Vec<_> = run
        .records
        .iter()
        .map(|r| {
            (
                r["id"].as_u64().unwrap(),
                r["players"].clone(),
                r["scores"].clone(),
                r["ranks"].clone(),
            )
        })
        .collect();
    all.sort_by_key(|o| o.0);
    all
}

/// The seat of `name` in a match record.
fn seat_of(record: &Value, name: &str) -> usize {
    record["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p == name)
        .unwrap()
}

/// The sizes of the `seat` bot's stderr files.
fn stderr_files(out: &Path) -> Vec<u64> {
    std::fs::read_dir(out.join("stderr"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("seat.")
        })
        .map(|p| std::fs::metadata(p).unwrap().len())
        .collect()
}

#[test]
fn a_stderr_firehose_costs_the_referee_at_most_twice_a_quiet_bot() {
    let quiet = tournament("quiet", "quiet", &[]);
    let flood = tournament("flood", "", &[]);
    let ratio = flood.cpu.as_secs_f64() / quiet.cpu.max(QUIET_FLOOR).as_secs_f64();
    eprintln!(
        "referee CPU: {:?} beside the firehose, {:?} beside it quiet ({ratio:.2} of the floored quiet run)",
        flood.cpu, quiet.cpu
    );
    assert!(
        ratio <= 2.0,
        "the referee's CPU beside the firehose: {:?}, quiet: {:?}",
        flood.cpu,
        quiet.cpu
    );
    // Nobody is at fault, the firehose included: its thread waits on its writes, not its
    // answers. The honest bots see the same matches.
    for run in [&quiet, &flood] {
        for r in &run.records {
            assert_eq!(r["faults"], serde_json::json!([]), "{r}");
        }
    }
    assert_eq!(outcomes(&quiet), outcomes(&flood));
    // Said once per match, in the firehose's stats: the stops and what its full file dropped.
    for r in &flood.records {
        let seat = seat_of(r, "seat");
        for (s, stats) in r["stats"].as_array().unwrap().iter().enumerate() {
            if s != seat {
                assert!(stats.get("stderr").is_none(), "{r}");
            }
        }
        let overflow = &r["stats"][seat]["stderr"];
        assert!(overflow["stops"].as_u64().unwrap() >= 1, "{r}");
        assert!(overflow["dropped"].as_u64().unwrap() >= 1 << 20, "{r}");
    }
    for r in &quiet.records {
        assert!(
            r["stats"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s.get("stderr").is_none())
        );
    }
    let sizes = stderr_files(&flood.out);
    assert!(!sizes.is_empty());
    for size in sizes {
        assert!(size <= (1 << 20) + 64, "the cap and its line: {size}");
    }
}

#[test]
fn a_budget_of_no_bound_reads_everything_as_before() {
    // A bound of 0 is none: every byte of a bot that writes 2 MiB before each reply is read at
    // once, and it plays without a fault.
    let mut cmd = referee();
    let dir = temp_dir("stderr-budget-unbounded");
    let log = dir.join("log.jsonl");
    cmd.args(["match", "--game", "vabanque", "--seed", "5"])
        .args([
            "--time-limit-ms",
            LIMIT_MS,
            "--stderr-kb",
            "0",
            "--stderr-match-mb",
            "0",
        ])
        .args(["--log", log.to_str().unwrap()])
        .args([
            "--bot",
            &format!("flood={}", file("tests/bots/stderr_flood.py")),
        ])
        .args(["--bot", "r1=builtin:random", "--bot", "r2=builtin:random"]);
    let records = played_log(&mut cmd, &log);
    assert!(records.iter().all(|r| r["type"] != "fault"));
}
