//! The grade sheet: `referee leaderboard DIR --format csv --grades` and the report's
//! `grades.csv`, one row per bot with its faults by kind, forfeits and the verdict of
//! `referee check` kept in `DIR/checks/NAME.json` (by `referee tournament --check`, or saved by
//! hand: docs/tournament.md §8, the grade sheet), read back as a spreadsheet would.

use crate::faulty_tournament;
use crate::report_size::write_report;
use crate::util::*;
use std::collections::BTreeMap;
use std::path::Path;

/// The grade sheet of `dir`, each row by its column names, by bot.
fn sheet(dir: &Path) -> (String, BTreeMap<String, BTreeMap<String, String>>) {
    let out = run(&[
        "leaderboard",
        dir.to_str().unwrap(),
        "--format",
        "csv",
        "--grades",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let rows = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let row: BTreeMap<String, String> = header
                .iter()
                .zip(r.iter())
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect();
            (row["bot"].clone(), row)
        })
        .collect();
    (text, rows)
}

#[test]
fn the_grade_sheet_has_a_row_per_bot_with_faults_by_kind_and_the_check_verdict() {
    // A copy: the shared results directory stays as the tournament left it.
    let base = temp_dir("grades");
    let dir = base.join("results");
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(faulty_tournament::dir())
        .arg(&dir)
        .status()
        .unwrap();
    assert!(copied.success());
    let (_, rows) = sheet(&dir);
    assert_eq!(rows.len(), 5, "a row per bot");
    let crasher = &rows["crasher"];
    assert_eq!(crasher["exited"], crasher["faults"], "{crasher:?}");
    assert_eq!(crasher["forfeits"], crasher["matches"], "{crasher:?}");
    assert_eq!(crasher["check"], "");
    let diarist = &rows["diarist"];
    assert_eq!(diarist["wrong_shape"], "16", "{diarist:?}");
    assert_eq!(diarist["forfeits"], "0");
    let board = board(&run(&[
        "leaderboard",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]));
    for standing in board["standings"].as_array().unwrap() {
        let row = &rows[standing["bot"].as_str().unwrap()];
        assert_eq!(row["rank"], standing["rank"].to_string());
        assert_eq!(row["matches"], standing["matches"].to_string());
        let mu = standing["mu"].as_f64().unwrap();
        let sigma = standing["sigma"].as_f64().unwrap();
        let high: f64 = row["interval_high"].parse().unwrap();
        assert!((high - (mu + 3.0 * sigma)).abs() < 1e-9);
    }

    // The teacher keeps each bot's `referee check` verdict in DIR/checks/NAME.json.
    let checks = dir.join("checks");
    std::fs::create_dir(&checks).unwrap();
    for (bot, command) in [
        ("crasher", file("tests/bots/crasher.py")),
        ("py-random", file("sample-bots/python/vabanque_random.py")),
    ] {
        let checked = referee()
            .args(["check", "--game", "vabanque", "--format", "json", "--"])
            .arg(command)
            .output()
            .unwrap();
        std::fs::write(checks.join(format!("{bot}.json")), &checked.stdout).unwrap();
    }
    let (text, rows) = sheet(&dir);
    assert_eq!(rows["crasher"]["check"], "fail");
    assert!(rows["crasher"]["check_summary"].starts_with("FAIL"));
    assert_eq!(rows["py-random"]["check"], "pass");
    assert!(rows["py-random"]["check_summary"].starts_with("PASS"));
    assert_eq!(rows["diarist"]["check"], "", "not checked");

    // The report's grade sheet is the same; one bot's report has its row alone.
    let out = base.join("report");
    let printed = write_report(&dir, &out, &[]);
    assert!(printed.contains("grade sheet: "), "{printed}");
    assert_eq!(
        std::fs::read_to_string(out.join("grades.csv")).unwrap(),
        text
    );
    let one = base.join("one");
    write_report(&dir, &one, &["--bot", "py-random"]);
    let own = std::fs::read_to_string(one.join("grades.csv")).unwrap();
    assert_eq!(own.lines().count(), 2);
    assert!(own.lines().nth(1).unwrap().contains(",py-random,"), "{own}");
}

#[test]
fn grades_are_a_csv_sheet() {
    refused(
        &[
            "leaderboard",
            faulty_tournament::dir().to_str().unwrap(),
            "--grades",
        ],
        "--grades: the grade sheet is CSV; add --format csv",
    );
}

#[test]
fn a_tournament_with_check_keeps_each_programs_verdict_for_the_grade_sheet() {
    let dir = temp_dir("grades_check").join("results");
    let played = run(&[
        "tournament",
        "--game",
        "vabanque",
        "--players",
        "3",
        "--matches",
        "6",
        "--seed",
        "4",
        "-q",
        "--check",
        "--out",
        dir.to_str().unwrap(),
        "--bot",
        &format!("py={}", file("sample-bots/python/vabanque_random.py")),
        "--bot",
        &format!("crash={}", file("tests/bots/crasher.py")),
        "--bot",
        "b=builtin:random",
    ]);
    assert!(played.status.success(), "{}", stderr(&played));
    let said = stderr(&played);
    assert!(said.contains("referee: check py: PASS"), "{said}");
    assert!(said.contains("referee: check crash: FAIL"), "{said}");
    let (_, rows) = sheet(&dir);
    assert_eq!(rows["py"]["check"], "pass");
    assert_eq!(rows["crash"]["check"], "fail");
    assert!(rows["crash"]["check_summary"].starts_with("FAIL"));
    assert_eq!(rows["b"]["check"], "", "a built-in bot is not checked");
    assert!(!dir.join("checks").join("b.json").exists());
}
