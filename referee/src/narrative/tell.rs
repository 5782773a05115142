//! The generic part of the narrative: the match and its players, the faults with their
//! messages, the decisions the referee played for a bot, slow and late replies, what bots
//! wrote to their standard error, the result — and, in between, each step of the match handed
//! to the game's [`Teller`]. What a seat may not know is dropped here, before any teller sees
//! it: the events not told to it, and the other seats' actions, faults, timings and stderr.

use super::cast::{Cast, Perspective};
use super::story::{LineKind, Narrative, Story};
use super::teller::{Act, Heard, Step, Teller};
use super::words::{counted, grouped, listed};
use super::{bouillabaisse, machiavelli, vabanque};
use crate::runner::{LogPlayer, LogRecord, Moment, When};
use engine::GameKind;
use protocol::FaultKind;
use std::collections::HashMap;

/// Why a log cannot be told.
#[derive(Debug, thiserror::Error)]
pub enum NarrativeError {
    /// The first record is not a header.
    #[error("the log does not start with its header")]
    NoHeader,
    /// The header names a game this referee does not know.
    #[error(transparent)]
    UnknownGame(#[from] engine::UnknownGame),
    /// The perspective is a seat the match does not have.
    #[error("there is no seat {seat}: the match has {seats} seats, 0 to {}", seats.saturating_sub(1))]
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// The match's seats.
        seats: usize,
    },
    /// The log records no events (log version 2 and older), so there is nothing to tell.
    #[error("this log (version {version}) records no events to tell; logs of version 3 do")]
    NoEvents {
        /// The log's version.
        version: u32,
    },
    /// A record the narrative cannot read.
    #[error("record {line} of the log: {message}")]
    Record {
        /// Its 1-based place among the records (its line, in a log of version 3).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Tells the match whose log is `records` (a header first, then the records of version 3) from
/// `perspective`.
///
/// # Errors
/// [`NarrativeError`] when the log has no header, names an unknown game or has no events, the
/// perspective's seat does not exist, or a record cannot be read as its game's.
pub fn tell(records: &[LogRecord], perspective: Perspective) -> Result<Narrative, NarrativeError> {
    let Some(LogRecord::Header {
        game,
        log_version,
        players,
        ..
    }) = records.first()
    else {
        return Err(NarrativeError::NoHeader);
    };
    let kind = GameKind::from_name(game)?;
    if let Perspective::Seat(seat) = perspective
        && seat >= players.len()
    {
        return Err(NarrativeError::NoSuchSeat {
            seat,
            seats: players.len(),
        });
    }
    if !records.iter().any(|r| matches!(r, LogRecord::Start { .. })) {
        return Err(NarrativeError::NoEvents {
            version: *log_version,
        });
    }
    let cast = Cast::new(players.iter().map(|p| p.name.clone()).collect());
    let teller: Box<dyn Teller> = match kind {
        GameKind::Vabanque => Box::new(vabanque::Vabanque::new(cast.clone())),
        GameKind::Bouillabaisse => Box::new(bouillabaisse::Bouillabaisse::new(cast.clone())),
        GameKind::Machiavelli => Box::new(machiavelli::Machiavelli::new(cast.clone())),
    };
    let mut walk = Walk {
        kind,
        perspective,
        players,
        decided: vec![0; players.len()],
        faults: vec![Vec::new(); players.len()],
        stopped: vec![false; players.len()],
        cast,
        teller,
        story: Story::default(),
        pending: None,
        score_name: String::new(),
        phases: records
            .iter()
            .filter_map(|r| match r {
                LogRecord::Action { n, phase, .. } => Some((*n, phase.as_str())),
                _ => None,
            })
            .collect(),
    };
    walk.preface(&records[0]);
    let failed = |(line, message)| NarrativeError::Record { line, message };
    for (i, record) in records.iter().enumerate().skip(1) {
        walk.record(record, i + 1).map_err(failed)?;
    }
    walk.flush().map_err(failed)?;
    Ok(walk.story.finish())
}

/// A step waiting for the events its decision caused, with the line it started at.
struct Pending<'a> {
    /// The decision's number (`None` for the opening events).
    n: Option<u64>,
    /// The log line of its first record.
    line: usize,
    step: Step<'a>,
}

/// The log being told, record by record.
struct Walk<'a> {
    kind: GameKind,
    perspective: Perspective,
    players: &'a [LogPlayer],
    cast: Cast,
    teller: Box<dyn Teller>,
    story: Story,
    pending: Option<Pending<'a>>,
    /// Decisions each seat has taken so far (its first may have a longer limit).
    decided: Vec<u64>,
    /// The faults of each seat, in order, with the decision each was at.
    faults: Vec<Vec<(Option<u64>, FaultKind)>>,
    /// Whether each seat's bot no longer plays (the referee plays every decision for it).
    stopped: Vec<bool>,
    /// What the score is called.
    score_name: String,
    /// The phase of each decision, by the log's number (a fault is told before its action).
    phases: HashMap<u64, &'a str>,
}

