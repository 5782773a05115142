//! What the referee keeps while a match runs — the log, the faults, each seat's state — and the
//! I/O that goes with a fault: the bot is told, and stopped when its ledger says so.

use super::decision_time::DecisionTime;
use super::ledger::{FaultAt, SeatLedger};
use super::log::{LogRecord, MatchLog};
use super::players::{Player, line};
use super::policy::FaultPolicy;
use super::record::{FaultRecord, Outside, SeatStats};
use super::view_delta::ViewDelta;
use crate::seat::{Clock, Fault, LateReply, RecentStderr, Talk};
use engine::{Addressed, Game};
use protocol::{ErrorMsg, EventMsg, ToBot};
use std::time::Duration;

/// What a timeout's message ends with when its reply never came in the match.
pub(super) const NO_LATE_REPLY: &str = "; no reply to it came later in the match";

/// How long a bot that is stopped during a match has to exit after its input is closed.
const EJECT_GRACE: Duration = Duration::from_millis(100);

/// One seat's state during a match.
pub(super) struct SeatState {
    /// Its faults and what they cost.
    pub ledger: SeatLedger,
    /// Its clock.
    pub clock: Clock,
    /// Whether the seat is a bot process that is told events.
    pub listens: bool,
    /// Lines waiting to be written to the bot with its next request.
    pub pending: Vec<u8>,
    /// Lines to write before given requests of this match ([`Player::probes`]).
    probes: Vec<(u64, Vec<u8>)>,
    /// Requests sent to the bot in this match.
    asked: u64,
    /// Its decision statistics.
    pub stats: SeatStats,
    /// The bot's CPU time when its last reply was read, in this match: under the wall basis
    /// the start of its next decision's CPU time ([`super::ask`]). When the CPU time is not read
    /// at every decision ([`SeatState::cpu_each_decision`]), the reading at its first request.
    pub cpu_mark: Option<Duration>,
    /// Whether the bot's CPU time is read at every decision (for the match log, or to charge
    /// it); otherwise, on the wall basis with no log, it is read twice per match, at the first
    /// request and at the end, for the match's total ([`SeatState::close_cpu`]).
    pub cpu_each_decision: bool,
    /// Whether what the bot writes to stderr is taken at the end of each of its decisions, for
    /// the match log.
    pub keep_stderr: bool,
    /// What the bot wrote to stderr during the decision just taken, until it is logged.
    pub stderr: Option<RecentStderr>,
    /// The requests that timed out with no reply yet, with the index of their fault in
    /// [`Books::faults`]: a late reply is told in that fault's message.
    awaiting: Vec<(u64, usize)>,
    /// The views last sent, for a bot that takes them as changes.
    pub delta: Option<ViewDelta>,
}

impl SeatState {
    /// The state of `player`'s seat at the start of a match (taking the player's probes).
    pub fn new<G: Game, B>(
        player: &mut Player<G, B>,
        policy: FaultPolicy,
        max_faults: u32,
    ) -> Self {
        SeatState {
            ledger: SeatLedger::new(policy, max_faults),
            clock: Clock::new(player.time),
            listens: false,
            pending: Vec::new(),
            probes: std::mem::take(&mut player.probes),
            asked: 0,
            stats: SeatStats::default(),
            cpu_mark: None,
            cpu_each_decision: false,
            keep_stderr: false,
            stderr: None,
            awaiting: Vec::new(),
            delta: player.wants_delta.then(ViewDelta::default),
        }
    }

    /// Forgets the view last prepared for the bot, which it may not have received: its next
    /// request carries the whole view.
    pub fn forget_view(&mut self) {
        if let Some(delta) = &mut self.delta {
            delta.forget();
        }
    }

    /// Closes the match's CPU time of a bot whose CPU time was not read at every decision: its
    /// total is what its processes used from its first request to now, as `read` gives it (read
    /// only then; no per-decision maximum is known).
    pub fn close_cpu(&mut self, read: impl FnOnce() -> Option<Duration>) {
        let Some(mark) = self.cpu_mark.filter(|_| !self.cpu_each_decision) else {
            return;
        };
        if let Some(now) = read() {
            self.stats.cpu_ms = Some(super::ask::round_ms(now.saturating_sub(mark)));
        }
    }

    /// Counts a request about to be written, queueing first the probes due before it.
    pub fn queue_probes(&mut self) {
        if let Some(k) = self.probes.iter().position(|(at, _)| *at == self.asked) {
            let (_, lines) = self.probes.swap_remove(k);
            self.pending.extend(lines);
        }
        self.asked += 1;
    }

