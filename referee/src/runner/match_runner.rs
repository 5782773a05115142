//! Refereeing one match.

use super::log::{LOG_VERSION, LogPlayer, LogRecord, MatchLog};
use super::players::{Player, append_line, is_usable, line};
use super::policy::{FaultPolicy, forfeit_ranks};
use super::record::{FaultRecord, MatchRecord, SeatStats};
use crate::seat::{Clock, Fault, Seat, Timing};
use engine::{Addressed, Game, SetupError, Turn, seed};
use protocol::{ErrorMsg, EventMsg, FaultKind, MatchEnd, MatchStart, Request, ToBot};
use std::time::Duration;
use tokio::time::Instant;

/// How a match is refereed.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The match's identifier.
    pub match_id: String,
    /// The match seed: all chance in the game and the bots' seeds derive from it.
    pub seed: u64,
    /// Faults after which a bot is ejected from the match (its process stopped, its remaining
    /// decisions played by the referee). Faults that leave no usable process eject at once.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: FaultPolicy,
}

/// A failure of the referee itself (never of a bot).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The match could not be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The match log could not be written.
    #[error("cannot write the match log: {0}")]
    Log(#[from] std::io::Error),
    /// A worker of the tournament pool stopped without finishing (a bug of the referee).
    #[error("a tournament worker stopped unexpectedly; the results written so far are kept")]
    Worker,
}

/// Per-seat bookkeeping during a match.
struct SeatState {
    faults: u32,
    ejected: bool,
    forfeited: bool,
    clock: Clock,
    /// Whether the seat is a bot process that is told events.
    listens: bool,
    /// Lines waiting to be written to the bot with its next request.
    pending: Vec<u8>,
    /// Lines to write before given requests of this match ([`Player::probes`]).
    probes: Vec<(u64, Vec<u8>)>,
    /// Requests sent to the bot in this match.
    asked: u64,
    stats: SeatStats,
}

/// Everything the referee keeps while a match runs: the log, the faults, the seats' state.
struct Books<'l> {
    log: &'l mut MatchLog,
    faults: Vec<FaultRecord>,
    seats: Vec<SeatState>,
    max_faults: u32,
    policy: FaultPolicy,
}

impl Books<'_> {
    /// Records a fault in the log and the results.
    fn record(&mut self, seat: usize, decision: Option<u64>, fault: Fault) -> std::io::Result<()> {
        self.log.write(&LogRecord::Fault {
            n: decision,
            seat,
            fault: fault.fault,
            message: fault.message.clone(),
        })?;
        self.faults.push(FaultRecord {
            seat,
            decision,
            fault: fault.fault,
            message: fault.message,
            line: fault.line,
        });
        Ok(())
    }

    /// Records a fault committed at decision `n` (about request `id`, if it concerns one), tells
    /// the bot (when it can still read), and ejects it when the fault leaves no usable process
    /// or the fault limit is reached.
    async fn punish<G: Game>(
        &mut self,
        seat: usize,
        player: &mut Player<G>,
        (n, id): (u64, Option<u64>),
        fault: Fault,
        substituted: Option<serde_json::Value>,
    ) -> std::io::Result<()> {
        let state = &mut self.seats[seat];
        state.faults += 1;
        let eject = self
            .policy
            .stops(fault.fault, state.faults, self.max_faults);
        let forfeit = self.policy.forfeits(fault.fault);
        let mut message = fault.message.clone();
        if forfeit {
            message.push_str(
                "; the bot forfeits the match (ranked last) and the referee plays for it for the rest of the match",
            );
        } else if eject {
            message.push_str(if fault.fault.is_terminal() {
                "; the referee plays for this seat for the rest of the match"
            } else {
                "; fault limit reached: the bot is stopped and the referee plays for it for the rest of the match"
            });
        }
        state.forfeited |= forfeit;
        if let Seat::Process(bot) = &mut player.seat {
            state
                .pending
                .extend(line(&ToBot::<(), (), ()>::Error(ErrorMsg {
                    id,
                    fault: fault.fault,
                    message: message.clone(),
                    substituted,
                })));
            if eject {
                // Tell it why, close its input, give it a moment to exit, then stop its group.
                let grace = Duration::from_millis(100);
                bot.shutdown(Some(&state.pending), grace).await;
                state.pending.clear();
            }
        }
        state.ejected |= eject;
        self.record(seat, Some(n), Fault { message, ..fault })
    }

    /// Queues each event for the seats in its audience, serialized once — and not at all when
    /// no bot process in its audience listens (built-in bots, stopped bots).
    fn route<E: serde::Serialize>(&mut self, events: &[Addressed<E>]) {
        for addressed in events {
            let hears = |(i, state): (usize, &SeatState)| {
                state.listens && !state.ejected && addressed.to.includes(i)
            };
            if !self.seats.iter().enumerate().any(hears) {
                continue;
            }
            let bytes = line(&ToBot::<(), (), _>::Event(EventMsg {
                event: &addressed.event,
            }));
            for (i, state) in self.seats.iter_mut().enumerate() {
                if hears((i, state)) {
                    state.pending.extend_from_slice(&bytes);
                }
            }
        }
    }
}

