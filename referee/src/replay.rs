//! Re-checking a match log: every action is re-applied through the engine, and the recorded
//! result and final state must be the ones the rules give.

use crate::runner::LogRecord;
use crate::runner::{LOG_VERSION, forfeit_ranks};
use engine::Game;
use engine::GameKind;
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

fn replay_game<G: Game>(
    header: &LogRecord,
    lines: &[String],
) -> Result<ReplaySummary, ReplayError> {
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
    let mut state =
        G::new(&options, players.len(), *seed).map_err(|e| mismatch(1, e.to_string()))?;
    let mut summary = ReplaySummary {
        game: game.clone(),
        players: players.iter().map(|p| p.name.clone()).collect(),
        decisions: 0,
        substituted: 0,
        faults: 0,
        scores: Vec::new(),
        ranks: Vec::new(),
    };
    let mut events = Vec::new();
    let mut finished = false;
    // Per seat: faults counted toward the limit, whether it was stopped, and the last decision
    // it faulted at, so that every substituted action can be checked against its cause.
    let mut counted = vec![0u32; players.len()];
    let mut stopped = vec![false; players.len()];
    let mut faulted_at: Vec<Option<u64>> = vec![None; players.len()];
    // Faults before the end of play can forfeit the match; those after it (a bot that cannot
    // take its `match_end`) change nothing.
    let mut forfeited = vec![false; players.len()];
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
            LogRecord::Fault { n, seat, fault, .. } => {
                if seat >= players.len() {
                    return Err(mismatch(
                        line,
                        format!(
                            "a fault of seat {seat}, but there are {} seats",
                            players.len()
                        ),
                    ));
                }
                match n {
                    Some(n) if n != summary.decisions => {
                        let expected = summary.decisions;
                        return Err(mismatch(
                            line,
                            format!("a fault at decision {n} recorded before decision {expected}"),
                        ));
                    }
                    Some(n) => {
                        counted[seat] += 1;
                        faulted_at[seat] = Some(n);
                        stopped[seat] |= policy.stops(fault, counted[seat], *max_faults);
                        forfeited[seat] |= policy.forfeits(fault);
                    }
                    // Before the first decision: the bot never started, or was stopped earlier.
                    None if summary.decisions == 0 => {
                        stopped[seat] = true;
                        forfeited[seat] |= policy.forfeits_absent();
                    }
                    None => {}
                }
                summary.faults += 1;
            }
            LogRecord::Action {
                n,
                seat,
                phase,
                action,
                substituted,
                ms,
                ..
            } => {
                let turn = state
                    .to_move()
                    .ok_or_else(|| mismatch(line, "an action after the end of the match"))?;
                if n != summary.decisions {
                    return Err(mismatch(
                        line,
                        format!("decision number {n}, expected {}", summary.decisions),
                    ));
                }
                if seat != turn.seat || phase != turn.phase {
                    return Err(mismatch(
                        line,
                        format!(
                            "seat {seat} plays in the {phase} phase, but the rules say seat {} decides in the {} phase",
                            turn.seat, turn.phase
                        ),
                    ));
                }
                if !(ms.is_finite() && ms >= 0.0) {
                    return Err(mismatch(line, format!("a decision time of {ms} ms")));
                }
                if substituted && !(stopped[seat] || faulted_at[seat] == Some(n)) {
                    return Err(mismatch(
                        line,
                        format!("an action substituted for seat {seat} with no fault to cause it"),
                    ));
                }
                if !substituted && stopped[seat] {
                    return Err(mismatch(
                        line,
                        format!("seat {seat} plays itself after it was stopped"),
                    ));
                }
                let action = state.parse_action(&action).map_err(|expected| {
                    mismatch(
                        line,
                        format!("{action} is not a {phase} action: {expected}"),
                    )
                })?;
                if substituted && action != state.default_action() {
                    return Err(mismatch(
                        line,
                        "a substituted action that is not the referee's default action",
                    ));
                }
                events.clear();
                state
                    .play(&action, &mut events)
                    .map_err(|illegal| mismatch(line, format!("illegal action: {illegal}")))?;
                summary.decisions += 1;
                summary.substituted += u64::from(substituted);
            }
            LogRecord::Result {
                scores,
                ranks,
                truth,
            } => {
                let outcome = state.outcome().ok_or_else(|| {
                    mismatch(
                        line,
                        format!(
                            "a result after {} decisions, but the match is not over",
                            summary.decisions
                        ),
                    )
                })?;
                let expected = forfeit_ranks(&outcome.ranks, &forfeited);
                if outcome.scores != scores || expected != ranks {
                    return Err(mismatch(
                        line,
                        format!(
                            "recorded scores {scores:?} and ranks {ranks:?}, but the rules and forfeits give {:?} and {:?}",
                            outcome.scores, expected
                        ),
                    ));
                }
                if truth != state.truth() {
                    return Err(mismatch(
                        line,
                        "the recorded final state is not the one the actions lead to",
                    ));
                }
                summary.scores = scores;
                summary.ranks = ranks;
                finished = true;
            }
        }
    }
    if !finished {
        return Err(mismatch(
            lines.len() + 2,
            "the log ends before the result (truncated)",
        ));
    }
    Ok(summary)
}
