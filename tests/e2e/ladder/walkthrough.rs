//! docs/ladder.md's "A class ladder, from zero", every command as it stands, in order: the
//! ladder served from `examples/class-ladder.toml`, the class list of
//! `examples/class-students.csv` made into accounts, a student's submission with the token it
//! was handed, the deadline, the freeze, the final tournament played by the server's workers,
//! its export with the report and grade sheet, and `referee leaderboard --grades` of it.

use crate::doc_commands::{Served, checkout, sh_blocks};
use crate::util::*;
use std::time::{Duration, Instant};

/// Runs `script` in `dir` after `exports` (the teacher's terminal); its stdout.
fn run_script(exports: &str, script: &str, dir: &std::path::Path) -> String {
    let mut command = shell(&format!("set -e\n{exports}\n{script}"), dir);
    let done = command.output().unwrap();
    let text = stdout(&done);
    assert!(done.status.success(), "{script}\n{text}{}", stderr(&done));
    text
}

#[test]
fn the_class_ladder_walkthrough_runs_as_it_stands() {
    let blocks = sh_blocks("docs/ladder.md", "## A class ladder, from zero");
    assert_eq!(blocks.len(), 5, "{blocks:#?}");
    let dir = checkout(
        "ladder-walkthrough",
        &["class-ladder.toml", "class-students.csv"],
    );

    // 1. The server.
    let serve = blocks[0].trim();
    assert_eq!(
        serve,
        "./target/release/referee ladder serve examples/class-ladder.toml"
    );
    let server = Served::start(serve, &dir);

    // 2. The accounts, in the teacher's terminal (whose exports hold for what follows).
    let teacher = blocks[1].replace("http://127.0.0.1:8640", &server.url);
    let exports: String = teacher
        .lines()
        .filter(|l| l.starts_with("export "))
        .map(|l| format!("{l}\n"))
        .collect();
    run_script("", &teacher, &dir);
    let handouts = std::fs::read_to_string(dir.join("handouts.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(handouts.as_bytes());
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    let names: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(names, ["ada", "alan"], "{handouts}");
    assert_eq!((&rows[0][1], &rows[0][2]), ("A", "ada@example.org"));
    let ada = rows[0][3].to_owned();
    assert!(ada.starts_with("rl_"), "{handouts}");

    // 3. A student submits with the token handed out.
    let student = blocks[2].replace("ADA_TOKEN", &ada);
    let text = run_script(
        &format!("export REFEREE_LADDER_SERVER={}\n", server.url),
        &student,
        &dir,
    );
    assert!(text.contains("ada-bot.v1: ready"), "{text}");
    // Group A's standings: ada's version, not the built-ins (whose owners have no group).
    let board = text.split_once("rank").map(|(_, b)| b).unwrap_or_default();
    assert!(board.contains("ada-bot.v1"), "{text}");
    assert!(
        !board.contains("teacher.v1") && !board.contains("baseline.v1"),
        "{text}"
    );

    // 4. The deadline, the freeze, the final.
    let text = run_script(&exports, &blocks[3], &dir);
    assert!(
        text.contains("submissions close at 2026-12-18 18:00 UTC"),
        "{text}"
    );
    assert!(
        text.contains("final 1 started: 3 matches among 3 versions"),
        "{text}"
    );
    let status = blocks[3].lines().last().unwrap().to_owned();
    assert!(status.ends_with("final-status"), "{status}");
    let started = Instant::now();
    loop {
        let text = run_script(&exports, &status, &dir);
        if text.contains("3 of 3 matches played (done)") {
            assert_eq!(
                text.lines().filter(|l| l.contains(". ")).count(),
                3,
                "{text}"
            );
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(600), "{text}");
        std::thread::sleep(Duration::from_millis(500));
    }

    // 5. The grades.
    let text = run_script(&exports, &blocks[4], &dir);
    assert!(
        text.contains("final exported to final (3 of 3 matches)"),
        "{text}"
    );
    assert!(dir.join("final/report/index.html").is_file());
    let sheet = std::fs::read_to_string(dir.join("final/report/grades.csv")).unwrap();
    let graded = text
        .lines()
        .skip_while(|l| !l.starts_with("rank,"))
        .collect::<Vec<_>>();
    assert_eq!(graded.len(), 4, "{text}");
    assert_eq!(graded.join("\n") + "\n", sheet);
    assert!(sheet.contains("ada-bot.v1"), "{sheet}");
    assert!(
        sheet.contains("teacher.v1") && sheet.contains("baseline.v1"),
        "{sheet}"
    );

    server.stop();
}