/// Referees one match between `players` (one per seat, in seat order) and returns its record.
/// Bot misbehaviour never fails a match: it is recorded and the match goes on.
///
/// # Errors
/// [`RunError`] when the game refuses the setup or the log cannot be written.
pub async fn play_match<G: Game>(
    settings: &MatchSettings,
    options: &G::Options,
    players: &mut [Player<G>],
    log: &mut MatchLog,
) -> Result<MatchRecord, RunError> {
    let started = Instant::now();
    let mut game = G::new(options, players.len(), settings.seed)?;
    let options_json = serde_json::to_value(options).expect("options serialize");
    if log.is_enabled() {
        write_header(log, settings, &options_json, players, G::NAME)?;
    }

    let mut books = Books {
        log,
        faults: Vec::new(),
        seats: players
            .iter_mut()
            .map(|p| SeatState {
                faults: 0,
                ejected: false,
                forfeited: false,
                clock: Clock::new(p.time),
                listens: false,
                pending: Vec::new(),
                probes: std::mem::take(&mut p.probes),
                asked: 0,
                stats: SeatStats::default(),
            })
            .collect(),
        max_faults: settings.max_faults,
        policy: settings.policy,
    };
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    for (i, player) in players.iter_mut().enumerate() {
        let absent = match player.startup_fault.take() {
            Some(fault) => Some(fault),
            None if !is_usable(player) => Some(Fault::new(
                FaultKind::Exited,
                "the bot's process is not running (stopped or not started in an earlier match)",
            )),
            None => None,
        };
        if let Some(mut fault) = absent {
            let forfeit = books.policy.forfeits_absent();
            fault.message.push_str(if forfeit {
                "; the bot forfeits the match (ranked last) and the referee plays for its seat"
            } else {
                "; the referee plays for this seat"
            });
            books.seats[i].forfeited = forfeit;
            books.record(i, None, fault)?;
        }
        let state = &mut books.seats[i];
        state.ejected = !is_usable(player);
        state.listens = matches!(player.seat, Seat::Process(_)) && player.wants_events;
        let bot_seed = seed::bot_seed(settings.seed, i);
        match &mut player.seat {
            Seat::Process(bot) => {
                bot.begin_match(player.next_id).await;
                state
                    .pending
                    .extend(line(&ToBot::<(), (), ()>::MatchStart(MatchStart {
                        match_id: settings.match_id.clone(),
                        seat: i,
                        players: names.clone(),
                        seed: bot_seed,
                        options: options_json.clone(),
                    })))
            }
            Seat::Builtin(strategy) => strategy.match_start(i, bot_seed),
            Seat::Absent => {}
        }
    }
    books.route(&game.opening_events());

    let mut events = Vec::new();
    let mut n = 0u64;
    while let Some(turn) = game.to_move() {
        let seat = turn.seat;
        let player = &mut players[seat];
        let mut noise = Vec::new();
        let mut timing = (0.0, false);
        let answer = if books.seats[seat].ejected {
            None
        } else {
            let state = &mut books.seats[seat];
            let left = settings.max_faults.saturating_sub(state.faults) as usize;
            Some(ask(&game, turn, player, state, left, &mut noise, &mut timing).await)
        };
        let (elapsed_ms, overrun) = timing;
        for fault in noise {
            if !books.seats[seat].ejected {
                books.punish(seat, player, (n, None), fault, None).await?;
            }
        }
        let (action, substituted) = match answer {
            _ if books.seats[seat].ejected => (game.default_action(), true),
            Some(Ok(action)) => (action, false),
            Some(Err(fault)) => {
                let default = game.default_action();
                let shown = serde_json::to_value(&default).ok();
                let id = player
                    .next_id
                    .checked_sub(1)
                    .filter(|_| matches!(player.seat, Seat::Process(_)));
                books.punish(seat, player, (n, id), fault, shown).await?;
                (default, true)
            }
            None => (game.default_action(), true),
        };
        let stats = &mut books.seats[seat].stats;
        stats.decisions += 1;
        if substituted {
            stats.substituted += 1;
        } else {
            stats.total_ms += elapsed_ms;
            stats.max_ms = stats.max_ms.max(elapsed_ms);
            stats.times.record(elapsed_ms);
            stats.overruns += u32::from(overrun);
        }
        // Serializing the action is skipped entirely when no log is kept.
        if books.log.is_enabled() {
            books.log.write(&LogRecord::Action {
                n,
                seat,
                phase: turn.phase.to_string(),
                action: serde_json::to_value(&action).expect("actions serialize"),
                substituted,
                ms: elapsed_ms,
                overrun,
            })?;
        }
        events.clear();
        game.play(&action, &mut events)
            .expect("the action was checked or is the default");
        books.route(&events);
        n += 1;
    }

    let outcome = game.outcome().expect("the match is over");
    let forfeited: Vec<bool> = books.seats.iter().map(|s| s.forfeited).collect();
    let ranks = forfeit_ranks(&outcome.ranks, &forfeited);
    for (i, player) in players.iter_mut().enumerate() {
        let limit = Duration::from_millis(player.time.limits.decision_ms);
        if let (Seat::Process(bot), false) = (&mut player.seat, books.seats[i].ejected) {
            let state = &mut books.seats[i];
            state
                .pending
                .extend(line(&ToBot::<(), (), ()>::MatchEnd(MatchEnd {
                    match_id: settings.match_id.clone(),
                    scores: outcome.scores.clone(),
                    ranks: ranks.clone(),
                })));
            let written = bot.write(&state.pending, limit).await;
            state.pending.clear();
            if let Err(fault) = written {
                bot.kill().await;
                books.seats[i].ejected = true;
                books.record(i, None, fault)?;
            }
        }
        books.seats[i].stats.ejected = books.seats[i].ejected;
        books.seats[i].stats.forfeited = books.seats[i].forfeited;
    }
    if books.log.is_enabled() {
        books.log.write(&LogRecord::Result {
            scores: outcome.scores.clone(),
            ranks: ranks.clone(),
            truth: game.truth(),
        })?;
        books.log.flush()?;
    }
    Ok(MatchRecord {
        match_id: settings.match_id.clone(),
        game: G::NAME.to_string(),
        seed: settings.seed,
        players: names,
        scores: outcome.scores,
        ranks,
        faults: books.faults,
        stats: books.seats.into_iter().map(|s| s.stats).collect(),
        duration_ms: round_ms(started.elapsed()),
    })
}

