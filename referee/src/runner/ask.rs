//! Asking the seat to move for its action: a built-in bot is called; a bot that speaks the
//! protocol (a process, or a script in tests) is sent its request and waited for, and its reply
//! is checked — time first, then syntax (JSON, message, the game's action for this phase), then
//! legality. Whatever goes wrong is a [`Fault`]. When the match log keeps it, what the bot wrote
//! to stderr during the decision is taken once the decision is over (`SeatState::stderr`).

use super::books::SeatState;
use super::decision_time::DecisionTime;
use super::players::{Player, append_line};
use super::view_delta;
use crate::seat::reply::excerpt;
use crate::seat::{
    Allowance, CPU_WALL_CAP, Fault, LateReply, ReplyWait, Seat, Talk, TimeBasis, Timing,
};
use engine::{Game, Strategy, Turn};
use protocol::{FaultKind, Request, ToBot};
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;

/// A seat's answer to one request.
pub(super) struct Answer<A> {
    /// The action, or the fault that cost the decision.
    pub action: Result<A, Fault>,
    /// Stray lines, each a fault that did not cost the decision: lines the bot wrote before
    /// the request was written.
    pub noise: Vec<Fault>,
    /// How long it took.
    pub time: DecisionTime,
    /// The request written to the bot (or whose writing failed), which the decision's fault is
    /// about: `None` for a built-in bot, and when stray lines ended the decision before its
    /// request was written.
    pub asked: Option<u64>,
    /// Late replies to the bot's earlier requests that timed out, read meanwhile.
    pub late: Vec<LateReply>,
    /// Whether the wait for the reply ended without it (a timeout): it may still come, late.
    pub reply_pending: bool,
}

/// Asks the seat to move for its action and checks it. Stray lines go to the answer's noise (at
/// most `max_noise`, the faults the bot has left before it is stopped).
pub(super) async fn ask<G: Game, B: Talk>(
    game: &G,
    turn: Turn,
    player: &mut Player<G, B>,
    state: &mut SeatState,
    max_noise: usize,
) -> Answer<G::Action> {
    let view = game.view(turn.seat);
    let legal = game.legal_actions();
    let mut answer = if let Seat::Builtin(strategy) = &mut player.seat {
        decide_builtin(strategy.as_mut(), &view, legal.as_deref())
    } else {
        let bot = player
            .seat
            .talker()
            .expect("an absent seat is ejected before it is asked");
        let id = player.next_id;
        player.next_id += 1;
        // A bot that takes its view as changes is sent what changed since its last request.
        let changes = state.delta.as_mut().and_then(|d| d.next(&view));
        let request = |line: &mut Vec<u8>, time_left_ms| match &changes {
            Some(changes) => view_delta::append_request(
                line,
                id,
                turn.phase,
                changes,
                legal.as_deref(),
                time_left_ms,
            ),
            None => append_line(
                line,
                &ToBot::<_, _, ()>::Request(Request {
                    id,
                    phase: turn.phase.to_string(),
                    view: &view,
                    delta: false,
                    legal: legal.as_ref().map(|l| l.iter().collect()),
                    time_left_ms,
                }),
            ),
        };
        let reply = ask_bot(bot, state, id, request, max_noise).await;
        Answer {
            action: reply
                .action
                .and_then(|value| parse_reply(game, turn, &value)),
            noise: reply.noise,
            time: reply.time,
            asked: reply.asked,
            late: reply.late,
            reply_pending: reply.reply_pending,
        }
    };
    answer.action = answer.action.and_then(|action| check_legal(game, action));
    answer
}

/// Calls a built-in bot, timing the call.
fn decide_builtin<G: Game>(
    strategy: &mut dyn Strategy<G>,
    view: &G::View,
    legal: Option<&[G::Action]>,
) -> Answer<G::Action> {
    let started = Instant::now();
    let action = strategy.decide(view, legal);
    Answer {
        action: Ok(action),
        noise: Vec::new(),
        time: DecisionTime {
            ms: round_ms(started.elapsed()),
            overrun: false,
            cpu_ms: None,
        },
        asked: None,
        late: Vec::new(),
        reply_pending: false,
    }
}

