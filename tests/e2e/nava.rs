//! The Nava schedule with real bot processes: 10 bots at tables of 4, 3 and 3 over 4 rounds of
//! 3 hands, with Machiavelli and with Vabanque; Victory Points in every output; the same results
//! and standings at -j 1 and -j 2 and after a SIGKILL and `--resume`; the settings it refuses.

use crate::util::*;
use serde_json::Value;
use std::path::Path;
use std::sync::OnceLock;

/// Ten deterministic Machiavelli bots: built-ins, the sample bots of three languages, and a slow
/// drawer that makes the run last long enough to be killed midway. (The Python rearranger is
/// left out: its search is bounded by time, so its plays depend on the machine's load.)
fn machiavelli_field() -> Vec<String> {
    vec![
        format!("slow-drawer={}", file("tests/bots/machiavelli_slow.py")),
        format!(
            "py-random={}",
            file("sample-bots/python/machiavelli_random.py")
        ),
        format!(
            "js-random=node {}",
            file("sample-bots/javascript/machiavelli_random.js")
        ),
        format!("rust-heuristic={}", bin("machiavelli-heuristic").display()),
        "heuristic-1=builtin:heuristic".into(),
        "heuristic-2=builtin:heuristic".into(),
        "heuristic-3=builtin:heuristic".into(),
        "baseline-1=builtin:baseline".into(),
        "baseline-2=builtin:baseline".into(),
        "baseline-3=builtin:baseline".into(),
    ]
}

/// Ten Vabanque bots.
fn vabanque_field() -> Vec<String> {
    vec![
        format!("rust-heuristic={}", bin("vabanque-heuristic").display()),
        format!("rust-random={}", bin("vabanque-random").display()),
        format!(
            "py-heuristic={}",
            file("sample-bots/python/vabanque_heuristic.py")
        ),
        format!(
            "js-random=node {}",
            file("sample-bots/javascript/vabanque_random.js")
        ),
        "heuristic-1=builtin:heuristic".into(),
        "heuristic-2=builtin:heuristic".into(),
        "heuristic-3=builtin:heuristic".into(),
        "random-1=builtin:random".into(),
        "random-2=builtin:random".into(),
        "random-3=builtin:random".into(),
    ]
}

/// `referee tournament --schedule nava` of `game` with `field`, 4 rounds of 3 hands, seed 5,
/// the JSON leaderboard, into `out`.
fn nava(game: &str, field: &[String], out: &Path, extra: &[&str]) -> std::process::Command {
    shaped(game, field, out, "4", extra)
}

/// As [`nava`], with `rounds` rounds.
fn shaped(
    game: &str,
    field: &[String],
    out: &Path,
    rounds: &str,
    extra: &[&str],
) -> std::process::Command {
    let mut cmd = referee();
    cmd.args([
        "tournament",
        "--game",
        game,
        "--schedule",
        "nava",
        "--rounds",
        rounds,
        "--hands",
        "3",
        "--seed",
        "5",
        "-q",
        "--format",
        "json",
        "--time-limit-ms",
        LIMIT_MS,
        "--out",
        out.to_str().unwrap(),
    ]);
    for bot in field {
        cmd.args(["--bot", bot]);
    }
    cmd.args(extra);
    cmd
}

/// 3 tables × 3 hands × 4 rounds.
const MATCHES: usize = 36;

/// The uninterrupted Machiavelli run at -j 2: its directory and leaderboard.
fn reference() -> &'static (std::path::PathBuf, Value) {
    static REFERENCE: OnceLock<(std::path::PathBuf, Value)> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let dir = temp_dir("nava-reference").join("out");
        let out = nava("machiavelli", &machiavelli_field(), &dir, &["-j", "2"])
            .output()
            .unwrap();
        (dir, board(&out))
    })
}

