//! `referee bench --tournament`: the user's own command timed in the referee's process and as a
//! child `referee tournament`, its figures beside the pipe round trip. No timing is asserted:
//! only that every figure is there, positive, agrees with the others, and that the decisions
//! are those the same tournament's results hold.

use crate::util::*;

/// The figures of one row of the table: decisions, wall seconds, decisions/s, µs/decision per
/// worker and its multiple of the trip, CPU µs/decision and its multiple of the trip.
#[derive(Debug)]
struct Row {
    decisions: u64,
    wall_s: f64,
    per_second: f64,
    wall_us: f64,
    wall_trips: f64,
    cpu_us: f64,
    cpu_trips: f64,
}

/// The row of `text` that starts with `label`.
fn row(text: &str, label: &str) -> Row {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label:?} row:\n{text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    // 4,160  1.02 s  4,084  497.6 (57.8× trip)  497.6 (57.8× trip)
    assert_eq!(words.len(), 10, "{line}");
    assert_eq!(
        (words[2], words[6], words[9]),
        ("s", "trip)", "trip)"),
        "{line}"
    );
    let number = |w: &str| -> f64 {
        w.trim_start_matches('(')
            .trim_end_matches('×')
            .replace(',', "")
            .parse()
            .unwrap_or_else(|_| panic!("{w:?} in {line}"))
    };
    Row {
        decisions: words[0].replace(',', "").parse().unwrap(),
        wall_s: number(words[1]),
        per_second: number(words[3]),
        wall_us: number(words[4]),
        wall_trips: number(words[5]),
        cpu_us: number(words[7]),
        cpu_trips: number(words[8]),
    }
}

/// Whether `a` is `b` within `share` of it, or within the rounding of a figure printed with one
/// decimal.
fn near(a: f64, b: f64, share: f64) -> bool {
    (a - b).abs() <= (share * b.abs()).max(0.06)
}

#[test]
fn bench_tournament_prints_the_decisions_the_results_hold_and_sane_rates() {
    let leftovers = || -> Vec<String> {
        std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with("referee-bench-"))
            .collect()
    };
    let before = leftovers();
    let mut cmd = referee();
    cmd.args(["bench", "--tournament", "--matches", "40", "--runs", "1"]);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_no_marked_survivors(&cmd);
    let text = stdout(&out);
    let header = text.lines().next().unwrap();
    assert!(
        header.starts_with(
            "tournament: vabanque, 4 Rust random bots, 4 per match, 40 matches, seed 3, -j "
        ),
        "{text}"
    );
    let jobs: f64 = header
        .split("-j ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    let trip: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("pipe round trip, same core: "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no pipe round trip:\n{text}"))
        .parse()
        .unwrap();
    assert!(trip > 0.0, "{text}");
    assert!(text.contains("how the bots ran"), "{text}");
    assert!(text.contains("1 run of each"), "{text}");
    assert!(
        !text.contains("min–max   "),
        "one run has no range:\n{text}"
    );

    // The same tournament, as a user runs it: its results hold the decisions the bench counts.
    let dir = temp_dir("bench-tournament").join("out");
    let bot = bin("vabanque-random").display().to_string();
    let jobs_arg = jobs.to_string();
    let mut args = vec![
        "tournament",
        "--game",
        "vabanque",
        "--players",
        "4",
        "--matches",
        "40",
        "--seed",
        "3",
        "-j",
        &jobs_arg,
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ];
    let bots: Vec<String> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| format!("{n}={bot}"))
        .collect();
    for b in &bots {
        args.extend(["--bot", b]);
    }
    let played = run(&args);
    assert!(played.status.success(), "{}", stderr(&played));
    let results = json_lines(&dir.join("matches.jsonl"));
    assert_eq!(results.len(), 40);
    let decisions: u64 = results
        .iter()
        .flat_map(|r| r["stats"].as_array().unwrap())
        .map(|s| s["decisions"].as_u64().unwrap())
        .sum();
    assert!(decisions > 40 * 50, "{decisions}");

    for label in ["in-process", "out of process"] {
        let r = row(&text, label);
        assert_eq!(r.decisions, decisions, "{label}:\n{text}");
        for figure in [
            r.wall_s,
            r.per_second,
            r.wall_us,
            r.wall_trips,
            r.cpu_us,
            r.cpu_trips,
        ] {
            assert!(figure.is_finite() && figure > 0.0, "{label}: {r:?}");
        }
        // Each derived figure is what its parts make, to the rounding of what is printed.
        let wall = r.decisions as f64 / r.per_second;
        assert!(near(wall, r.wall_s, 0.05), "{label}: {r:?}");
        assert!(
            near(r.wall_us, wall * 1e6 * jobs / r.decisions as f64, 0.05),
            "{label}: {r:?}"
        );
        assert!(near(r.wall_trips, r.wall_us / trip, 0.05), "{label}: {r:?}");
        assert!(near(r.cpu_trips, r.cpu_us / trip, 0.05), "{label}: {r:?}");
    }
    assert!(text.contains("out of process / in-process: "), "{text}");
    assert_eq!(
        leftovers(),
        before,
        "the bench's results directories are removed"
    );
}
