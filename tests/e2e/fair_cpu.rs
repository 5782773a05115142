//! Fair CPU: a hog that forks 32 busy processes, each in a session of its own and asking for
//! every core, cannot make an honest bot lose on time — in its own match (its processes share
//! one CPU quota) or in another match (they may not leave their worker's core). Needs the CPU
//! controllers of cgroups (root); skipped visibly where they cannot be made.

use crate::util::*;

/// The referee's start-up line names every CPU mechanism this test relies on.
fn cpu_groups_here(line: &str) -> bool {
    ["CPU quota", "cpuset"].iter().all(|m| line.contains(m)) && !line.contains("warning")
}

#[test]
fn a_cpu_hog_beside_a_thinker_costs_the_thinker_no_timeout() {
    if !cgroups_available() {
        skipped(
            "a_cpu_hog_beside_a_thinker_costs_the_thinker_no_timeout",
            "no control group can be made here (needs root and cgroups)",
        );
        return;
    }
    let dir = temp_dir("fair-cpu");
    let out = dir.join("out");
    // Round robin of 4 bots, 3 per match, 6 matches at -j 2: the 3 matches of the group without
    // the hog run beside those of the group with it, on the other worker's core.
    let mut cmd = referee();
    cmd.args([
        "tournament",
        "--game",
        "vabanque",
        "--players",
        "3",
        "--matches",
        "6",
        "--seed",
        "3",
        "-j",
        "2",
        "-q",
        "--format",
        "json",
        "--time-limit-ms",
        "1000",
        "--out",
        out.to_str().unwrap(),
        "--bot",
        &format!("thinker={}", file("tests/bots/thinker.py")),
        "--bot",
        "random=builtin:random",
        "--bot",
        &format!("rust-random={}", bin("vabanque-random").display()),
        "--bot",
        &format!("hog={}", file("tests/bots/hog.py")),
    ]);
    let output = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    let err = stderr(&output);
    let first = err.lines().next().unwrap_or_default();
    if !cpu_groups_here(first) {
        skipped(
            "a_cpu_hog_beside_a_thinker_costs_the_thinker_no_timeout",
            &format!("the CPU controllers are missing here: {first}"),
        );
        return;
    }
    assert!(output.status.success(), "{err}");
    let results = json_lines(&out.join("matches.jsonl"));
    assert_eq!(results.len(), 6);
    let mut hog_matches = 0;
    for r in &results {
        let players: Vec<&str> = r["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        hog_matches += usize::from(players.contains(&"hog"));
        let thinker = players.iter().position(|p| *p == "thinker").unwrap();
        let faults: Vec<&serde_json::Value> = r["faults"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["seat"] == thinker)
            .collect();
        assert!(faults.is_empty(), "the thinker was charged: {faults:?}");
        assert_eq!(r["stats"][thinker]["substituted"], 0, "{r}");
    }
    assert_eq!(hog_matches, 3);
}
