//! The grade sheet (`referee leaderboard DIR --format csv --grades`, and `grades.csv` in a
//! report's directory): one row per bot, as a teacher enters it in a spreadsheet — its rank,
//! its rating (μ, σ, μ − 3σ, and the interval μ ± 3σ), matches, wins, its faults by kind (a
//! column per [`FaultKind`]), forfeits, and the verdict of `referee check` where one is kept
//! in the results directory. Computed once here; both commands write these rows.
//!
//! `referee check` verdicts are read from `DIR/checks/NAME.json`, the JSON that
//! `referee check --format json` prints (`referee tournament --check` keeps them:
//! [`super::bot_checks`]; a teacher may save one by hand: `docs/tournament.md` §8, the grade
//! sheet); the file is untrusted input, read bounded and
//! without following a link, and only its `passed` and `summary` are taken. Without one, the
//! columns are empty.

use crate::safe_fs::SafeDir;
use crate::tournament::standings::{Leaderboard, Standing};
use crate::untrusted;
use protocol::FaultKind;
use std::collections::BTreeMap;

pub use crate::tournament::files::{CHECK_FILE_LIMIT, CHECKS_DIR};

/// Every fault kind, in the order of the sheet's columns.
pub const FAULT_KINDS: [FaultKind; 12] = [
    FaultKind::SpawnFailed,
    FaultKind::StartupTimeout,
    FaultKind::ProtocolMismatch,
    FaultKind::Timeout,
    FaultKind::Exited,
    FaultKind::Malformed,
    FaultKind::LineTooLong,
    FaultKind::WrongShape,
    FaultKind::StaleId,
    FaultKind::IllegalAction,
    FaultKind::WriteFailed,
    FaultKind::ResourceLimit,
];

/// The column of `kind` in [`FAULT_KINDS`]: a kind added to [`FaultKind`] does not compile
/// here until it has its column.
fn column_of(kind: FaultKind) -> usize {
    match kind {
        FaultKind::SpawnFailed => 0,
        FaultKind::StartupTimeout => 1,
        FaultKind::ProtocolMismatch => 2,
        FaultKind::Timeout => 3,
        FaultKind::Exited => 4,
        FaultKind::Malformed => 5,
        FaultKind::LineTooLong => 6,
        FaultKind::WrongShape => 7,
        FaultKind::StaleId => 8,
        FaultKind::IllegalAction => 9,
        FaultKind::WriteFailed => 10,
        FaultKind::ResourceLimit => 11,
    }
}

/// What `referee check` said of a bot, as kept in [`CHECKS_DIR`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckVerdict {
    /// Every required item passed (`passed: true`), with the check's summary line.
    Pass(String),
    /// A required item failed, with the check's summary line.
    Fail(String),
    /// The file is there but cannot be read as a check's JSON, and why.
    Unreadable(String),
}

/// The verdict kept for each bot of `board` in `dir`'s [`CHECKS_DIR`], by bot; a bot without a
/// file has none.
pub fn read_checks(dir: &SafeDir, board: &Leaderboard) -> BTreeMap<String, CheckVerdict> {
    let checks = match dir.subdir(CHECKS_DIR) {
        Ok(Some(checks)) => checks,
        Ok(None) => return BTreeMap::new(),
        Err(e) => {
            let why = CheckVerdict::Unreadable(e.to_string());
            return board
                .standings
                .iter()
                .map(|s| (s.bot.clone(), why.clone()))
                .collect();
        }
    };
    board
        .standings
        .iter()
        .filter_map(|s| {
            let verdict = match checks.read(&format!("{}.json", s.bot), CHECK_FILE_LIMIT) {
                Ok(None) => return None,
                Ok(Some(bytes)) => verdict_of(&bytes),
                Err(e) => CheckVerdict::Unreadable(e.to_string()),
            };
            Some((s.bot.clone(), verdict))
        })
        .collect()
}

/// The verdict in the JSON of `referee check --format json`.
fn verdict_of(bytes: &[u8]) -> CheckVerdict {
    let value: serde_json::Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(e) => return CheckVerdict::Unreadable(format!("not JSON: {e}")),
    };
    let summary = value["summary"].as_str().unwrap_or_default().to_string();
    match value["passed"].as_bool() {
        Some(true) => CheckVerdict::Pass(summary),
        Some(false) => CheckVerdict::Fail(summary),
        None => CheckVerdict::Unreadable("no \"passed\" in it: not referee check's JSON".into()),
    }
}

/// The grade sheet's rows (a header, then a row per bot of `board` in its order, or only the
/// bot `only`), every text cell escaped for CSV ([`untrusted::csv::text`]); write them with
/// [`untrusted::csv::table`].
pub fn grade_rows(
    board: &Leaderboard,
    checks: &BTreeMap<String, CheckVerdict>,
    only: Option<&str>,
) -> Vec<Vec<String>> {
    let mut header: Vec<String> = [
        "rank",
        "bot",
        "mu",
        "sigma",
        "conservative",
        "interval_low",
        "interval_high",
        "matches",
        "wins",
        "faults",
    ]
    .map(String::from)
    .to_vec();
    header.extend(FAULT_KINDS.iter().map(|k| k.as_str().to_string()));
    header.extend(["forfeits", "check", "check_summary"].map(String::from));
    let mut rows = vec![header];
    for s in &board.standings {
        if only.is_some_and(|bot| bot != s.bot) {
            continue;
        }
        rows.push(row(s, checks.get(&s.bot)));
    }
    rows
}

