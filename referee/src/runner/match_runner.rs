//! Refereeing one match: [`play_match`] (or [`play_match_from`] a game set up by hand) starts it, takes one decision after another, and
//! finishes it. Asking a seat is in `ask.rs`, the books and the I/O of a fault in `books.rs`,
//! and what a fault costs in `ledger.rs`.

use super::ask::{ask, round_ms};
use super::books::{Books, SeatState};
use super::decision_time::DecisionTime;
use super::game_records::{GameRecords, start_record};
use super::ledger::FaultAt;
use super::log::{LOG_VERSION, LogPlayer, LogRecord, MatchLog};
use super::players::{Player, is_usable, line};
use super::policy::{FaultPolicy, forfeit_ranks};
use super::record::MatchRecord;
use crate::seat::reply::excerpt;
use crate::seat::{Fault, Seat, Talk};
use engine::{Addressed, Game, SetupError, Turn, seed};
use protocol::{FaultKind, MatchEnd, MatchStart, ToBot};
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
    /// The match log's file could not be made in the results directory.
    #[error("cannot write the match log: {0}")]
    LogFile(#[from] crate::safe_fs::FileError),
    /// A worker of the tournament pool stopped without finishing (a bug of the referee).
    #[error("a tournament worker stopped unexpectedly; the results written so far are kept")]
    Worker,
}

/// Referees one match between `players` (one per seat, in seat order) and returns its record.
/// Bot misbehaviour never fails a match: it is recorded and the match goes on. A failure of the
/// game itself (it refuses to play an action it accepted) ends the match void, with the
/// record's [`MatchRecord::internal_error`] saying what happened.
///
/// # Errors
/// [`RunError`] when the game refuses the setup or the log cannot be written.
pub async fn play_match<G: Game, B: Talk>(
    settings: &MatchSettings,
    options: &G::Options,
    players: &mut [Player<G, B>],
    log: &mut MatchLog,
) -> Result<MatchRecord, RunError> {
    let game = G::new(options, players.len(), settings.seed)?;
    play_match_from(settings, options, game, players, log).await
}

/// As [`play_match`], from a game already set up (for example a position set by hand, for a
/// test or a puzzle) instead of the one `settings.seed` and `options` deal. The log's header
/// still names only the seed and options: `referee replay` deals from the seed, so the log of
/// a game set up otherwise does not replay.
///
/// # Errors
/// [`RunError`] when the log cannot be written.
pub async fn play_match_from<G: Game, B: Talk>(
    settings: &MatchSettings,
    options: &G::Options,
    game: G,
    players: &mut [Player<G, B>],
    log: &mut MatchLog,
) -> Result<MatchRecord, RunError> {
    let mut run = MatchRun::start(settings, options, game, players, log).await?;
    while let Some(turn) = run.next_turn() {
        run.decide(turn).await?;
    }
    run.finish().await
}

/// A match being refereed.
struct MatchRun<'a, G: Game, B> {
    settings: &'a MatchSettings,
    players: &'a mut [Player<G, B>],
    books: Books<'a>,
    game: G,
    names: Vec<String>,
    started: Instant,
    /// The decision to come (0-based).
    n: u64,
    /// The events of the last action played.
    events: Vec<Addressed<G::Event>>,
    /// The game's records for the log (kept only when a log is).
    records: GameRecords,
    /// Why the match stopped early, if the game failed: the decision and what happened.
    internal_error: Option<(Option<u64>, String)>,
}

impl<'a, G: Game, B: Talk> MatchRun<'a, G, B> {
    /// Sets the match up: the game, the log's header, each seat told the match begins (or its
    /// absence recorded), the opening events queued.
    async fn start(
        settings: &'a MatchSettings,
        options: &G::Options,
        game: G,
        players: &'a mut [Player<G, B>],
        log: &'a mut MatchLog,
    ) -> Result<Self, RunError> {
        let started = Instant::now();
        let options_json = serde_json::to_value(options).expect("options serialize");
        if log.is_enabled() {
            write_header(log, settings, &options_json, players, G::NAME)?;
            log.write(&start_record(&game, players.len()))?;
        }
        let seats = players
            .iter_mut()
            .map(|p| SeatState::new(p, settings.policy, settings.max_faults))
            .collect();
        let mut run = MatchRun {
            settings,
            names: players.iter().map(|p| p.name.clone()).collect(),
            players,
            books: Books {
                log,
                faults: Vec::new(),
                seats,
            },
            game,
            started,
            n: 0,
            events: Vec::new(),
            records: GameRecords::default(),
            internal_error: None,
        };
        for seat in 0..run.players.len() {
            run.open_seat(seat, &options_json).await?;
        }
        let opening = run.game.opening_events();
        run.books.route(&opening);
        if run.books.log.is_enabled() {
            for record in run.records.opening(&run.game, &opening) {
                run.books.log.write(&record)?;
            }
        }
        Ok(run)
    }