/// Checks what every Nava leaderboard of 10 bots over 4 rounds of 3 hands holds, and returns
/// its rows.
fn check_vp(board: &Value) -> &Vec<Value> {
    let nava = &board["nava"];
    assert_eq!(nava["rounds"], 4);
    assert_eq!(nava["hands"], 3);
    assert_eq!(nava["tables"], 3);
    let rows = nava["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    assert_eq!(board["matches"], MATCHES);
    for round in 0..4 {
        // Tables of 4, 3 and 3 in every round: two BYEs, both West.
        let mut sizes = [0usize; 3];
        for row in rows {
            let r = &row["rounds"][round];
            assert_eq!(r["round"], round + 1);
            let table = r["table"].as_u64().unwrap() as usize;
            sizes[table - 1] += 1;
            assert_eq!(
                r["players"].as_u64().unwrap() as usize,
                sizes_of(rows, round, table)
            );
        }
        let mut sorted = sizes;
        sorted.sort_unstable();
        assert_eq!(sorted, [3, 3, 4], "round {}", round + 1);
    }
    let mut last = (u64::MAX, u64::MAX);
    for (i, row) in rows.iter().enumerate() {
        let rounds = row["rounds"].as_array().unwrap();
        let vp: u64 = rounds
            .iter()
            .map(|r| r["result"]["vp"].as_u64().unwrap())
            .sum();
        assert_eq!(row["vp"].as_u64().unwrap(), vp, "{row}");
        let diff: u64 = rounds
            .iter()
            .map(|r| r["result"]["difference_vp"].as_u64().unwrap())
            .sum();
        assert_eq!(row["difference_vp"].as_u64().unwrap(), diff);
        for r in rounds {
            let result = &r["result"];
            assert_eq!(
                result["vp"].as_u64(),
                Some(
                    result["ranking_vp"].as_u64().unwrap()
                        + result["difference_vp"].as_u64().unwrap()
                )
            );
        }
        // Ordered by VP, then difference VP.
        let key = (
            row["vp"].as_u64().unwrap(),
            row["difference_vp"].as_u64().unwrap(),
        );
        assert!(key <= last, "row {i} out of order: {key:?} after {last:?}");
        last = key;
        // The usual columns follow the same order.
        assert_eq!(board["standings"][i]["bot"], row["bot"]);
        assert_eq!(board["standings"][i]["rank"], row["rank"]);
        assert_eq!(board["standings"][i]["matches"], 12, "{}", row["bot"]);
    }
    rows
}

/// How many bots sit at `table` (from 1) in `round` (from 0).
fn sizes_of(rows: &[Value], round: usize, table: usize) -> usize {
    rows.iter()
        .filter(|row| row["rounds"][round]["table"] == table)
        .count()
}

#[test]
fn a_machiavelli_nava_of_10_bots_plays_36_hands_and_scores_victory_points() {
    let (dir, board) = reference();
    check_vp(board);
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tournament.json")).unwrap())
            .unwrap();
    assert_eq!(meta["schedule"], "nava");
    assert_eq!(meta["nava"], serde_json::json!({"rounds": 4, "hands": 3}));
    // The guide's tournaments deal 10 cards.
    assert_eq!(meta["options"]["cards"], 10);
    let results = json_lines(&dir.join("matches.jsonl"));
    assert_eq!(results.len(), MATCHES);
    for r in &results {
        assert!(r["faults"].as_array().unwrap().is_empty(), "{r}");
    }
    // The same standings as a table, a CSV and Markdown, from the results directory.
    let table = run(&["leaderboard", dir.to_str().unwrap()]);
    let text = stdout(&table);
    assert!(table.status.success(), "{}", stderr(&table));
    assert!(
        text.contains("Nava, 4 rounds of 3 hands at 3 tables"),
        "{text}"
    );
    assert!(text.contains("│ rank │ bot"), "{text}");
    for header in ["VP", "diff VP", "points", "round 1", "round 4"] {
        assert!(text.contains(header), "{header}: {text}");
    }
    let first = &board["nava"]["rows"][0];
    let cell = format!(
        "{} (T{} {})",
        first["rounds"][0]["result"]["vp"],
        first["rounds"][0]["table"],
        first["rounds"][0]["seat"].as_str().unwrap()[..1].to_uppercase()
    );
    assert!(text.contains(&cell), "{cell}: {text}");
    let csv = stdout(&run(&[
        "leaderboard",
        dir.to_str().unwrap(),
        "--format",
        "csv",
    ]));
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("rank,bot,vp,difference_vp,mp,round1_table,round1_seat,round1_vp,"),
        "{csv}"
    );
    assert_eq!(lines.count(), 10);
    let markdown = stdout(&run(&[
        "leaderboard",
        dir.to_str().unwrap(),
        "--format",
        "markdown",
    ]));
    assert!(markdown.contains("| rank | bot"), "{markdown}");
    assert!(markdown.contains("round 4"), "{markdown}");
}

#[test]
fn a_nava_at_j1_gives_the_results_and_standings_of_j2() {
    let (ref_dir, ref_board) = reference();
    let dir = temp_dir("nava-j1").join("out");
    let j1 = board(
        &nava("machiavelli", &machiavelli_field(), &dir, &["-j", "1"])
            .output()
            .unwrap(),
    );
    assert_eq!(
        results_without_timings(&dir),
        results_without_timings(ref_dir)
    );
    assert_eq!(j1["nava"], ref_board["nava"]);
}

