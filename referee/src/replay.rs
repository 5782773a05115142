//! Re-checking a match log: every action is re-applied through the engine, and the recorded
//! result and final state must be the ones the rules give.

use crate::runner::{FaultAt, LOG_VERSION, LogRecord, SeatLedger, forfeit_ranks};
use crate::seat::reply::excerpt;
use engine::{Game, GameKind, Illegal};
use protocol::FaultKind;
use std::io::BufRead;
use std::path::Path;

/// What a confirmed log holds.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplaySummary {
    /// The game.
    pub game: String,
    /// Player names by seat.
    pub players: Vec<String>,
    /// Decisions re-applied.
    pub decisions: u64,
    /// Of those, substituted by the referee.
    pub substituted: u64,
    /// Faults recorded.
    pub faults: u64,
    /// Final scores by seat.
    pub scores: Vec<i64>,
    /// Final ranks by seat.
    pub ranks: Vec<u32>,
    /// Why the match is void, when the game itself failed ([`LogRecord::InternalError`]): its
    /// scores are then all 0 and every seat is ranked 1.
    pub internal_error: Option<String>,
}

/// Why a log does not hold.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A line that does not hold, with its 1-based number.
    #[error("line {line}: {message}")]
    Mismatch {
        /// 1-based line number.
        line: usize,
        /// What does not hold.
        message: String,
    },
}

fn mismatch(line: usize, message: impl Into<String>) -> ReplayError {
    ReplayError::Mismatch {
        line,
        message: message.into(),
    }
}

