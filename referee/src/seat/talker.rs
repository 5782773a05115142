//! The bot of a seat that speaks the protocol, whichever kind it is: what the match runner
//! writes to, reads replies from and stops. One `match` per operation here, so that the runner
//! has none.

use super::{
    Fault, LateReply, ProcessBot, RecentStderr, ReplyWait, ScriptedBot, Seat, StderrOverflow,
};
use engine::Game;
use serde_json::Value;
use std::time::Duration;

/// A seat's bot that is spoken to in the protocol.
pub enum Talker<'a> {
    /// A bot process.
    Process(&'a mut ProcessBot),
    /// A scripted bot.
    Scripted(&'a mut ScriptedBot),
}

impl<G: Game> Seat<G> {
    /// The seat's bot, when it speaks the protocol (a process or a script).
    pub fn talker(&mut self) -> Option<Talker<'_>> {
        match self {
            Seat::Process(bot) => Some(Talker::Process(bot)),
            Seat::Scripted(bot) => Some(Talker::Scripted(bot)),
            Seat::Builtin(_) | Seat::Absent => None,
        }
    }

    /// Whether the seat's bot speaks the protocol.
    pub fn talks(&self) -> bool {
        matches!(self, Seat::Process(_) | Seat::Scripted(_))
    }
}

impl Talker<'_> {
    /// Whether the bot is still being spoken to.
    pub fn is_alive(&self) -> bool {
        match self {
            Talker::Process(bot) => bot.is_alive(),
            Talker::Scripted(bot) => bot.is_alive(),
        }
    }

    /// Starts a match whose first request will have id `first_id`
    /// ([`ProcessBot::begin_match`]).
    pub async fn begin_match(&mut self, first_id: u64) {
        match self {
            Talker::Process(bot) => bot.begin_match(first_id).await,
            Talker::Scripted(bot) => bot.wire.begin_match(first_id),
        }
    }

    /// Writes whole lines within `limit` ([`ProcessBot::write`]).
    ///
    /// # Errors
    /// The fault when the bot does not read in time or cannot read any more.
    pub async fn write(&mut self, bytes: &[u8], limit: Duration) -> Result<(), Fault> {
        match self {
            Talker::Process(bot) => bot.write(bytes, limit).await,
            Talker::Scripted(bot) => {
                (bot.wire.write(bytes, limit).await).map_err(|cut| cut.plain_fault(""))
            }
        }
    }

    /// Takes, without waiting, the lines the bot wrote before request `id` is written
    /// ([`ProcessBot::read_before_request`]).
    pub fn read_before_request(&mut self, id: u64, max: usize) -> Vec<Fault> {
        match self {
            Talker::Process(bot) => bot.read_before_request(id, max),
            Talker::Scripted(bot) => bot.wire.read_before_request(id, max),
        }
    }

    /// Reads until the reply to the request `wait` is for ([`ProcessBot::read_reply`]).
    ///
    /// # Errors
    /// The fault that ends the wait.
    pub async fn read_reply(
        &mut self,
        wait: &ReplyWait<'_>,
        noise: &mut Vec<Fault>,
    ) -> Result<Value, Fault> {
        match self {
            Talker::Process(bot) => bot.read_reply(wait, noise).await,
            Talker::Scripted(bot) => {
                (bot.wire.read_reply(wait, noise).await).map_err(|cut| cut.plain_fault(wait.limit))
            }
        }
    }

    /// The late replies to requests that timed out read since the last take
    /// ([`ProcessBot::take_late_replies`]).
    pub fn take_late_replies(&mut self) -> Vec<LateReply> {
        match self {
            Talker::Process(bot) => bot.take_late_replies(),
            Talker::Scripted(bot) => bot.wire.take_late_replies(),
        }
    }

    /// Writes `last`, closes the bot's input, gives it `grace` to end, then stops it
    /// ([`ProcessBot::shutdown`]). Returns whether it ended by itself.
    pub async fn shutdown(&mut self, last: Option<&[u8]>, grace: Duration) -> bool {
        match self {
            Talker::Process(bot) => bot.shutdown(last, grace).await,
            Talker::Scripted(bot) => bot.shutdown(last, grace).await,
        }
    }

    /// The CPU time of all the bot's processes so far ([`ProcessBot::cpu_time`]); `None` for a
    /// script, or without a CPU-accounting control group.
    pub fn cpu_time(&self) -> Option<Duration> {
        match self {
            Talker::Process(bot) => bot.cpu_time(),
            Talker::Scripted(_) => None,
        }
    }

    /// Freezes or thaws the bot's processes ([`ProcessBot::freeze`]); a script is never frozen.
    pub fn freeze(&self, frozen: bool) -> bool {
        match self {
            Talker::Process(bot) => bot.freeze(frozen),
            Talker::Scripted(_) => false,
        }
    }

    /// Opens the stderr budget of a decision, before its request is written
    /// ([`ProcessBot::open_stderr_decision`]); a script has none.
    pub fn open_stderr_decision(&self) {
        if let Talker::Process(bot) = self {
            bot.open_stderr_decision();
        }
    }

    /// What of the bot's stderr went over its budget or its file's cap since the last take
    /// ([`ProcessBot::take_stderr_overflow`]); a script's never does.
    pub fn take_stderr_overflow(&self) -> Option<StderrOverflow> {
        match self {
            Talker::Process(bot) => bot.take_stderr_overflow(),
            Talker::Scripted(_) => None,
        }
    }

    /// What the bot wrote to its standard error since the last take
    /// ([`ProcessBot::take_stderr`]).
    pub async fn take_stderr(&self) -> Option<RecentStderr> {
        match self {
            Talker::Process(bot) => bot.take_stderr().await,
            Talker::Scripted(bot) => bot.take_stderr(),
        }
    }

    /// Stops the bot at once ([`ProcessBot::kill`]).
    pub async fn kill(&mut self) {
        match self {
            Talker::Process(bot) => bot.kill().await,
            Talker::Scripted(bot) => bot.kill().await,
        }
    }
}
