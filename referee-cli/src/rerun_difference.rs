//! `referee rerun`'s words for where a match played again first parts from its recorded log
//! ([`referee::tournament::rerun_diff`]): the seat, the bot, its turn, the phase and the log's
//! decision number, then what was recorded and what came now.

use super::output::grouped;
use super::rerun_cmd::by_seat;
use referee::tournament::rerun_diff::{FirstDifference, LogComparison, Moment};

/// What the comparison with the recorded log says: the first difference, named; where the
/// result differs without a log to compare, how to get one.
pub(crate) fn log_lines(log: &LogComparison, match_id: u64, same_result: bool) -> String {
    match log {
        LogComparison::Same | LogComparison::NotKept if same_result => String::new(),
        LogComparison::Same => {
            "the recorded log's decisions and faults are all the same (timings and stderr aside)\n"
                .into()
        }
        LogComparison::NotKept => "(the match's log was not kept: a tournament run with --logs keeps it, and rerun then names the first decision that differs)\n".into(),
        LogComparison::Unreadable { why } => format!(
            "note: the recorded log cannot be compared: {}\n",
            referee::untrusted::shown(why)
        ),
        LogComparison::Differs(first) => first_difference(first, match_id, same_result),
    }
}

/// `first difference from the recorded log (timings and stderr aside): match 3, seat 2
/// (diarist), its 5th turn (phase chip; log decision 17)` — the moment in its one wording
/// ([`referee::runner::Moment`]) — then what was recorded and what came now.
fn first_difference(first: &FirstDifference, match_id: u64, same_result: bool) -> String {
    let shown = referee::untrusted::shown;
    let seat = match (first.seat, &first.bot) {
        (Some(seat), Some(bot)) => format!("seat {seat} ({}), ", shown(bot)),
        (Some(seat), None) => format!("seat {seat}, "),
        _ => String::new(),
    };
    let when = referee::runner::Moment::in_the_match(first.when());
    let heading = if same_result {
        "the same result, but not the recorded match: its log first differs at"
    } else {
        "first difference from the recorded log (timings and stderr aside):"
    };
    format!(
        "{heading} match {match_id}, {seat}{}\n  recorded: {}\n  now:      {}\n",
        shown(&when.to_string()),
        moment(&first.recorded),
        moment(&first.now)
    )
}

/// What a log holds at a moment, in words.
fn moment(m: &Moment) -> String {
    let shown = referee::untrusted::shown;
    match m {
        Moment::Action {
            action,
            substituted: false,
        } => format!("played {}", shown(&action.to_string())),
        Moment::Action { action, .. } => {
            format!("the referee played {} for it", shown(&action.to_string()))
        }
        Moment::Fault { fault, message } => format!("{fault} fault: {}", shown(message)),
        Moment::End {
            void: Some(message),
            ..
        } => format!("the match ended void: {}", shown(message)),
        Moment::End { scores, ranks, .. } => format!(
            "the match ended: scores {}, ranks {}",
            by_seat(scores.as_deref().unwrap_or_default(), |s| grouped(*s)),
            by_seat(ranks.as_deref().unwrap_or_default(), u32::to_string)
        ),
        Moment::Nothing => "nothing: the log ends here".into(),
    }
}