/// Sends request `id` to a bot that speaks the protocol (its line appended by `request`, given
/// the time it is told it has), after whatever is queued for it, and waits for the reply within the seat's
/// allowance. What the bot wrote before the request is written is stray, never the reply. When
/// the log keeps it, what the bot wrote to stderr meanwhile is taken at the end
/// ([`SeatState::stderr`]).
async fn ask_bot(
    bot: &mut impl Talk,
    state: &mut SeatState,
    id: u64,
    request: impl FnOnce(&mut Vec<u8>, u64),
    max_noise: usize,
) -> Answer<Value> {
    state.queue_probes();
    let allowance = state.clock.allowance();
    request(&mut state.pending, allowance.told_ms());
    let mut noise = bot.read_before_request(id, max_noise);
    if noise.len() >= max_noise || noise.last().is_some_and(|f| f.fault.is_terminal()) {
        // The bot is stopped by these faults; the last of them is the decision's, and the
        // request is never written (nor the view it carried: the next is sent whole).
        state.pending.clear();
        state.forget_view();
        let last = noise.pop().expect("at least one fault");
        return Answer {
            action: Err(last),
            noise,
            time: DecisionTime::default(),
            asked: None,
            late: bot.take_late_replies(),
            reply_pending: false,
        };
    }
    if state.clock.control().isolate {
        // On move: its processes run again, and it can read its request.
        bot.freeze(false);
    }
    // Its stderr's budget for this decision (past it, its writes there wait).
    bot.open_stderr_decision();
    // The clock runs from the moment the request is written until the reply is read: it is
    // started as the write begins, so that a bot that runs as soon as its request is in the
    // pipe (before the write returns to the referee) is charged for all its thinking.
    let sent = Instant::now();
    let control = state.clock.control();
    // Under the CPU basis the decision's CPU time runs from the request, exactly; under the
    // wall basis, where it is only recorded, from the bot's last reply in this match: one
    // reading of its group per decision instead of two (a reading costs 1 to 2 µs, 5% of a
    // fast bot's decision), which differs only for a bot that thinks off move. With no log to
    // record each decision's, it is read only at the match's first request and at its end
    // (`SeatState::close_cpu`): the match's total is the same.
    let each = control.basis == TimeBasis::Cpu || state.cpu_each_decision;
    let cpu_before = match (control.basis, state.cpu_mark) {
        (TimeBasis::Wall, Some(mark)) => Some(mark),
        _ => bot.cpu_time(),
    };
    if !each && state.cpu_mark.is_none() {
        state.cpu_mark = cpu_before;
    }
    let cpu_basis = control.basis == TimeBasis::Cpu && cpu_before.is_some();
    let written = bot.write(&state.pending, allowance.wait).await;
    state.pending.clear();
    if let Err(fault) = written {
        state.forget_view();
        return Answer {
            action: Err(fault),
            noise,
            time: DecisionTime::default(),
            asked: Some(id),
            late: bot.take_late_replies(),
            reply_pending: false,
        };
    }
    let limit = LimitText {
        allowance,
        cpu_basis,
    };
    let wall_wait = if cpu_basis {
        allowance.wait * CPU_WALL_CAP
    } else {
        allowance.wait
    };
    let wait = ReplyWait {
        id,
        deadline: sent + wall_wait,
        limit: &limit,
        max_noise: max_noise - noise.len(),
    };
    let reply = bot.read_reply(&wait, &mut noise).await;
    let elapsed = sent.elapsed();
    let cpu_after = if each { bot.cpu_time() } else { None };
    if each {
        state.cpu_mark = cpu_after;
    }
    let cpu = cpu_before
        .zip(cpu_after)
        .map(|(before, after)| after.saturating_sub(before));
    if control.isolate {
        // Off move until its next request: none of its processes runs meanwhile.
        bot.freeze(true);
    }
    let used = match (cpu_basis, cpu) {
        (true, Some(cpu)) => Used::Cpu { cpu, wall: elapsed },
        _ => Used::Wall(elapsed),
    };
    let reply_pending = matches!(&reply, Err(f) if f.fault == FaultKind::Timeout);
    let (action, overrun) = judge_time(state, allowance, used, reply);
    if state.keep_stderr {
        // The decision is over: what the bot wrote to stderr meanwhile, for the log.
        state.stderr = bot.take_stderr().await;
    }
    Answer {
        action,
        noise,
        time: DecisionTime {
            ms: round_ms(elapsed),
            overrun,
            cpu_ms: cpu.map(round_ms),
        },
        asked: Some(id),
        late: bot.take_late_replies(),
        reply_pending,
    }
}

/// The limit a wait for a reply enforces, as a timeout's message names it: written out only for
/// a fault, not at every decision.
struct LimitText {
    allowance: Allowance,
    cpu_basis: bool,
}

impl std::fmt::Display for LimitText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (allowance, note) = (
            self.allowance.describe(),
            self.allowance.first_decision_note(),
        );
        if self.cpu_basis {
            write!(
                f,
                "{CPU_WALL_CAP} times {allowance} in wall time (the limit is on CPU time){note}"
            )
        } else {
            write!(f, "{allowance}{note}")
        }
    }
}

/// The time a decision is charged.
#[derive(Clone, Copy)]
enum Used {
    /// Wall time.
    Wall(Duration),
    /// CPU time, and the wall time it took.
    Cpu { cpu: Duration, wall: Duration },
}

