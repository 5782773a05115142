//! A student's report (`referee report DIR --html OUT --bot NAME`): the tournament's report
//! with one bot's part only. The leaderboard, the head-to-head matrix and the ratings stay
//! (every bot by name and numbers, as the class sees them); of the bots' parts only the named
//! bot's is kept (its matches, faults with their messages, and stderr), the other bots'
//! commands are taken out of the tournament's description, and so the replay pages are those
//! of its matches ([`super::replays`]), each log with the other seats' stderr, fault messages
//! and commands taken out ([`own_records`]).
//!
//! The replays still show each finished match whole, as the teacher's do (the whole truth and
//! every seat's view, once the match is over): the viewer needs the deal to draw the board.

use super::data::TournamentReport;
use crate::runner::LogRecord;

/// The tournament has no bot of the name asked for.
#[derive(Debug, thiserror::Error)]
#[error("no bot named {bot:?} in this tournament; its bots: {known}")]
pub struct UnknownBot {
    /// The name asked for.
    pub bot: String,
    /// The tournament's bots, comma-separated.
    pub known: String,
}

/// `report` cut down to the part of the bot `bot` (see the module's documentation); the
/// report says whose it is ([`TournamentReport::for_bot`]).
///
/// # Errors
/// [`UnknownBot`] when the tournament has no bot `bot`.
pub fn for_bot(mut report: TournamentReport, bot: &str) -> Result<TournamentReport, UnknownBot> {
    if !report.bots.iter().any(|b| b.bot == bot) {
        let known: Vec<&str> = report.meta.bots.iter().map(|b| b.name.as_str()).collect();
        return Err(UnknownBot {
            bot: bot.to_string(),
            known: known.join(", "),
        });
    }
    report.bots.retain(|b| b.bot == bot);
    for other in report.meta.bots.iter_mut().filter(|b| b.name != bot) {
        other.command.clear();
    }
    report.for_bot = Some(bot.to_string());
    Ok(report)
}

/// A match log's `records` as the bot `bot` may see them in its own report: the other seats'
/// stderr and faults taken out, and their commands and the names their programs gave
/// (`hello`) cleared in the header. Records of a log where `bot` has no seat are all kept but
/// those: the caller gives only the logs of `bot`'s matches.
pub fn own_records(records: Vec<LogRecord>, bot: &str) -> Vec<LogRecord> {
    let seat = match records.first() {
        Some(LogRecord::Header { players, .. }) => players.iter().position(|p| p.name == bot),
        _ => None,
    };
    records
        .into_iter()
        .filter(|record| match record {
            LogRecord::Stderr { seat: s, .. } | LogRecord::Fault { seat: s, .. } => {
                Some(*s) == seat
            }
            _ => true,
        })
        .map(|mut record| {
            if let LogRecord::Header { players, .. } = &mut record {
                for (s, player) in players.iter_mut().enumerate() {
                    if Some(s) != seat {
                        player.bot.clear();
                        player.hello_name = None;
                    }
                }
            }
            record
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_tournaments::{FIELD, played};
    use crate::tournament::ScheduleKind;
    use engine::GameKind;

    #[test]
    fn one_bots_report_keeps_its_part_and_names_the_others_only() {
        let tmp = played(GameKind::Vabanque, &FIELD, ScheduleKind::RoundRobin, true);
        let whole = crate::report::build(tmp.path()).unwrap();
        let mine = for_bot(whole.clone(), "r2").unwrap();
        assert_eq!(mine.for_bot.as_deref(), Some("r2"));
        assert_eq!(mine.bots.len(), 1);
        assert_eq!(
            mine.bots[0],
            *whole.bots.iter().find(|b| b.bot == "r2").unwrap()
        );
        assert_eq!(mine.board, whole.board, "the leaderboard stays whole");
        for bot in &mine.meta.bots {
            assert_eq!(bot.command.is_empty(), bot.name != "r2", "{}", bot.name);
        }
        let err = for_bot(whole, "nobody").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no bot named \"nobody\" in this tournament; its bots: h, r1, r2, r3"
        );
    }

    #[test]
    fn a_logs_other_seats_lose_their_stderr_faults_and_commands() {
        let tmp = played(GameKind::Vabanque, &FIELD, ScheduleKind::RoundRobin, true);
        let logs = crate::safe_fs::SafeDir::open(&tmp.path().join("logs")).unwrap();
        let mut records = crate::replay::read_match_in(&logs, "0.jsonl")
            .unwrap()
            .records;
        let LogRecord::Header { players, .. } = &records[0] else {
            panic!("a header first");
        };
        let (mine, other) = (players[0].name.clone(), 1);
        // A built-in bot writes no stderr and makes no fault: add some of each seat's.
        for seat in 0..2 {
            records.insert(
                2,
                LogRecord::Stderr {
                    n: 0,
                    seat,
                    text: format!("stderr of seat {seat}"),
                    cut: 0,
                },
            );
            records.insert(
                2,
                LogRecord::Fault {
                    n: Some(0),
                    seat,
                    fault: protocol::FaultKind::Timeout,
                    message: format!("fault of seat {seat}"),
                },
            );
        }
        let own = own_records(records, &mine);
        let text = serde_json::to_string(&own).unwrap();
        assert!(text.contains("stderr of seat 0") && text.contains("fault of seat 0"));
        assert!(!text.contains("stderr of seat 1") && !text.contains("fault of seat 1"));
        let LogRecord::Header { players, .. } = &own[0] else {
            panic!("a header first");
        };
        assert!(
            players[0].bot.starts_with("builtin:"),
            "its own command kept"
        );
        assert!(players[other].bot.is_empty());
    }
}