#[test]
fn a_nava_killed_with_sigkill_and_resumed_ends_with_the_same_standings() {
    let (_, ref_board) = reference();
    let dir = temp_dir("nava-kill9").join("out");
    let mut child = nava("machiavelli", &machiavelli_field(), &dir, &["-j", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let file = dir.join("matches.jsonl");
    wait_for_lines(&file, 3);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let written = std::fs::read_to_string(&file).unwrap().lines().count();
    assert!(
        (3..MATCHES).contains(&written),
        "{written} matches written before the kill"
    );
    let resumed = board(
        &nava(
            "machiavelli",
            &machiavelli_field(),
            &dir,
            &["-j", "2", "--resume"],
        )
        .output()
        .unwrap(),
    );
    assert_eq!(resumed["nava"], ref_board["nava"]);
    assert_eq!(json_lines(&file).len(), MATCHES, "every match exactly once");
}

#[test]
fn a_vabanque_nava_ranks_the_most_money_first_at_each_table() {
    let dir = temp_dir("nava-vabanque").join("out");
    let board = board(
        &nava("vabanque", &vabanque_field(), &dir, &["-j", "2"])
            .output()
            .unwrap(),
    );
    let rows = check_vp(&board);
    // At every finished table the first place has the most money.
    for round in 0..4 {
        for table in 1..=3 {
            let at: Vec<&Value> = rows
                .iter()
                .map(|row| &row["rounds"][round])
                .filter(|r| r["table"] == table)
                .collect();
            let best = at.iter().map(|r| r["result"]["mp"].as_i64().unwrap()).max();
            for r in &at {
                if r["result"]["place"] == 1 {
                    assert_eq!(r["result"]["mp"].as_i64(), best, "{at:?}");
                }
            }
        }
    }
    assert!(board["nava"]["higher_is_better"].as_bool().unwrap());
}

#[test]
fn settings_the_nava_schedule_does_not_take_are_refused_with_what_to_do() {
    let dir = temp_dir("nava-refused");
    let field = machiavelli_field();
    let refused = |args: &[&str], bots: &[String], wanted: &str| {
        let out = nava("machiavelli", bots, &dir.join("out"), args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(wanted), "{args:?}: {}", stderr(&out));
    };
    refused(
        &[],
        &field[..8],
        "the Nava schedule needs at least 9 bots; 8 were given",
    );
    refused(&["--matches", "10"], &field, "leave out --matches");
    refused(
        &["--players", "3"],
        &field,
        "leave out the player count (--players, or `players` in the config file)",
    );
    let out = shaped("machiavelli", &field, &dir.join("out"), "6", &[])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a Nava tournament has 3 to 5 rounds of 3 to 5 hands, not 6 of 3"),
        "{}",
        stderr(&out)
    );
    // --rounds without the Nava schedule.
    let out = referee()
        .args([
            "tournament",
            "--game",
            "machiavelli",
            "--rounds",
            "4",
            "--bot",
            "builtin:baseline",
        ])
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("--rounds and --hands are for the Nava schedule (--schedule nava)"),
        "{}",
        stderr(&out)
    );
    // A schedule written as the leaderboard's format.
    let toml = dir.join("two.toml");
    std::fs::write(&toml, "format = \"nava\"\n").unwrap();
    let out = referee()
        .args([
            "tournament",
            toml.to_str().unwrap(),
            "--game",
            "vabanque",
            "--bot",
            "builtin:random",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "`format` is the leaderboard's output format (table, json, csv, markdown); \"nava\" is a schedule: write `schedule = \"nava\"`"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_results_directory_with_the_old_format_key_is_refused_naming_the_new_one() {
    let (ref_dir, _) = reference();
    let dir = temp_dir("nava-old-key");
    let text = std::fs::read_to_string(ref_dir.join("tournament.json")).unwrap();
    std::fs::write(
        dir.join("tournament.json"),
        text.replace("\"schedule\"", "\"format\""),
    )
    .unwrap();
    std::fs::copy(ref_dir.join("matches.jsonl"), dir.join("matches.jsonl")).unwrap();
    let out = run(&["leaderboard", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the key `format` is now `schedule`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn two_nava_shards_merged_equal_one_unsharded_run_and_a_lone_shard_shows_unfinished_rounds() {
    let (ref_dir, ref_board) = reference();
    let base = temp_dir("nava-shards");
    for k in 1..=2 {
        let out = nava(
            "machiavelli",
            &machiavelli_field(),
            &base.join(format!("s{k}")),
            &["-j", "1", "--shard", &format!("{k}/2")],
        )
        .output()
        .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        // One shard alone has half of each table's hands: no round is finished anywhere.
        let alone = board(&out);
        for row in alone["nava"]["rows"].as_array().unwrap() {
            assert_eq!(row["vp"], 0, "{row}");
            assert!(
                row["rounds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|r| r["result"].is_null())
            );
        }
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
    assert_eq!(board(&out)["nava"], ref_board["nava"]);
    assert_eq!(
        results_without_timings(&merged_dir),
        results_without_timings(ref_dir)
    );
}