    /// Records a seat's absence (a bot that did not start or is no longer running) or tells
    /// its bot the match begins.
    async fn open_seat(
        &mut self,
        i: usize,
        options_json: &serde_json::Value,
    ) -> Result<(), RunError> {
        let player = &mut self.players[i];
        let absent = match player.startup_fault.take() {
            Some(fault) => Some(fault),
            None if !is_usable(player) => Some(Fault::new(
                FaultKind::Exited,
                "the bot's process is not running (stopped or not started in an earlier match)",
            )),
            None => None,
        };
        if let Some(fault) = absent {
            self.books.charge(i, FaultAt::Start, None, fault)?;
        }
        let state = &mut self.books.seats[i];
        state.listens = player.seat.talks() && player.wants_events;
        let bot_seed = seed::bot_seed(self.settings.seed, i);
        if let Seat::Builtin(strategy) = &mut player.seat {
            strategy.match_start(i, bot_seed);
        } else if let Some(bot) = player.seat.talker() {
            bot.begin_match(player.next_id).await;
            if self.books.log.is_enabled() {
                // What it wrote before this match is not this match's.
                bot.take_stderr().await;
                state.keep_stderr = true;
                state.cpu_each_decision = true;
            }
            state
                .pending
                .extend(line(&ToBot::<(), (), ()>::MatchStart(MatchStart {
                    match_id: self.settings.match_id.clone(),
                    seat: i,
                    players: self.names.clone(),
                    seed: bot_seed,
                    options: options_json.clone(),
                })));
        }
        Ok(())
    }

    /// Who is to decide now: `None` once the match is over or the game has failed.
    fn next_turn(&self) -> Option<Turn> {
        match self.internal_error {
            Some(_) => None,
            None => self.game.to_move(),
        }
    }

    /// Takes one decision: the seat's action (or the default action, with its fault
    /// recorded), counted, played, and logged when a log is kept.
    async fn decide(&mut self, turn: Turn) -> Result<(), RunError> {
        let (action, substituted, time) = self.take_decision(turn).await?;
        self.books.seats[turn.seat].count_decision(substituted, time);
        if self.books.log.is_enabled() {
            self.play_logged(turn, &action, substituted, time)?;
        } else if self.play(&action, substituted) {
            self.n += 1;
        }
        Ok(())
    }

    /// Plays decision `n` and logs it: what its bot wrote to stderr meanwhile (if it was asked
    /// and wrote anything), its action, and what the action caused. (Nothing of the log is
    /// built when no log is kept: [`MatchRun::decide`] plays without it.)
    fn play_logged(
        &mut self,
        turn: Turn,
        action: &G::Action,
        substituted: bool,
        time: DecisionTime,
    ) -> std::io::Result<()> {
        if let Some(recent) = self.books.seats[turn.seat].stderr.take() {
            self.books.log.write(&LogRecord::Stderr {
                n: self.n,
                seat: turn.seat,
                text: recent.text,
                cut: recent.cut,
            })?;
        }
        self.books.log.write(&LogRecord::Action {
            n: self.n,
            seat: turn.seat,
            phase: turn.phase.to_string(),
            action: serde_json::to_value(action).expect("actions serialize"),
            substituted,
            ms: time.ms,
            overrun: time.overrun,
            cpu_ms: time.cpu_ms,
        })?;
        if self.play(action, substituted) {
            for record in self.records.after_action(self.n, &self.game, &self.events) {
                self.books.log.write(&record)?;
            }
            self.n += 1;
        }
        Ok(())
    }

    /// The action played for `turn`: the seat's own, or the game's default action when its
    /// bot is stopped or faulted (the faults recorded, the bot told); and whether it was
    /// substituted, and the time taken.
    async fn take_decision(
        &mut self,
        turn: Turn,
    ) -> std::io::Result<(G::Action, bool, DecisionTime)> {
        let seat = turn.seat;
        if self.books.seats[seat].ledger.is_stopped() {
            return Ok((self.game.default_action(), true, DecisionTime::default()));
        }
        let player = &mut self.players[seat];
        let state = &mut self.books.seats[seat];
        let left = state.ledger.faults_left() as usize;
        let answer = ask(&self.game, turn, player, state, left).await;
        self.books.tell_late_replies(seat, &answer.late);
        for fault in answer.noise {
            if !self.books.seats[seat].ledger.is_stopped() {
                self.books
                    .punish(seat, player, (self.n, turn.phase, None), fault, None)
                    .await?;
            }
        }
        let fault = match answer.action {
            Ok(action) if !self.books.seats[seat].ledger.is_stopped() => {
                return Ok((action, false, answer.time));
            }
            Ok(_) => None,
            Err(_) if self.books.seats[seat].ledger.is_stopped() => None,
            Err(fault) => Some(fault),
        };
        let default = self.game.default_action();
        if let Some(fault) = fault {
            let shown = serde_json::to_value(&default).ok();
            self.books
                .punish(
                    seat,
                    player,
                    (self.n, turn.phase, answer.asked),
                    fault,
                    shown,
                )
                .await?;
            if let (true, Some(id)) = (answer.reply_pending, answer.asked) {
                self.books.await_late_reply(seat, id);
            }
        }
        Ok((default, true, answer.time))
    }

