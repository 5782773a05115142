//! Time controls: the per-decision limit, the first decision's allowance, the chess-clock bank
//! with its increment, and soft overruns that tolerate machine noise.
//!
//! A [`Clock`] runs per seat and match. Before each request it says how long the bot is told it
//! has ([`Allowance::told_ms`]) and how long the referee waits ([`Allowance::wait`], longer by the
//! overrun grace while soft overruns are left); after the reply it says whether the reply was in
//! time, a tolerated overrun, or late.

use protocol::Limits;
use std::time::Duration;

/// What a decision's time limit is charged on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeBasis {
    /// Wall time from the request written to the reply read.
    #[default]
    Wall,
    /// The CPU time all of the bot's processes used meanwhile (from its control group), with a
    /// wall-clock cap of [`CPU_WALL_CAP`] times the limit for a bot that blocks.
    Cpu,
}

/// Under [`TimeBasis::Cpu`], how many times its limit a decision may take in wall time.
pub const CPU_WALL_CAP: u32 = 3;

/// A bot's time control (see `docs/time-controls.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The limits the bot is told in `hello`.
    pub limits: Limits,
    /// Replies per match that may come late (by at most `overrun_ms`) without a fault.
    pub overruns: u32,
    /// How late a tolerated reply may be, in milliseconds.
    pub overrun_ms: u64,
    /// What the limit is charged on.
    pub basis: TimeBasis,
    /// Turn isolation: the bot's processes are frozen while it is not on move.
    pub isolate: bool,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            limits: Limits::new(10_000, 1000),
            overruns: 0,
            overrun_ms: 0,
            basis: TimeBasis::Wall,
            isolate: false,
        }
    }
}

/// How long one decision may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Allowance {
    /// The limit, also sent to the bot as `time_left_ms` (rounded down).
    pub limit: Duration,
    /// How long the referee waits for the reply: the limit, plus the overrun grace while the
    /// bot has soft overruns left.
    pub wait: Duration,
    /// Whether a bank is in play: the limit is then the smaller of the per-decision limit and
    /// the time left in the bank.
    pub banked: bool,
    /// On the bot's first decision of the match: whether a first-decision limit
    /// (`first_decision_ms`) lengthened it. `None` on its other decisions.
    pub first: Option<bool>,
}

impl Allowance {
    /// The limit in whole milliseconds, as the request tells it.
    pub fn told_ms(&self) -> u64 {
        self.limit.as_millis() as u64
    }

    /// The limit as fault messages name it: "the time limit of 200 ms", and where it came from
    /// when a bank is in play.
    pub fn describe(&self) -> String {
        let source = if self.banked {
            " (the smaller of the per-decision limit and the time left in the bank)"
        } else {
            ""
        };
        format!("the time limit of {} ms{source}", self.told_ms())
    }

    /// What a timeout's message adds on the bot's first decision of a match: that a
    /// first-decision limit exists, or that it set this one. "" on its other decisions.
    pub fn first_decision_note(&self) -> &'static str {
        match self.first {
            None => "",
            Some(false) => {
                "; it was the bot's first decision of the match: --first-decision-ms MS \
                 (first_decision_ms in a TOML file) gives it longer \
                 (docs/time-controls.md#the-settings)"
            }
            Some(true) => {
                "; it was the bot's first decision of the match, whose limit \
                 --first-decision-ms (first_decision_ms) sets"
            }
        }
    }
}

/// How a reply's timing counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Within the limit.
    InTime,
    /// Over the limit but within the grace, with a soft overrun left: accepted, and one overrun
    /// is used up.
    Overrun,
    /// Over the limit with no overrun to cover it: a timeout.
    Late,
}

/// One seat's clock for one match.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    bank_left: Option<Duration>,
    overruns_left: u32,
    first: bool,
}

impl Clock {
    /// A full clock at the start of a match.
    pub fn new(control: TimeControl) -> Self {
        Clock {
            control,
            bank_left: control.limits.bank_ms.map(Duration::from_millis),
            overruns_left: control.overruns,
            first: true,
        }
    }

    /// The time control it runs.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The allowance for the next decision.
    pub fn allowance(&self) -> Allowance {
        let limits = &self.control.limits;
        let per_decision = if self.first {
            limits
                .first_decision_ms
                .unwrap_or(0)
                .max(limits.decision_ms)
        } else {
            limits.decision_ms
        };
        let mut limit = Duration::from_millis(per_decision);
        if let Some(bank) = self.bank_left {
            limit = limit.min(bank);
        }
        let grace = if self.overruns_left > 0 {
            Duration::from_millis(self.control.overrun_ms)
        } else {
            Duration::ZERO
        };
        Allowance {
            limit,
            wait: limit + grace,
            banked: self.bank_left.is_some(),
            first: self
                .first
                .then_some(limits.first_decision_ms.unwrap_or(0) > limits.decision_ms),
        }
    }