/// Re-checks the match log at `path`.
///
/// # Errors
/// [`ReplayError::Mismatch`] naming the first line that does not hold, or [`ReplayError::Io`].
pub fn replay_file(path: &Path) -> Result<ReplaySummary, ReplayError> {
    let io = |source| ReplayError::Io {
        path: path.display().to_string(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut lines = Vec::new();
    for (i, line) in std::io::BufReader::new(file).split(b'\n').enumerate() {
        let text =
            String::from_utf8(line.map_err(io)?).map_err(|_| mismatch(i + 1, "not UTF-8 text"))?;
        lines.push(text);
    }
    replay_lines(&lines)
}

/// Re-checks a match log given as lines.
///
/// # Errors
/// [`ReplayError::Mismatch`] naming the first line that does not hold.
pub fn replay_lines(lines: &[String]) -> Result<ReplaySummary, ReplayError> {
    let first = lines
        .first()
        .ok_or_else(|| mismatch(1, "the log is empty"))?;
    let header: LogRecord = serde_json::from_str(first)
        .map_err(|e| mismatch(1, format!("not a match log header ({e})")))?;
    let LogRecord::Header {
        game, log_version, ..
    } = &header
    else {
        return Err(mismatch(1, "the first line must be the header"));
    };
    if *log_version != LOG_VERSION {
        return Err(mismatch(
            1,
            format!("log version {log_version}; this referee reads version {LOG_VERSION}"),
        ));
    }
    let kind = GameKind::from_name(game).map_err(|e| mismatch(1, e.to_string()))?;
    engine::with_game!(kind, G => replay_game::<G>(&header, &lines[1..]))
}

/// Re-checks a log of the game `G` given as lines, `G` taken as it is, not from the header's
/// name (the tests' own games are in no registry).
#[cfg(test)]
pub(crate) fn replay_lines_as<G: Game>(lines: &[String]) -> Result<ReplaySummary, ReplayError> {
    let header: LogRecord = serde_json::from_str(&lines[0]).expect("a header");
    replay_game::<G>(&header, &lines[1..])
}

fn replay_game<G: Game>(
    header: &LogRecord,
    lines: &[String],
) -> Result<ReplaySummary, ReplayError> {
    let mut replay = Replay::<G>::new(header)?;
    let mut finished = false;
    for (i, text) in lines.iter().enumerate() {
        let line = i + 2;
        if finished {
            if text.trim().is_empty() {
                continue;
            }
            return Err(mismatch(line, "a line after the result"));
        }
        let record: LogRecord = serde_json::from_str(text)
            .map_err(|e| mismatch(line, format!("not a log record ({e})")))?;
        match record {
            LogRecord::Header { .. } => return Err(mismatch(line, "a second header")),
            LogRecord::Start { .. }
            | LogRecord::Event { .. }
            | LogRecord::Scores { .. }
            | LogRecord::Stderr { .. } => {
                return Err(mismatch(
                    line,
                    "a record of log version 3 in a version 2 log",
                ));
            }
            LogRecord::Fault { n, seat, fault, .. } => replay.fault(n, seat, fault),
            LogRecord::Action {
                n,
                seat,
                phase,
                action,
                substituted,
                ms,
                ..
            } => replay.action(n, seat, &phase, &action, substituted, ms),
            LogRecord::Result {
                scores,
                ranks,
                truth,
            } => {
                finished = true;
                replay.result(scores, ranks, &truth)
            }
            LogRecord::InternalError { n, message, truth } => {
                finished = true;
                replay.internal_error(n, message, &truth)
            }
        }
        .map_err(|m| mismatch(line, m))?;
        // An action the game refuses is a fault of the log, unless the next record says the
        // game failed there.
        if let Some((_, illegal)) = &replay.refused {
            if !lines.get(i + 1).is_some_and(|next| is_internal_error(next)) {
                return Err(mismatch(line, format!("illegal action: {illegal}")));
            }
        }
    }
    if !finished {
        return Err(mismatch(
            lines.len() + 2,
            "the log ends before the result (truncated)",
        ));
    }
    Ok(replay.summary)
}

/// Whether `text` is an internal-error record.
fn is_internal_error(text: &str) -> bool {
    matches!(
        serde_json::from_str(text),
        Ok(LogRecord::InternalError { .. })
    )
}

/// A log being replayed: the game's state and each seat's fault ledger, rebuilt record by
/// record. Each method checks one record and says what does not hold.
struct Replay<G: Game> {
    state: G,
    /// Per seat: the faults charged as the runner charges them, so that every substituted
    /// action can be checked against its cause and the forfeits against the policy.
    ledgers: Vec<SeatLedger>,
    /// The action of the last record, when the game refused to play it: only an internal
    /// error may follow, and must say so.
    refused: Option<(u64, Illegal)>,
    events: Vec<engine::Addressed<G::Event>>,
    summary: ReplaySummary,
}

impl<G: Game> Replay<G> {
    /// The match the header describes, before its first decision.
    fn new(header: &LogRecord) -> Result<Self, ReplayError> {
        let LogRecord::Header {
            game,
            seed,
            options,
            players,
            max_faults,
            policy,
            ..
        } = header
        else {
            unreachable!("checked by the caller")
        };
        let options: G::Options = serde_json::from_value(options.clone())
            .map_err(|e| mismatch(1, format!("invalid options for {game}: {e}")))?;
        let state =
            G::new(&options, players.len(), *seed).map_err(|e| mismatch(1, e.to_string()))?;
        Ok(Replay {
            state,
            ledgers: vec![SeatLedger::new(*policy, *max_faults); players.len()],
            refused: None,
            events: Vec::new(),
            summary: ReplaySummary {
                game: game.clone(),
                players: players.iter().map(|p| p.name.clone()).collect(),
                decisions: 0,
                substituted: 0,
                faults: 0,
                scores: Vec::new(),
                ranks: Vec::new(),
                internal_error: None,
            },
        })
    }

    /// A fault: in order, of a seat that exists, charged to its ledger.
    fn fault(&mut self, n: Option<u64>, seat: usize, fault: FaultKind) -> Result<(), String> {
        let seats = self.ledgers.len();
        if seat >= seats {
            return Err(format!(
                "a fault of seat {seat}, but there are {seats} seats"
            ));
        }
        let decisions = self.summary.decisions;
        let at = match n {
            Some(n) if n != decisions => {
                return Err(format!(
                    "a fault at decision {n} recorded before decision {decisions}"
                ));
            }
            Some(n) => FaultAt::Decision(n),
            // Before the first decision: the bot never started, or was stopped earlier.
            None if decisions == 0 => FaultAt::Start,
            // After play: a bot that cannot take its `match_end`, which changes nothing.
            None => FaultAt::End,
        };
        self.ledgers[seat].charge(fault, at);
        self.summary.faults += 1;
        Ok(())
    }

    /// An action: the decision the rules expect, of the seat and phase to move, substituted
    /// only with a cause and then the default action, and legal.
    fn action(
        &mut self,
        n: u64,
        seat: usize,
        phase: &str,
        action: &serde_json::Value,
        substituted: bool,
        ms: f64,
    ) -> Result<(), String> {
        let turn = self
            .state
            .to_move()
            .ok_or("an action after the end of the match")?;
        if n != self.summary.decisions {
            return Err(format!(
                "decision number {n}, expected {}",
                self.summary.decisions
            ));
        }
        if seat != turn.seat || phase != turn.phase {
            return Err(format!(
                "seat {seat} plays in the {phase} phase, but the rules say seat {} decides in the {} phase",
                turn.seat, turn.phase
            ));
        }
        if !(ms.is_finite() && ms >= 0.0) {
            return Err(format!("a decision time of {ms} ms"));
        }
        let ledger = &self.ledgers[seat];
        if substituted && !ledger.explains_substitution(n) {
            return Err(format!(
                "an action substituted for seat {seat} with no fault to cause it"
            ));
        }
        if !substituted && ledger.is_stopped() {
            return Err(format!("seat {seat} plays itself after it was stopped"));
        }
        let action = self.state.parse_action(action).map_err(|expected| {
            format!(
                "{} is not a {phase} action: {expected}",
                excerpt(&action.to_string())
            )
        })?;
        if substituted && action != self.state.default_action() {
            return Err(
                "a substituted action that is not the referee's default action".to_string(),
            );
        }
        self.events.clear();
        match self.state.play(&action, &mut self.events) {
            Ok(()) => {
                self.summary.decisions += 1;
                self.summary.substituted += u64::from(substituted);
            }
            // Only an internal error saying so may follow (checked by the caller).
            Err(illegal) => self.refused = Some((n, illegal)),
        }
        Ok(())
    }

    /// The result: the rules' scores, their ranks with the forfeits the ledgers give, and the
    /// final state.
    fn result(
        &mut self,
        scores: Vec<i64>,
        ranks: Vec<u32>,
        truth: &serde_json::Value,
    ) -> Result<(), String> {
        let outcome = self.state.outcome().ok_or_else(|| {
            format!(
                "a result after {} decisions, but the match is not over",
                self.summary.decisions
            )
        })?;
        let forfeited: Vec<bool> = self.ledgers.iter().map(SeatLedger::has_forfeited).collect();
        let expected = forfeit_ranks(&outcome.ranks, &forfeited);
        if outcome.scores != scores || expected != ranks {
            return Err(format!(
                "recorded scores {scores:?} and ranks {ranks:?}, but the rules and forfeits give {:?} and {:?}",
                outcome.scores, expected
            ));
        }
        self.check_truth(truth)?;
        self.summary.scores = scores;
        self.summary.ranks = ranks;
        Ok(())
    }

    /// An internal error: the game failed where the log says, as it does again here — it
    /// refused the action of decision `n`, or (`n` is `None`) it has no one to move and no
    /// outcome — and stopped in the recorded state. The match is void.
    fn internal_error(
        &mut self,
        n: Option<u64>,
        message: String,
        truth: &serde_json::Value,
    ) -> Result<(), String> {
        match (n, self.refused.take()) {
            (Some(n), Some((refused, illegal))) if n == refused => {
                if !message.ends_with(&format!(": {illegal}")) {
                    return Err(format!(
                        "an internal error that does not end with the game's refusal ({illegal})"
                    ));
                }
            }
            (None, None) if self.state.to_move().is_none() && self.state.outcome().is_none() => {}
            _ => {
                return Err("an internal error, but the game plays on from this point".to_string());
            }
        }
        self.check_truth(truth)?;
        let seats = self.ledgers.len();
        self.summary.scores = vec![0; seats];
        self.summary.ranks = vec![1; seats];
        self.summary.internal_error = Some(message);
        Ok(())
    }

    /// Whether the recorded final state is the one the replay reached.
    fn check_truth(&self, truth: &serde_json::Value) -> Result<(), String> {
        if *truth == self.state.truth() {
            Ok(())
        } else {
            Err("the recorded final state is not the one the actions lead to".to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::tally::{Options, Tally, logged_match};

    /// Replays a log of Tally given as lines.
    fn replay(lines: &[String]) -> Result<ReplaySummary, ReplayError> {
        replay_lines_as::<Tally>(lines)
    }

    fn mismatch_of(lines: &[String]) -> (usize, String) {
        match replay(lines) {
            Err(ReplayError::Mismatch { line, message }) => (line, message),
            other => panic!("expected a mismatch, got {other:?}"),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_log_with_faults_and_a_stop_replays_and_its_causes_are_checked() {
        let (record, lines) = logged_match(&Options::default(), &["counter", "loud"], 2).await;
        let summary = replay(&lines).unwrap();
        assert_eq!((summary.decisions, summary.substituted), (6, 3));
        assert_eq!(summary.faults, 2);
        assert_eq!(
            (summary.scores, summary.ranks),
            (record.scores, record.ranks)
        );
        assert_eq!(summary.internal_error, None);
        // Without its faults, the substituted actions have no cause.
        let unfaulted: Vec<String> = lines
            .iter()
            .filter(|l| !l.contains(r#""type":"fault""#))
            .cloned()
            .collect();
        let (_, message) = mismatch_of(&unfaulted);
        assert!(message.contains("with no fault to cause it"), "{message}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_void_match_replays_when_the_game_fails_the_same_way() {
        let options = Options {
            refuse_at: Some(3),
            ..Options::default()
        };
        let (record, lines) = logged_match(&options, &["counter", "counter"], 3).await;
        let summary = replay(&lines).unwrap();
        assert_eq!(summary.decisions, 3, "the refused action is not played");
        assert_eq!(summary.internal_error, record.internal_error);
        assert_eq!((summary.scores, summary.ranks), (vec![0, 0], vec![1, 1]));

        // Without the internal error, the refused action is a line that does not hold.
        let cut = &lines[..lines.len() - 1];
        let (line, message) = mismatch_of(cut);
        assert_eq!(line, cut.len(), "the refused action's line");
        assert_eq!(message, "illegal action: tally refuses decision 3");

        // The internal error must be the game's: another refusal message does not hold.
        let mut edited = lines.clone();
        let last = edited.last_mut().unwrap();
        *last = last.replace("tally refuses decision 3", "something else");
        let (_, message) = mismatch_of(&edited);
        assert!(
            message.contains("does not end with the game's refusal"),
            "{message}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_internal_error_where_the_game_plays_on_does_not_hold() {
        let (_, mut lines) = logged_match(&Options::default(), &["counter"], 3).await;
        let LogRecord::Result { truth, .. } = serde_json::from_str(lines.last().unwrap()).unwrap()
        else {
            panic!("a finished match ends with its result");
        };
        *lines.last_mut().unwrap() = serde_json::to_string(&LogRecord::InternalError {
            n: Some(5),
            message: "the game refused to play".into(),
            truth,
        })
        .unwrap();
        let (line, message) = mismatch_of(&lines);
        assert_eq!(line, lines.len());
        assert_eq!(
            message,
            "an internal error, but the game plays on from this point"
        );
    }
}