    /// Plays `action` and routes its events, and says whether it was played; if the game
    /// refuses it (a bug of the game: it was checked, or is the game's own default action), the
    /// match stops with an internal error.
    fn play(&mut self, action: &G::Action, substituted: bool) -> bool {
        self.events.clear();
        match self.game.play(action, &mut self.events) {
            Ok(()) => {
                self.books.route(&self.events);
                true
            }
            Err(illegal) => {
                let which = if substituted {
                    "its own default action"
                } else {
                    "an action its rules check had accepted"
                };
                let shown = excerpt(&serde_json::to_string(action).unwrap_or_default());
                let message = format!(
                    "the game refused to play {shown} at decision {}, {which}: {illegal}",
                    self.n
                );
                self.internal_error = Some((Some(self.n), message));
                false
            }
        }
    }

    /// Ends the match: the result (void after an internal error), told to every bot still
    /// playing, the log's last record, and the match's record.
    async fn finish(mut self) -> Result<MatchRecord, RunError> {
        let (scores, ranks) = self.result();
        self.end_seats(&scores, &ranks).await?;
        self.books.tell_missing_replies();
        if self.books.log.is_enabled() {
            let truth = self.game.truth();
            self.books.log.write(&match &self.internal_error {
                None => LogRecord::Result {
                    scores: scores.clone(),
                    ranks: ranks.clone(),
                    truth,
                },
                Some((n, message)) => LogRecord::InternalError {
                    n: *n,
                    message: message.clone(),
                    truth,
                },
            })?;
            self.books.log.flush()?;
        }
        Ok(MatchRecord {
            match_id: self.settings.match_id.clone(),
            game: G::NAME.to_string(),
            seed: self.settings.seed,
            players: self.names,
            scores,
            ranks,
            faults: self.books.faults,
            stats: self.books.seats.into_iter().map(|s| s.stats).collect(),
            duration_ms: round_ms(self.started.elapsed()),
            internal_error: self.internal_error.map(|(_, message)| message),
        })
    }

    /// The scores and ranks (forfeits ranked last); a void match's, after an internal error:
    /// every score 0 and every seat ranked 1.
    fn result(&mut self) -> (Vec<i64>, Vec<u32>) {
        if self.internal_error.is_none() {
            match self.game.outcome() {
                Some(outcome) => {
                    let forfeited: Vec<bool> = self
                        .books
                        .seats
                        .iter()
                        .map(|s| s.ledger.has_forfeited())
                        .collect();
                    return (outcome.scores, forfeit_ranks(&outcome.ranks, &forfeited));
                }
                None => {
                    let message = format!(
                        "the game has no seat to move after {} decisions, but no outcome either",
                        self.n
                    );
                    self.internal_error = Some((None, message));
                }
            }
        }
        let seats = self.players.len();
        (vec![0; seats], vec![1; seats])
    }

    /// Tells every bot still playing the result; a bot that cannot take it is stopped, with
    /// its fault recorded. Fills in each seat's ejection and forfeit.
    async fn end_seats(&mut self, scores: &[i64], ranks: &[u32]) -> Result<(), RunError> {
        for (i, player) in self.players.iter_mut().enumerate() {
            let limit = Duration::from_millis(player.time.limits.decision_ms);
            let state = &mut self.books.seats[i];
            state.stats.stderr = player
                .seat
                .talker()
                .and_then(|bot| bot.take_stderr_overflow());
            state.close_cpu(|| player.seat.talker().and_then(|bot| bot.cpu_time()));
            if let (Some(bot), false) = (player.seat.talker(), state.ledger.is_stopped()) {
                if player.time.isolate {
                    // Frozen since its last decision: it must read the result, and may work
                    // between matches.
                    bot.freeze(false);
                }
                state
                    .pending
                    .extend(line(&ToBot::<(), (), ()>::MatchEnd(MatchEnd {
                        match_id: self.settings.match_id.clone(),
                        scores: scores.to_vec(),
                        ranks: ranks.to_vec(),
                    })));
                let written = bot.write(&state.pending, limit).await;
                state.pending.clear();
                if let Err(fault) = written {
                    bot.kill().await;
                    self.books.charge(i, FaultAt::End, None, fault)?;
                }
            }
            let state = &mut self.books.seats[i];
            state.stats.ejected = state.ledger.is_stopped();
            state.stats.forfeited = state.ledger.has_forfeited();
        }
        Ok(())
    }
}

/// Writes the log's header: what is played, by whom, under which rules.
fn write_header<G: Game, B>(
    log: &mut MatchLog,
    settings: &MatchSettings,
    options_json: &serde_json::Value,
    players: &[Player<G, B>],
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
        score_name: G::SCORE_NAME.to_string(),
        higher_is_better: G::HIGHER_IS_BETTER,
    })
}
