//! A bot that drips costs the referee about what a quiet one does: a bot that writes one byte
//! per `write` while it thinks (`tests/bots/dripper.py`) — to its stderr, or its reply's line to
//! its stdout — has its bytes read a pace gap at a time, not one read per byte
//! (docs/security.md#the-stderr-budget). Every byte arrives, in order, and the dripped reply is
//! played as the same reply written at once.

use crate::util::*;
use serde_json::Value;
use std::time::Duration;

/// How long the dripper thinks, dripping, per decision: a match of Vabanque gives it 26
/// decisions, 8 s of dripping (read as it comes, it cost the referee 0.75 to 1.5 s of CPU, debug
/// build).
const THINK: &str = "0.3";

/// The referee's CPU beside a dripper is at most this many times its CPU beside the same bot
/// quiet, plus [`SLACK`]: the paced reads cost it hundredths of a second a match.
const TIMES: u32 = 3;

/// See [`TIMES`]: what a loaded machine may add to a match of seconds.
const SLACK: Duration = Duration::from_millis(250);

/// The fewest single-byte writes the dripper makes in a match: it makes hundreds of thousands on
/// a quiet machine, and this many are enough to cost a referee that reads them as they come more
/// than the bound.
const FEWEST_WRITES: u64 = 20_000;

/// A match played beside the dripper.
struct Played {
    /// The log's records, after its header (which names the dripper's mode).
    records: Vec<Value>,
    /// The referee's own CPU time.
    cpu: Duration,
    /// The dripper's stderr, whole (it writes less than the file's cap).
    stderr: String,
}

/// Plays a match of Vabanque with the dripper in `mode` and two built-in bots, which cost the
/// referee next to nothing, with a fixed seed, in the test `test`'s directory.
fn play(test: &str, mode: &str) -> Played {
    let dir = temp_dir(&format!("drip-{test}-{mode}"));
    let log = dir.join("log.jsonl");
    let errs = dir.join("stderr");
    let mut cmd = referee();
    cmd.args(["match", "--game", "vabanque", "--seed", "3"])
        .args(["--time-limit-ms", LIMIT_MS])
        .args(["--log", log.to_str().unwrap()])
        .args(["--stderr-dir", errs.to_str().unwrap()])
        .args([
            "--bot",
            &format!("d={} {mode} {THINK}", file("tests/bots/dripper.py")),
        ])
        .args(["--bot", "r1=builtin:random", "--bot", "r2=builtin:random"]);
    let (output, cpu) = run_timed(&mut cmd);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_no_marked_survivors(&cmd);
    let records = json_lines(&log);
    assert!(
        records.iter().all(|r| r["type"] != "fault"),
        "{mode}: no fault"
    );
    let stderr = std::fs::read_to_string(errs.join("d.stderr")).unwrap();
    Played {
        records: without_timings(records).split_off(1),
        cpu,
        stderr,
    }
}

/// Plays the dripper in `mode`, and the same bot quiet: asserts that the referee's CPU beside
/// the dripper is within the bound of its CPU beside the quiet bot, and that the matches are the
/// same. Returns the dripper's.
fn drip_beside_quiet(mode: &str) -> Played {
    let quiet = play(mode, "quiet");
    let drip = play(mode, mode);
    eprintln!(
        "referee CPU: {:?} beside the {mode} dripper, {:?} beside it quiet",
        drip.cpu, quiet.cpu
    );
    assert!(
        drip.cpu <= quiet.cpu * TIMES + SLACK,
        "the referee's CPU beside the {mode} dripper: {:?}, quiet: {:?}",
        drip.cpu,
        quiet.cpu
    );
    assert_eq!(
        drip.records, quiet.records,
        "the same match, {mode} dripped"
    );
    drip
}

#[test]
fn a_stderr_dripped_a_byte_a_write_costs_the_referee_about_what_a_quiet_bot_does() {
    let drip = drip_beside_quiet("stderr");
    // Each decision's line, `ID:xx…x:COUNT`, read whole and in order.
    let mut writes = 0;
    let mut last_id = None;
    for line in drip.stderr.lines() {
        let mut parts = line.split(':');
        let (Some(id), Some(xs), Some(count), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            panic!("a line as written: {line:.80}");
        };
        let id: u64 = id.parse().unwrap();
        assert!(last_id < Some(id), "in order: {id} after {last_id:?}");
        last_id = Some(id);
        assert!(xs.bytes().all(|b| b == b'x'), "{line:.80}");
        assert_eq!(
            xs.len().to_string(),
            count,
            "every byte of request {id}'s line"
        );
        writes += line.len() as u64 + 1;
    }
    assert_eq!(drip.stderr.lines().count(), 26, "a line a decision");
    eprintln!("the dripper wrote {writes} bytes to stderr, one a write");
    assert!(writes >= FEWEST_WRITES, "it dripped {writes} bytes");
}

#[test]
fn a_reply_dripped_a_byte_a_write_is_played_and_costs_the_referee_about_what_a_quiet_bot_does() {
    // Its replies played: the match is the quiet bot's.
    let drip = drip_beside_quiet("reply");
    // The dripper says on its stderr how many spaces it wrote before each reply.
    let spaces: Vec<u64> = drip.stderr.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(spaces.len(), 26, "a count a decision");
    let writes: u64 = spaces.iter().sum();
    eprintln!("the dripper wrote {writes} spaces before its replies, one a write");
    assert!(writes >= FEWEST_WRITES, "it dripped {writes} bytes");
}