    /// Counts one decision in the statistics: the bot's own time, unless the referee played
    /// for it.
    pub fn count_decision(&mut self, substituted: bool, time: DecisionTime) {
        let stats = &mut self.stats;
        stats.decisions += 1;
        if substituted {
            stats.substituted += 1;
        } else {
            stats.total_ms += time.ms;
            stats.max_ms = stats.max_ms.max(time.ms);
            stats.times.record(time.ms);
            stats.overruns += u32::from(time.overrun);
            if let Some(cpu) = time.cpu_ms {
                stats.cpu_ms = Some(stats.cpu_ms.unwrap_or(0.0) + cpu);
                stats.max_cpu_ms = Some(stats.max_cpu_ms.unwrap_or(0.0).max(cpu));
            }
        }
    }

    /// Whether the bot is told events now.
    fn hears(&self) -> bool {
        self.listens && !self.ledger.is_stopped()
    }
}

/// Everything the referee keeps while a match runs: the log, the faults, the seats' state.
pub(super) struct Books<'l> {
    /// The match log.
    pub log: &'l mut MatchLog,
    /// Every fault, in order.
    pub faults: Vec<FaultRecord>,
    /// The seats' state, by seat.
    pub seats: Vec<SeatState>,
}

impl Books<'_> {
    /// Charges a fault of `seat` committed `at` (at a decision: of the request's `phase`) to
    /// its ledger and records it, its message saying what it costs, with the bot's own turn
    /// (its decisions counted so far, plus this one). Returns that message.
    pub fn charge(
        &mut self,
        seat: usize,
        at: FaultAt,
        phase: Option<&'static str>,
        fault: Fault,
    ) -> std::io::Result<String> {
        let state = &mut self.seats[seat];
        let charge = state.ledger.charge(fault.fault, at);
        let message = charge.message(&fault.message);
        let (decision, outside) = match at {
            FaultAt::Decision(n) => (Some(n), None),
            FaultAt::Start => (None, Some(Outside::Start)),
            FaultAt::End => (None, Some(Outside::End)),
        };
        // The decision is counted once taken ([`SeatState::count_decision`]): this is the next.
        let turn = decision.map(|_| state.stats.decisions + 1);
        self.log.write(&LogRecord::Fault {
            n: decision,
            seat,
            fault: fault.fault,
            message: message.clone(),
        })?;
        self.faults.push(FaultRecord {
            seat,
            decision,
            turn,
            phase: decision.and(phase).map(str::to_string),
            outside,
            fault: fault.fault,
            message: message.clone(),
            line: fault.line,
        });
        Ok(message)
    }

    /// Charges and records a fault committed at decision `n` of the request's `phase` (about
    /// request `id`, if it concerns one), tells the bot (when it can still read, with the action `substituted` for
    /// it, if any), and stops it when its ledger says so.
    pub async fn punish<G: Game, B: Talk>(
        &mut self,
        seat: usize,
        player: &mut Player<G, B>,
        (n, phase, id): (u64, &'static str, Option<u64>),
        fault: Fault,
        substituted: Option<serde_json::Value>,
    ) -> std::io::Result<()> {
        let kind = fault.fault;
        let message = self.charge(seat, FaultAt::Decision(n), Some(phase), fault)?;
        let state = &mut self.seats[seat];
        if let Some(bot) = player.seat.talker() {
            state
                .pending
                .extend(line(&ToBot::<(), (), ()>::Error(ErrorMsg {
                    id,
                    fault: kind,
                    message,
                    substituted,
                })));
            if state.ledger.is_stopped() {
                // Tell it why, close its input, give it a moment to exit, then stop its group.
                bot.shutdown(Some(&state.pending), EJECT_GRACE).await;
                state.pending.clear();
            }
        }
        Ok(())
    }

    /// Notes that the fault recorded last, `seat`'s timeout at request `id`, got no reply: a
    /// late one may still come ([`Books::tell_late_replies`]).
    pub fn await_late_reply(&mut self, seat: usize, id: u64) {
        if let Some(last) = self.faults.len().checked_sub(1) {
            self.seats[seat].awaiting.push((id, last));
        }
    }

    /// Tells in their faults' messages when the late replies to `seat`'s timed-out requests
    /// came ([`LateReply::note`]).
    pub fn tell_late_replies(&mut self, seat: usize, late: &[LateReply]) {
        for reply in late {
            let awaiting = &mut self.seats[seat].awaiting;
            if let Some(k) = awaiting.iter().position(|&(id, _)| id == reply.id) {
                let (_, fault) = awaiting.remove(k);
                self.faults[fault].message.push_str(&reply.note());
            }
        }
    }

    /// At the end of the match: says in each timeout's message whose reply never came that it
    /// did not.
    pub fn tell_missing_replies(&mut self) {
        for state in &mut self.seats {
            for (_, fault) in state.awaiting.drain(..) {
                self.faults[fault].message.push_str(NO_LATE_REPLY);
            }
        }
    }

    /// Queues each event for the seats in its audience, serialized once — and not at all when
    /// no bot process in its audience listens (built-in bots, stopped bots).
    pub fn route<E: serde::Serialize>(&mut self, events: &[Addressed<E>]) {
        for addressed in events {
            let hears = |(i, state): (usize, &SeatState)| state.hears() && addressed.to.includes(i);
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