/// Writes the log's header: what is played, by whom, under which rules.
fn write_header<G: Game>(
    log: &mut MatchLog,
    settings: &MatchSettings,
    options_json: &serde_json::Value,
    players: &[Player<G>],
    game: &str,
) -> std::io::Result<()> {
    log.write(&LogRecord::Header {
        log_version: LOG_VERSION,
        game: game.to_string(),
        match_id: settings.match_id.clone(),
        seed: settings.seed,
        options: options_json.clone(),
        players: players
            .iter()
            .map(|p| LogPlayer {
                name: p.name.clone(),
                bot: p.bot.clone(),
                hello_name: p.hello_name.clone(),
                limits: p.time.limits,
            })
            .collect(),
        max_faults: settings.max_faults,
        policy: settings.policy,
    })
}

/// Asks the seat to move for its action and checks it: syntax first (JSON, message, the game's
/// action for this phase), then legality. Lines that are not the reply go to `noise` (at most
/// `max_noise`, the faults the bot has left before it is stopped). `timing` receives the time
/// taken, in milliseconds, and whether a soft overrun covered it.
async fn ask<G: Game>(
    game: &G,
    turn: Turn,
    player: &mut Player<G>,
    state: &mut SeatState,
    max_noise: usize,
    noise: &mut Vec<Fault>,
    timing: &mut (f64, bool),
) -> Result<G::Action, Fault> {
    let view = game.view(turn.seat);
    let legal = game.legal_actions();
    let action = match &mut player.seat {
        Seat::Builtin(strategy) => {
            let started = Instant::now();
            let action = strategy.decide(&view, legal.as_deref());
            timing.0 = round_ms(started.elapsed());
            action
        }
        Seat::Process(bot) => {
            let id = player.next_id;
            player.next_id += 1;
            if let Some(k) = state.probes.iter().position(|(at, _)| *at == state.asked) {
                let (_, lines) = state.probes.swap_remove(k);
                state.pending.extend(lines);
            }
            state.asked += 1;
            let allowance = state.clock.allowance();
            append_line(
                &mut state.pending,
                &ToBot::<_, _, ()>::Request(Request {
                    id,
                    phase: turn.phase.to_string(),
                    view: &view,
                    legal: legal.as_ref().map(|l| l.iter().collect()),
                    time_left_ms: allowance.told_ms(),
                }),
            );
            let written = bot.write(&state.pending, allowance.wait).await;
            state.pending.clear();
            written?;
            // The clock runs from the moment the request is written until the reply is read.
            let sent = Instant::now();
            let reply = bot
                .read_reply(id, sent + allowance.wait, max_noise, noise)
                .await;
            let elapsed = sent.elapsed();
            timing.0 = round_ms(elapsed);
            let value = match reply {
                Ok(value) => value,
                Err(mut fault) => {
                    state.clock.spend(elapsed);
                    if fault.fault == FaultKind::Timeout {
                        // Say which limit it was, before whatever else the bot's process adds.
                        fault.message = fault.message.replacen(
                            "the time limit",
                            &format!(
                                "the time limit of {} ms{}",
                                allowance.told_ms(),
                                clock_note(player.time.limits.bank_ms.is_some())
                            ),
                            1,
                        );
                    }
                    return Err(fault);
                }
            };
            match state.clock.charge(allowance, elapsed) {
                Timing::InTime => {}
                Timing::Overrun => timing.1 = true,
                Timing::Late => {
                    return Err(Fault::new(
                        FaultKind::Timeout,
                        format!(
                            "the reply came after {:.1} ms, over the time limit of {} ms{}",
                            timing.0,
                            allowance.told_ms(),
                            clock_note(player.time.limits.bank_ms.is_some())
                        ),
                    ));
                }
            }
            game.parse_action(&value).map_err(|expected| {
                let message = format!(
                    "the action {value} is not a {} action: {expected}",
                    turn.phase
                );
                Fault::new(FaultKind::WrongShape, message)
            })?
        }
        Seat::Absent => unreachable!("an absent seat is ejected before it is asked"),
    };
    game.check(&action)
        .map(|()| action.clone())
        .map_err(|illegal| {
            Fault::new(
                FaultKind::IllegalAction,
                format!(
                    "{} is illegal: {illegal}",
                    serde_json::to_string(&action).unwrap_or_default()
                ),
            )
        })
}

/// Says where a time limit came from when a bank is in play.
fn clock_note(bank: bool) -> &'static str {
    if bank {
        " (the smaller of the per-decision limit and the time left in the bank)"
    } else {
        ""
    }
}

fn round_ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}
