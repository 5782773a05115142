//! One way to name a moment of a match, the same wherever the referee names one (`referee
//! match`, `referee check`, the report, `referee leaderboard --bot`, the narrative, the end of a
//! tournament; the replay viewer says the same words in `assets/viewer/player.js`): the match,
//! the bot's own turn as its author counts ("its 5th turn"), the phase of the request, and the
//! log's decision number for tools — "match 21, its 5th turn (phase turn; log decision 14)"
//! ([docs/match-log.md](../../../docs/match-log.md#decision-numbers)).

use serde::Serialize;
use std::fmt;

/// When, in a match, a bot did something.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum When {
    /// Before its first turn: at start-up (the bot did not start, or was no longer running).
    Start,
    /// At one of its turns.
    Turn {
        /// The bot's own turn in the match, from 1 ("its 5th turn"); `None` in results written
        /// before the referee recorded it.
        turn: Option<u64>,
        /// The phase of the request (e.g. `"turn"`); `None` in results written before the
        /// referee recorded it.
        phase: Option<String>,
        /// The log's decision number: the match's decisions across all seats, from 0.
        decision: u64,
    },
    /// After the match's last decision (the bot could not take the match's end).
    End,
    /// At start-up or the end: results written before the referee recorded which.
    Outside,
}

/// A moment of a match, named: [`When`], in which match, and the `id` of the request the bot
/// was sent when that helps (`referee check`). Its [`Display`](fmt::Display) is the one wording.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Moment {
    /// The match (`None` where only one is in question, as in `referee match`).
    pub match_id: Option<String>,
    /// When in it.
    pub when: When,
    /// The request's `id` on the wire, when it is named too.
    pub request: Option<u64>,
}

impl Moment {
    /// The moment `when` of match `match_id`.
    pub fn new(match_id: impl fmt::Display, when: When) -> Self {
        Moment {
            match_id: Some(match_id.to_string()),
            when,
            request: None,
        }
    }

    /// The moment `when`, in the one match in question.
    pub fn in_the_match(when: When) -> Self {
        Moment {
            match_id: None,
            when,
            request: None,
        }
    }

    /// The same moment, naming the request's `id` too.
    pub fn with_request(mut self, id: u64) -> Self {
        self.request = Some(id);
        self
    }
}

/// `n` with its English ordinal suffix: 1st, 2nd, 3rd, 4th, 11th, 21st.
pub fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, None)
    }
}

impl When {
    /// The words, with the request's id among the tool's numbers when given.
    fn write(&self, f: &mut fmt::Formatter<'_>, request: Option<u64>) -> fmt::Result {
        let request = request.map(|id| format!("; request id {id}"));
        let request = request.as_deref().unwrap_or_default();
        match self {
            When::Start => write!(f, "at start-up, before its first turn{request}"),
            When::End => write!(f, "at the end of the match, after the last turn{request}"),
            When::Outside => write!(f, "outside its turns, at start-up or the end{request}"),
            When::Turn {
                turn: Some(turn),
                phase,
                decision,
            } => {
                let phase = phase
                    .as_deref()
                    .map(|p| format!("phase {p}; "))
                    .unwrap_or_default();
                write!(
                    f,
                    "its {} turn ({phase}log decision {decision}{request})",
                    ordinal(*turn)
                )
            }
            When::Turn {
                turn: None,
                phase,
                decision,
            } => {
                let phase = phase
                    .as_deref()
                    .map(|p| format!(", phase {p}"))
                    .unwrap_or_default();
                write!(f, "log decision {decision}{phase}{request}")
            }
        }
    }
}

impl fmt::Display for Moment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = &self.match_id {
            write!(f, "match {id}, ")?;
        }
        self.when.write(f, self.request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(turn: Option<u64>, decision: u64) -> When {
        When::Turn {
            turn,
            phase: Some("turn".into()),
            decision,
        }
    }

    #[test]
    fn a_moment_names_the_match_the_bots_turn_the_phase_and_the_log_decision() {
        assert_eq!(
            Moment::new(21, turn(Some(5), 14)).to_string(),
            "match 21, its 5th turn (phase turn; log decision 14)"
        );
        assert_eq!(
            Moment::new("check-1", turn(Some(2), 3))
                .with_request(4)
                .to_string(),
            "match check-1, its 2nd turn (phase turn; log decision 3; request id 4)"
        );
        assert_eq!(
            Moment::in_the_match(turn(Some(1), 0)).to_string(),
            "its 1st turn (phase turn; log decision 0)"
        );
        assert_eq!(
            Moment::new(3, When::Start).to_string(),
            "match 3, at start-up, before its first turn"
        );
        assert_eq!(
            Moment::new(3, When::End).to_string(),
            "match 3, at the end of the match, after the last turn"
        );
    }

    #[test]
    fn results_without_the_turn_name_the_log_decision_only() {
        let old = When::Turn {
            turn: None,
            phase: None,
            decision: 14,
        };
        assert_eq!(
            Moment::new(21, old).to_string(),
            "match 21, log decision 14"
        );
    }

    #[test]
    fn a_fault_of_results_written_before_the_turn_was_recorded_still_reads() {
        use crate::runner::FaultRecord;
        let old: FaultRecord = serde_json::from_str(
            r#"{"seat":1,"decision":14,"fault":"timeout","message":"no reply"}"#,
        )
        .unwrap();
        assert_eq!(old.moment(21).to_string(), "match 21, log decision 14");
        let outside: FaultRecord =
            serde_json::from_str(r#"{"seat":1,"decision":null,"fault":"exited","message":"x"}"#)
                .unwrap();
        assert_eq!(
            outside.moment(21).to_string(),
            "match 21, outside its turns, at start-up or the end"
        );
    }

    #[test]
    fn ordinals_take_their_english_suffixes() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "112th"
            ]
        );
    }
}
