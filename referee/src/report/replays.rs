//! The replay pages of a report: for each match whose log the tournament kept (`--logs`), the
//! log checked by [`crate::replay::read_match`] and drawn by the replay viewer
//! ([`crate::html::replay_page`]) into `OUT/replays/ID.html`: each page its markup and its log
//! compressed, the viewer's code and style written once beside them (`replays/viewer.js`,
//! `replays/viewer.css`), so that a report of hundreds of matches stays small.

use super::data::{ReportError, TournamentReport};
use super::one_bot::own_records;
use crate::html::replay_page::{
    VIEWER_SCRIPT_FILE, VIEWER_STYLE_FILE, linked_replay_page, viewer_script, viewer_style,
};
use crate::safe_fs::SafeDir;
use crate::tournament::results::LOGS_DIR;
use serde::Serialize;
use std::collections::BTreeSet;

/// Which matches get a replay page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReplayChoice {
    /// Every match whose log was kept.
    #[default]
    All,
    /// Those where a bot faulted.
    Faults,
    /// None.
    None,
}

/// The replay pages of a report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Replays {
    /// The matches that have one, `replays/ID.html`.
    pub pages: Vec<u64>,
    /// Why some kept logs have no page, when some have none.
    pub note: Option<String>,
    /// The pages' size in bytes, all together, with the viewer's files they share.
    pub bytes: u64,
}

/// How many logs without a page a note names.
const NAMED: usize = 3;

/// Writes the replay page of each match of `report` that `choice` takes and whose log is in
/// `dir/logs/`, into `out/replays/`.
///
/// # Errors
/// [`ReportError::Write`] when a page cannot be written. A log that does not hold, or cannot
/// be read (a link, a FIFO, a line over its bound), gets no page and is named in the note.
pub fn write_replays(
    report: &TournamentReport,
    dir: &SafeDir,
    out: &SafeDir,
    choice: ReplayChoice,
) -> Result<Replays, ReportError> {
    let matches = report.bots.iter().flat_map(|b| &b.matches);
    let logged: BTreeSet<u64> = matches.clone().filter(|m| m.log).map(|m| m.id).collect();
    let faulty: BTreeSet<u64> = matches.filter(|m| m.faults > 0).map(|m| m.id).collect();
    let wanted: Vec<u64> = logged
        .iter()
        .copied()
        .filter(|id| match choice {
            ReplayChoice::All => true,
            ReplayChoice::Faults => faulty.contains(id),
            ReplayChoice::None => false,
        })
        .collect();
    let mut replays = Replays::default();
    let mut failures = Vec::new();
    if !wanted.is_empty() {
        let replay_dir = out.make_subdir("replays").map_err(ReportError::Write)?;
        let script = viewer_script();
        for (name, text) in [
            (VIEWER_SCRIPT_FILE, script.as_str()),
            (VIEWER_STYLE_FILE, viewer_style()),
        ] {
            replay_dir
                .replace_file(name, text.as_bytes(), false)
                .map_err(ReportError::Write)?;
            replays.bytes += text.len() as u64;
        }
        let logs = dir.subdir(LOGS_DIR).map_err(|e| e.to_string());
        for id in wanted.iter().copied() {
            let name = format!("{id}.jsonl");
            let checked = match &logs {
                Ok(Some(logs)) => {
                    crate::replay::read_match_in(logs, &name).map_err(|e| e.to_string())
                }
                Ok(None) => Err(format!("{LOGS_DIR}/ is gone")),
                Err(why) => Err(why.clone()),
            };
            let page = checked.and_then(|checked| {
                let records = match &report.for_bot {
                    Some(bot) => own_records(checked.records, bot),
                    None => checked.records,
                };
                linked_replay_page(&records).map_err(|e| e.to_string())
            });
            match page {
                Ok(html) => {
                    replay_dir
                        .replace_file(&format!("{id}.html"), html.as_bytes(), false)
                        .map_err(ReportError::Write)?;
                    replays.pages.push(id);
                    replays.bytes += html.len() as u64;
                }
                Err(why) => failures.push(format!("match {id}: {why}")),
            }
        }
    }
    let left_out = logged.len() - wanted.len();
    let mut notes = Vec::new();
    if !failures.is_empty() {
        let more = failures.len().saturating_sub(NAMED);
        let mut named = failures[..failures.len().min(NAMED)].join("; ");
        if more > 0 {
            named += &format!("; and {more} more");
        }
        let logs = match failures.len() {
            1 => "1 log gives".to_string(),
            n => format!("{n} logs give"),
        };
        notes.push(format!("{logs} no replay page ({named})"));
    }
    if left_out > 0 {
        notes.push(format!(
            "{left_out} kept logs have no replay page, as asked (--replays {})",
            match choice {
                ReplayChoice::Faults => "faults",
                _ => "none",
            }
        ));
    }
    replays.note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(replays)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_tournaments::{FIELD, played};
    use crate::tournament::ScheduleKind;
    use engine::GameKind;

    #[test]
    fn a_page_per_kept_log_as_chosen_and_none_for_a_log_that_does_not_hold() {
        let tmp = played(GameKind::Vabanque, &FIELD, ScheduleKind::RoundRobin, true);
        let dir = tmp.path().to_path_buf();
        // Match 0's log loses its result: it no longer holds.
        let log = dir.join("logs").join("0.jsonl");
        let text = std::fs::read_to_string(&log).unwrap();
        let kept: Vec<&str> = text
            .lines()
            .filter(|l| !l.contains("\"type\":\"result\""))
            .collect();
        std::fs::write(&log, kept.join("\n") + "\n").unwrap();
        let report = crate::report::build(&dir).unwrap();
        let out = dir.join("report");
        let results = SafeDir::open(&dir).unwrap();
        let into = |out: &std::path::Path| {
            SafeDir::create(out, crate::safe_fs::Privacy::Published).unwrap()
        };
        let all = write_replays(&report, &results, &into(&out), ReplayChoice::All).unwrap();
        assert_eq!(all.pages, (1..24).collect::<Vec<u64>>());
        let note = all.note.unwrap();
        assert!(
            note.starts_with("1 log gives no replay page (match 0: "),
            "{note}"
        );
        assert!(out.join("replays").join("1.html").is_file());
        for shared in [VIEWER_SCRIPT_FILE, VIEWER_STYLE_FILE] {
            assert!(out.join("replays").join(shared).is_file());
        }
        assert!(!out.join("replays").join("0.html").exists());
        let none = write_replays(
            &report,
            &results,
            &into(&dir.join("none")),
            ReplayChoice::None,
        )
        .unwrap();
        assert!(none.pages.is_empty());
        assert_eq!(
            none.note.as_deref(),
            Some("24 kept logs have no replay page, as asked (--replays none)")
        );
        // Built-in bots never fault: no match is taken by `faults`.
        let faults = write_replays(
            &report,
            &results,
            &into(&dir.join("f")),
            ReplayChoice::Faults,
        )
        .unwrap();
        assert!(faults.pages.is_empty());
    }
}