/// One bot's row.
fn row(s: &Standing, check: Option<&CheckVerdict>) -> Vec<String> {
    let mut cells = vec![
        s.rank.to_string(),
        untrusted::csv::text(&s.bot),
        s.mu.to_string(),
        s.sigma.to_string(),
        s.conservative.to_string(),
        (s.mu - 3.0 * s.sigma).to_string(),
        (s.mu + 3.0 * s.sigma).to_string(),
        s.matches.to_string(),
        s.wins.to_string(),
        s.fault_total().to_string(),
    ];
    let mut by_kind = [0u64; FAULT_KINDS.len()];
    for (kind, n) in &s.faults {
        by_kind[column_of(*kind)] += n;
    }
    cells.extend(by_kind.iter().map(u64::to_string));
    cells.push(s.forfeits.to_string());
    let (verdict, summary) = match check {
        None => ("", String::new()),
        Some(CheckVerdict::Pass(summary)) => ("pass", summary.clone()),
        Some(CheckVerdict::Fail(summary)) => ("fail", summary.clone()),
        Some(CheckVerdict::Unreadable(why)) => ("unreadable", why.clone()),
    };
    cells.push(verdict.to_string());
    cells.push(untrusted::csv::text(&summary));
    cells
}

/// The grade sheet of `board` as CSV, with the verdicts kept in `dir` ([`read_checks`]); only
/// the bot `only`'s row when given.
pub fn grade_sheet(dir: &SafeDir, board: &Leaderboard, only: Option<&str>) -> String {
    untrusted::csv::table(grade_rows(board, &read_checks(dir, board), only))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_tournaments::{FIELD, played};
    use crate::tournament::ScheduleKind;
    use crate::tournament::results::{ReadBack, read_back};
    use engine::GameKind;

    #[test]
    fn each_kind_has_its_own_column() {
        for (i, kind) in FAULT_KINDS.iter().enumerate() {
            assert_eq!(column_of(*kind), i, "{kind:?}");
        }
    }

    #[test]
    fn a_row_per_bot_with_faults_by_kind_and_the_kept_verdicts() {
        let tmp = played(GameKind::Vabanque, &FIELD, ScheduleKind::RoundRobin, false);
        let ReadBack { dir, meta, results } = read_back(tmp.path()).unwrap();
        let mut board = crate::tournament::leaderboard(&meta, &results).unwrap();
        board.standings[0].faults.insert(FaultKind::Timeout, 3);
        board.standings[0].faults.insert(FaultKind::Exited, 1);
        board.standings[0].forfeits = 1;
        board.standings[1].bot = "=HYPERLINK(\"x\")".into();
        let checks = tmp.path().join(CHECKS_DIR);
        std::fs::create_dir(&checks).unwrap();
        let first = board.standings[0].bot.clone();
        std::fs::write(
            checks.join(format!("{first}.json")),
            r#"{"passed": true, "summary": "PASS: all 11 required items passed"}"#,
        )
        .unwrap();
        let third = board.standings[2].bot.clone();
        std::fs::write(checks.join(format!("{third}.json")), "-1+1, not JSON").unwrap();
        let fourth = board.standings[3].bot.clone();
        std::os::unix::fs::symlink("/etc/passwd", checks.join(format!("{fourth}.json"))).unwrap();
        let csv = grade_sheet(&dir, &board, None);
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let header = reader.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 4);
        let cell = |row: &csv::StringRecord, name: &str| {
            row[header.iter().position(|h| h == name).unwrap()].to_string()
        };
        assert_eq!(cell(&rows[0], "rank"), "1");
        assert_eq!(cell(&rows[0], "timeout"), "3");
        assert_eq!(cell(&rows[0], "exited"), "1");
        assert_eq!(cell(&rows[0], "faults"), "4");
        assert_eq!(cell(&rows[0], "forfeits"), "1");
        assert_eq!(cell(&rows[0], "check"), "pass");
        assert_eq!(
            cell(&rows[0], "check_summary"),
            "PASS: all 11 required items passed"
        );
        let s = &board.standings[0];
        assert_eq!(
            cell(&rows[0], "interval_high"),
            (s.mu + 3.0 * s.sigma).to_string()
        );
        assert_eq!(cell(&rows[1], "bot"), "'=HYPERLINK(\"x\")");
        assert_eq!(cell(&rows[1], "check"), "");
        assert_eq!(cell(&rows[2], "check"), "unreadable");
        assert!(cell(&rows[2], "check_summary").starts_with("not JSON"));
        assert_eq!(
            cell(&rows[3], "check"),
            "unreadable",
            "a link is not followed"
        );
        assert_eq!(header.len(), 13 + FAULT_KINDS.len());
        let one = grade_sheet(&dir, &board, Some(&third));
        assert_eq!(one.lines().count(), 2);
    }
}