impl Used {
    fn charged(self) -> Duration {
        match self {
            Used::Wall(d) => d,
            Used::Cpu { cpu, .. } => cpu,
        }
    }

    /// How it is told in a fault: "after 1203.4 ms", "after 1203.4 ms of CPU time (1250.0 ms of
    /// wall time)".
    fn describe(self) -> String {
        match self {
            Used::Wall(d) => format!("after {:.1} ms", round_ms(d)),
            Used::Cpu { cpu, wall } => format!(
                "after {:.1} ms of CPU time ({:.1} ms of wall time)",
                round_ms(cpu),
                round_ms(wall)
            ),
        }
    }
}

/// Charges the seat's clock for a reply that took `used` after its request was written (or for
/// the wait that got none) and says whether the reply counts and whether an overrun covered it.
fn judge_time(
    state: &mut SeatState,
    allowance: Allowance,
    used: Used,
    reply: Result<Value, Fault>,
) -> (Result<Value, Fault>, bool) {
    let value = match reply {
        Ok(value) => value,
        Err(fault) => {
            state.clock.spend(used.charged());
            return (Err(fault), false);
        }
    };
    let timing = match used {
        Used::Wall(elapsed) => state.clock.charge(allowance, elapsed),
        Used::Cpu { cpu, .. } => state.clock.charge_cpu(allowance, cpu),
    };
    match timing {
        Timing::InTime => (Ok(value), false),
        Timing::Overrun => (Ok(value), true),
        Timing::Late => {
            let message = format!(
                "the reply came {}, over {}{}",
                used.describe(),
                allowance.describe(),
                allowance.first_decision_note()
            );
            (Err(Fault::new(FaultKind::Timeout, message)), false)
        }
    }
}

/// Reads a bot's reply as an action of the phase to move: a `wrong_shape` fault otherwise.
fn parse_reply<G: Game>(game: &G, turn: Turn, value: &Value) -> Result<G::Action, Fault> {
    game.parse_action(value).map_err(|expected| {
        // The bot's own JSON: its strings may hold anything, shown as JSON escapes.
        let shown = excerpt(&crate::untrusted::json::to_string(value).unwrap_or_default());
        let message = format!(
            "the action {shown} is not a {} action: {expected}",
            turn.phase
        );
        Fault::new(FaultKind::WrongShape, message)
    })
}

/// Checks an action against the rules: an `illegal_action` fault when they forbid it.
fn check_legal<G: Game>(game: &G, action: G::Action) -> Result<G::Action, Fault> {
    match game.check(&action) {
        Ok(()) => Ok(action),
        Err(illegal) => {
            let shown = excerpt(&serde_json::to_string(&action).unwrap_or_default());
            let message = format!("{shown} is illegal: {illegal}");
            Err(Fault::new(FaultKind::IllegalAction, message))
        }
    }
}

/// A duration in milliseconds, to the microsecond.
pub(super) fn round_ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::tally::{Options, Tally};

    const TURN: Turn = Turn {
        seat: 0,
        phase: "say",
    };

    fn tally() -> Tally {
        Tally::new(&Options::default(), 2, 0).unwrap()
    }

    /// A fault that echoes a bot's action shows an excerpt of it, whatever its size.
    #[test]
    fn a_huge_action_is_cut_in_its_fault_message() {
        let huge = "x".repeat(500_000);
        let wrong_shape =
            parse_reply(&tally(), TURN, &serde_json::json!({ "shout": huge })).unwrap_err();
        assert_eq!(wrong_shape.fault, FaultKind::WrongShape);
        assert!(
            wrong_shape.message.len() < 600,
            "{}",
            wrong_shape.message.len()
        );
        assert!(
            wrong_shape
                .message
                .starts_with(r#"the action {"shout":"xxx"#),
            "{}",
            &wrong_shape.message[..50]
        );
        assert!(
            wrong_shape
                .message
                .contains("… (500012 bytes) is not a say action: expected")
        );

        let loud = serde_json::json!({ "say": 42, "note": huge });
        let action = parse_reply(&tally(), TURN, &loud).unwrap();
        let illegal = check_legal(&tally(), action).unwrap_err();
        assert_eq!(illegal.fault, FaultKind::IllegalAction);
        assert!(illegal.message.len() < 600, "{}", illegal.message.len());
        assert!(
            illegal
                .message
                .ends_with("… (500020 bytes) is illegal: say a number from 0 to 9"),
            "{}",
            illegal.message
        );
    }

    #[test]
    fn a_small_action_is_shown_whole() {
        let fault = parse_reply(&tally(), TURN, &serde_json::json!({"table": 1})).unwrap_err();
        assert_eq!(
            fault.message,
            r#"the action {"table":1} is not a say action: expected {"say": N}"#
        );
    }
}
