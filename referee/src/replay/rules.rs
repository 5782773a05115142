//! The decisions, the faults and the end of a log being replayed, checked against the rules and
//! the fault ledgers, record by record; the game's own records (start, events, scores) are
//! checked by [`GameLog`] in their places.

use super::ReplaySummary;
use super::game_log::GameLog;
use crate::runner::{
    FaultAt, LOG_VERSION, LogRecord, STDERR_PER_DECISION, SeatLedger, forfeit_ranks,
};
use crate::seat::reply::excerpt;
use engine::{Game, Illegal};
use protocol::FaultKind;

/// A log being replayed: the game's state and each seat's fault ledger, rebuilt record by
/// record. Each method checks one record and says what does not hold.
pub(super) struct Replay<G: Game> {
    state: G,
    /// Whether each seat is played by a bot process (which may write to stderr).
    processes: Vec<bool>,
    /// The decision of the last `stderr` record.
    stderr_at: Option<u64>,
    /// The game's own records.
    game_log: GameLog,
    /// Per seat: the faults charged as the runner charges them, so that every substituted
    /// action can be checked against its cause and the forfeits against the policy.
    ledgers: Vec<SeatLedger>,
    /// The action of the last record, when the game refused to play it: only an internal
    /// error may follow, and must say so.
    pub refused: Option<(u64, Illegal)>,
    events: Vec<engine::Addressed<G::Event>>,
    summary: ReplaySummary,
}

impl<G: Game> Replay<G> {
    /// The match the header describes, before its first decision; `keep` keeps the checked
    /// records (with the header, made a version 3 header).
    pub fn new(header: &LogRecord, keep: bool) -> Result<Self, String> {
        let LogRecord::Header {
            game,
            log_version,
            seed,
            options,
            players,
            max_faults,
            policy,
            score_name,
            higher_is_better,
            ..
        } = header
        else {
            unreachable!("checked by the caller")
        };
        let recorded = *log_version >= 3;
        if recorded && (score_name != G::SCORE_NAME || *higher_is_better != G::HIGHER_IS_BETTER) {
            return Err(format!(
                "the header says the score is {score_name:?}, {}, but {game}'s is {:?}, {}",
                better(*higher_is_better),
                G::SCORE_NAME,
                better(G::HIGHER_IS_BETTER)
            ));
        }
        let options: G::Options = serde_json::from_value(options.clone())
            .map_err(|e| format!("invalid options for {game}: {e}"))?;
        let state = G::new(&options, players.len(), *seed).map_err(|e| e.to_string())?;
        let kept = keep.then(|| {
            let mut header = header.clone();
            if let LogRecord::Header {
                log_version,
                score_name,
                higher_is_better,
                ..
            } = &mut header
            {
                *log_version = LOG_VERSION;
                *score_name = G::SCORE_NAME.to_string();
                *higher_is_better = G::HIGHER_IS_BETTER;
            }
            header
        });
        let game_log = GameLog::new(&state, players.len(), recorded, kept);
        Ok(Replay {
            state,
            processes: players
                .iter()
                .map(|p| !p.bot.starts_with("builtin:"))
                .collect(),
            stderr_at: None,
            game_log,
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

    /// Checks the next record (after the header) and keeps it.
    pub fn take(&mut self, record: LogRecord) -> Result<(), String> {
        let seats = self.ledgers.len();
        match &record {
            LogRecord::Header { .. } => return Err("a second header".into()),
            LogRecord::Start { .. } => self.game_log.start(&self.state, seats, &record)?,
            LogRecord::Event { .. } | LogRecord::Scores { .. } => {
                self.game_log.game_record(&record)?;
            }
            other => {
                let start_fault = matches!(other, LogRecord::Fault { n: None, .. })
                    && self.summary.decisions == 0;
                self.game_log.settle(start_fault)?;
                self.decision_record(other)?;
            }
        }
        self.game_log.keep(record);
        Ok(())
    }

    /// A record of the decisions or the end.
    fn decision_record(&mut self, record: &LogRecord) -> Result<(), String> {
        match record {
            LogRecord::Stderr { n, seat, text, .. } => {
                self.game_log.version_3_only()?;
                self.stderr(*n, *seat, text)
            }
            LogRecord::Fault { n, seat, fault, .. } => self.fault(*n, *seat, *fault),
            LogRecord::Action {
                n,
                seat,
                phase,
                action,
                substituted,
                ms,
                ..
            } => self.action(*n, *seat, phase, action, *substituted, *ms),
            LogRecord::Result {
                scores,
                ranks,
                truth,
            } => self.result(scores.clone(), ranks.clone(), truth),
            LogRecord::InternalError { n, message, truth } => {
                self.internal_error(*n, message.clone(), truth)
            }
            LogRecord::Header { .. }
            | LogRecord::Start { .. }
            | LogRecord::Event { .. }
            | LogRecord::Scores { .. } => unreachable!("taken apart"),
        }
    }

    /// The summary and the records kept.
    pub fn finish(self) -> (ReplaySummary, Vec<LogRecord>) {
        (self.summary, self.game_log.into_kept())
    }

    /// What a bot process wrote to its stderr during a decision: only its shape is checked (the
    /// decision to come, its seat, a bot process, once, within the size a record holds), not
    /// its text, which only the bot decides.
    fn stderr(&mut self, n: u64, seat: usize, text: &str) -> Result<(), String> {
        let Some(turn) = self.state.to_move() else {
            return Err("a stderr record after the end of the match".into());
        };
        let decisions = self.summary.decisions;
        if n != decisions || seat != turn.seat {
            return Err(format!(
                "a stderr record of seat {seat} at decision {n}, but decision {decisions} is seat {}'s",
                turn.seat
            ));
        }
        if !self.processes[seat] {
            return Err(format!(
                "a stderr record of seat {seat}, a built-in bot (only bot processes write to stderr)"
            ));
        }
        if self.stderr_at.replace(n) == Some(n) {
            return Err(format!("a second stderr record at decision {n}"));
        }
        if text.len() > STDERR_PER_DECISION {
            return Err(format!(
                "a stderr record of {} bytes, over the {STDERR_PER_DECISION} a record holds",
                text.len()
            ));
        }
        Ok(())
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
                self.game_log.after_action(n, &self.state, &self.events);
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

/// How a header says which way the score goes.
fn better(higher_is_better: bool) -> &'static str {
    if higher_is_better {
        "higher is better"
    } else {
        "lower is better"
    }
}