    /// Charges a reply that was read `elapsed` after its request was written, before the
    /// referee stopped waiting (`allowance.wait`). With no grace to wait for, a reply read in
    /// the wait is in time even if the measurement, taken just after, shows a hair more: the
    /// deadline decides, not the referee's own scheduling.
    pub fn charge(&mut self, allowance: Allowance, elapsed: Duration) -> Timing {
        self.judge(allowance, elapsed, allowance.wait == allowance.limit)
    }

    /// Charges a reply that used `cpu` of CPU time ([`TimeBasis::Cpu`]): no deadline decided
    /// it, so it is judged on the CPU time alone.
    pub fn charge_cpu(&mut self, allowance: Allowance, cpu: Duration) -> Timing {
        self.judge(allowance, cpu, false)
    }

    /// In time within the limit (or whenever `in_time` says the wait decided), an overrun
    /// within the grace while overruns are left, else late; `used` goes to the bank.
    fn judge(&mut self, allowance: Allowance, used: Duration, in_time: bool) -> Timing {
        let timing = if used <= allowance.limit || in_time {
            Timing::InTime
        } else if self.overruns_left > 0 && used <= allowance.wait {
            self.overruns_left -= 1;
            Timing::Overrun
        } else {
            Timing::Late
        };
        self.spend(used);
        timing
    }

    /// Soft overruns left in this match.
    pub fn overruns_left(&self) -> u32 {
        self.overruns_left
    }

    /// Charges `used` to the bank (if any) without judging it: a decision that got no usable
    /// reply.
    pub fn spend(&mut self, used: Duration) {
        self.first = false;
        if let Some(bank) = self.bank_left.as_mut() {
            let increment = Duration::from_millis(self.control.limits.increment_ms.unwrap_or(0));
            *bank = bank.saturating_sub(used) + increment;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn control(decision_ms: u64) -> TimeControl {
        TimeControl {
            limits: Limits::new(1000, decision_ms),
            ..TimeControl::default()
        }
    }

    #[test]
    fn the_first_decision_of_a_match_gets_its_own_allowance() {
        let mut tc = control(100);
        tc.limits.first_decision_ms = Some(2000);
        let mut clock = Clock::new(tc);
        let first = clock.allowance();
        assert_eq!((first.limit, first.told_ms()), (ms(2000), 2000));
        assert_eq!(first.describe(), "the time limit of 2000 ms");
        assert_eq!(clock.charge(first, ms(1500)), Timing::InTime);
        assert_eq!(clock.allowance().limit, ms(100));
        // A first-decision allowance shorter than the per-decision limit never shortens it.
        tc.limits.first_decision_ms = Some(10);
        assert_eq!(Clock::new(tc).allowance().limit, ms(100));
    }

    #[test]
    fn the_bank_runs_down_and_the_increment_tops_it_up() {
        let mut tc = control(500);
        tc.limits.bank_ms = Some(700);
        tc.limits.increment_ms = Some(50);
        let mut clock = Clock::new(tc);
        // The per-decision limit caps a decision while the bank holds more.
        let a = clock.allowance();
        assert_eq!(a.limit, ms(500));
        assert_eq!(clock.charge(a, ms(400)), Timing::InTime);
        // 700 - 400 + 50 = 350 left: now the bank is the tighter limit.
        let a = clock.allowance();
        assert_eq!(a.limit, ms(350));
        assert_eq!(
            a.describe(),
            "the time limit of 350 ms (the smaller of the per-decision limit and the time left in the bank)"
        );
        assert_eq!(clock.charge(a, ms(350)), Timing::InTime);
        // An empty bank gives just the increment.
        assert_eq!(clock.allowance().limit, ms(50));
        clock.spend(clock.allowance().wait);
        assert_eq!(clock.allowance().limit, ms(50));
    }

    #[test]
    fn soft_overruns_tolerate_late_replies_until_they_are_used_up() {
        let mut tc = control(100);
        tc.overruns = 2;
        tc.overrun_ms = 50;
        let mut clock = Clock::new(tc);
        let a = clock.allowance();
        assert_eq!((a.limit, a.wait), (ms(100), ms(150)));
        assert_eq!(clock.charge(a, ms(120)), Timing::Overrun);
        // Beyond the grace is late even with overruns left, and uses none.
        assert_eq!(clock.charge(a, ms(151)), Timing::Late);
        assert_eq!(clock.overruns_left(), 1);
        assert_eq!(clock.charge(a, ms(149)), Timing::Overrun);
        // None left: no grace is waited for; what is read before the deadline is in time (the
        // measurement may show a hair more), and anything later never arrives: a timeout.
        let a = clock.allowance();
        assert_eq!(a.wait, ms(100));
        assert_eq!(clock.charge(a, ms(100)), Timing::InTime);
        assert_eq!(
            clock.charge(a, Duration::from_micros(100_300)),
            Timing::InTime
        );
    }
}