impl<'a> Walk<'a> {
    /// The match's first section: the game, the seats and their bots, the options, the score;
    /// and whose story it is.
    fn preface(&mut self, header: &LogRecord) {
        let LogRecord::Header {
            match_id,
            seed,
            options,
            players,
            score_name,
            higher_is_better,
            ..
        } = header
        else {
            unreachable!("checked by tell")
        };
        self.story.section(format!(
            "{}, match {match_id} (seed {seed})",
            self.teller.title()
        ));
        for (seat, player) in players.iter().enumerate() {
            let calls = match &player.hello_name {
                Some(hello) if *hello != player.name => format!(", which calls itself \"{hello}\""),
                _ => String::new(),
            };
            self.story.told(format!(
                "{}: {}{calls}.",
                self.cast.introduce(seat),
                player.bot
            ));
        }
        let defaults = engine::with_game!(self.kind, G => {
            serde_json::to_value(<G as engine::Game>::Options::default()).unwrap_or_default()
        });
        let set: Vec<String> = options
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(key, value)| defaults.get(key.as_str()) != Some(*value))
            .map(|(key, value)| format!("{key} = {value}"))
            .collect();
        if !set.is_empty() {
            self.story.told(format!(
                "Options other than the defaults: {}.",
                set.join(", ")
            ));
        }
        self.score_name = if score_name.is_empty() {
            "score".to_string()
        } else {
            score_name.clone()
        };
        if !score_name.is_empty() {
            let better = if *higher_is_better { "higher" } else { "lower" };
            self.story
                .told(format!("The score is {score_name}; {better} is better."));
        }
        if let Perspective::Seat(seat) = self.perspective {
            let name = self.cast.name(seat);
            self.story.told(format!(
                "As {name} saw it: the events {name} was told, {name}'s own actions, faults and standard error; the others' actions only as the events told them."
            ));
        }
    }

    /// Tells one record (the `line`th of the log), or says at which line what cannot be told.
    fn record(&mut self, record: &'a LogRecord, line: usize) -> Result<(), (usize, String)> {
        if !matches!(record, LogRecord::Event { .. } | LogRecord::Scores { .. }) {
            self.flush()?;
        }
        match record {
            LogRecord::Header { .. } => return Err((line, "a second header".into())),
            LogRecord::Start { views, .. } => {
                let seat = match self.perspective {
                    Perspective::Seat(seat) => seat,
                    Perspective::Everything => 0,
                };
                let view = views
                    .get(seat)
                    .ok_or_else(|| (line, format!("the start has no view of seat {seat}")))?;
                self.teller
                    .start(view, &mut self.story)
                    .map_err(|message| (line, message))?;
            }
            LogRecord::Event { n, to, event } => {
                if !self.perspective.hears(*to) {
                    return Ok(());
                }
                let heard = Heard { to: *to, event };
                match &mut self.pending {
                    Some(pending) if pending.n == *n => pending.step.events.push(heard),
                    _ => {
                        self.flush()?;
                        self.pending = Some(Pending {
                            n: *n,
                            line,
                            step: Step {
                                act: None,
                                events: vec![heard],
                            },
                        });
                    }
                }
            }
            LogRecord::Scores { .. } => {}
            LogRecord::Stderr {
                seat, text, cut, ..
            } => {
                if self.perspective.knows(*seat) {
                    let cut = if *cut > 0 {
                        format!(" ({} cut before this)", counted(*cut as usize, "byte"))
                    } else {
                        String::new()
                    };
                    self.story.conduct(format!(
                        "{} wrote to its standard error{cut}:",
                        self.cast.name(*seat)
                    ));
                    for text in text.lines() {
                        self.story.line(LineKind::Stderr, 1, text);
                    }
                }
            }
            LogRecord::Fault {
                n,
                seat,
                fault,
                message,
            } => {
                if let Some(faults) = self.faults.get_mut(*seat) {
                    faults.push((*n, *fault));
                }
                if self.perspective.knows(*seat) {
                    let moment = Moment::in_the_match(self.when(*n, *seat));
                    self.story.conduct(format!(
                        "{}: fault {fault}, {moment}: {message}",
                        self.cast.name(*seat)
                    ));
                }
            }
            LogRecord::Action {
                n, seat, action, ..
            } => {
                let knows = self.perspective.knows(*seat);
                if knows {
                    self.conduct_of(record);
                }
                if let Some(decided) = self.decided.get_mut(*seat) {
                    *decided += 1;
                }
                self.pending = Some(Pending {
                    n: Some(*n),
                    line,
                    step: Step {
                        act: Some(Act {
                            seat: *seat,
                            action: knows.then_some(action),
                        }),
                        events: Vec::new(),
                    },
                });
            }
            LogRecord::Result { scores, ranks, .. } => {
                self.result(scores, ranks);
            }
            LogRecord::InternalError { n, message, .. } => {
                self.story.section("The match is void");
                let at = n.map_or(String::new(), |n| format!(" at decision {n}"));
                let why = match self.perspective {
                    Perspective::Everything => format!(": {message}"),
                    Perspective::Seat(_) => String::new(),
                };
                self.story.told(format!(
                    "The game itself failed{at}{why}. No bot is charged with it; every seat ranks first with a score of 0."
                ));
            }
        }
        Ok(())
    }

    /// When a fault of `seat` at decision `n` (`None`: outside a decision) happened: its turn
    /// is the one its next action takes; outside a decision, at start-up before any action.
    fn when(&self, n: Option<u64>, seat: usize) -> When {
        match n {
            Some(decision) => When::Turn {
                turn: self.decided.get(seat).map(|d| d + 1),
                phase: self.phases.get(&decision).map(|p| p.to_string()),
                decision,
            },
            None if self.decided.iter().all(|&d| d == 0) => When::Start,
            None => When::End,
        }
    }

    /// What the referee noted about the decision `action` (an action record): it played
    /// for the bot (after a fault at this decision; once, when the bot no longer plays), or the
    /// bot was late or slow.
    fn conduct_of(&mut self, action: &LogRecord) {
        let LogRecord::Action {
            n,
            seat,
            action,
            substituted,
            ms,
            overrun,
            ..
        } = action
        else {
            return;
        };
        let (seat, name) = (*seat, self.cast.name(*seat));
        if *substituted {
            let faulted_here = self
                .faults
                .get(seat)
                .is_some_and(|f| f.iter().any(|(at, _)| *at == Some(*n)));
            if faulted_here {
                self.story
                    .conduct(format!("The referee plays {action} for {name}."));
            } else if let Some(stopped) = self.stopped.get_mut(seat).filter(|s| !**s) {
                // Substituted with no fault at this decision: the bot is stopped, or never
                // started, and the referee plays every decision for it from now on.
                *stopped = true;
                self.story.conduct(format!(
                    "{name} no longer plays: the referee plays {action} for it, and each of its decisions from now on."
                ));
            }
            return;
        }
        let Some(player) = self.players.get(seat) else {
            return;
        };
        let first = self.decided.get(seat) == Some(&0);
        let limit = match player.limits.first_decision_ms {
            Some(first_ms) if first => first_ms,
            _ => player.limits.decision_ms,
        };
        let took = grouped(ms.round() as i64);
        if *overrun {
            self.story.conduct(format!(
                "{name} replied late, after {took} ms (its limit is {} ms); a tolerated overrun covered it.",
                grouped(limit as i64)
            ));
        } else if limit > 0 && ms * 2.0 >= limit as f64 {
            self.story.conduct(format!(
                "{name} took {took} ms of the {} ms it had.",
                grouped(limit as i64)
            ));
        }
    }

    /// The last section: the ranks and scores, and the faults each seat committed.
    fn result(&mut self, scores: &[i64], ranks: &[u32]) {
        self.story.section("Result");
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by_key(|&s| (ranks.get(s).copied().unwrap_or(u32::MAX), s));
        for seat in order {
            self.story.told(format!(
                "{}. {}: {} {}",
                ranks.get(seat).copied().unwrap_or_default(),
                self.cast.name(seat),
                grouped(scores[seat]),
                self.score_name
            ));
        }
        let mut any = false;
        for seat in 0..self.faults.len() {
            if !self.perspective.knows(seat) || self.faults[seat].is_empty() {
                continue;
            }
            any = true;
            let kinds: Vec<FaultKind> = self.faults[seat].iter().map(|(_, k)| *k).collect();
            let mut tally: Vec<String> = Vec::new();
            let mut seen: Vec<FaultKind> = Vec::new();
            for kind in &kinds {
                if !seen.contains(kind) {
                    seen.push(*kind);
                    let times = kinds.iter().filter(|k| *k == kind).count();
                    tally.push(format!("{kind} ×{times}"));
                }
            }
            self.story.conduct(format!(
                "{} committed {}: {}.",
                self.cast.name(seat),
                counted(kinds.len(), "fault"),
                listed(&tally)
            ));
        }
        if !any {
            self.story.told(match self.perspective {
                Perspective::Everything => "No bot committed a fault.".to_string(),
                Perspective::Seat(seat) => format!("{} committed no fault.", self.cast.name(seat)),
            });
        }
    }

    /// Tells the pending step, if any.
    fn flush(&mut self) -> Result<(), (usize, String)> {
        if let Some(pending) = self.pending.take() {
            self.teller
                .step(&pending.step, &mut self.story)
                .map_err(|message| (pending.line, message))?;
        }
        Ok(())
    }
}
