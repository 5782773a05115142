//! `referee rerun`'s words for where a match played again first parts from its recorded log
//! ([`referee::tournament::rerun_diff`]): the seat, the bot, its turn, the phase and the log's
//! decision number, then what was recorded and what came now.

use super::output::grouped;
use super::rerun_cmd::by_seat;
use referee::tournament::rerun_diff::{FirstDifference, LogComparison, Moment};

/// What the comparison with the recorded log says: the first difference, named; where the
/// result differs without a log to compare, how to get one.
pub(super) fn log_lines(log: &LogComparison, same_result: bool) -> String {
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
        LogComparison::Differs(first) => first_difference(first, same_result),
    }
}

/// `first difference: decision 17 (seat 2, diarist, its 5th turn, phase chip)`, then what was
/// recorded and what came now.
fn first_difference(first: &FirstDifference, same_result: bool) -> String {
    let mut at = Vec::new();
    if let Some(seat) = first.seat {
        at.push(format!("seat {seat}"));
    }
    if let Some(bot) = &first.bot {
        at.push(referee::untrusted::shown(bot).to_string());
    }
    if let Some(turn) = first.turn {
        at.push(format!("its {} turn", ordinal(turn)));
    }
    if let Some(phase) = &first.phase {
        at.push(format!("phase {}", referee::untrusted::shown(phase)));
    }
    let place = match first.decision {
        Some(n) => format!("decision {n} of the log"),
        None => "the match's start or end".into(),
    };
    let heading = if same_result {
        "the same result, but not the recorded match: its log first differs at"
    } else {
        "first difference from the recorded log (timings and stderr aside): at"
    };
    let at = if at.is_empty() {
        String::new()
    } else {
        format!(" ({})", at.join(", "))
    };
    format!(
        "{heading} {place}{at}\n  recorded: {}\n  now:      {}\n",
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

/// 1st, 2nd, 3rd, 4th, 11th, 21st.
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
