//! A minimal synchronous driver for bots written in Rust: implement [`Bot`], call [`run`].
//!
//! It reads the referee's messages from standard input, answers `hello` and every `request`,
//! forwards everything else to the bot, ignores message types it does not know, and returns on
//! `goodbye` or end of input. It has no dependencies beyond serde.

use crate::{ErrorMsg, FromBot, MatchEnd, MatchStart, Request, ToBot};
use serde::{Serialize, de::DeserializeOwned};
use std::io::{self, BufRead, Write};

/// A bot for one game, with the game's view `V`, action `A` and event `E` types.
pub trait Bot<V, A, E> {
    /// The name sent in the `hello` reply.
    fn name(&self) -> String;
    /// A match begins (seat, players and the seed for the bot's own randomness).
    fn match_start(&mut self, _start: &MatchStart) {}
    /// Choose an action for the request.
    fn decide(&mut self, request: &Request<V, A>) -> A;
    /// Something happened in the match.
    fn event(&mut self, _event: &E) {}
    /// The referee refused something this bot sent (the default prints it to stderr).
    fn error(&mut self, error: &ErrorMsg) {
        eprintln!("referee error: {}: {}", error.fault, error.message);
    }
    /// The match is over.
    fn match_end(&mut self, _end: &MatchEnd) {}
}

/// Runs `bot` over standard input and output until `goodbye` or end of input.
///
/// # Errors
/// Fails only when standard input or output fails; a line it cannot parse is reported on
/// standard error and skipped.
pub fn run<V, A, E>(bot: &mut impl Bot<V, A, E>) -> io::Result<()>
where
    V: DeserializeOwned,
    A: Serialize + DeserializeOwned,
    E: DeserializeOwned,
{
    let stdin = io::stdin().lock();
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    for line in stdin.lines() {
        let line = line?;
        let message: ToBot<V, A, E> = match serde_json::from_str(&line) {
            Ok(message) => message,
            Err(err) => {
                eprintln!("cannot parse a referee message ({err}): {line}");
                continue;
            }
        };
        let reply = match message {
            ToBot::Hello(_) => Some(FromBot::hello(bot.name())),
            ToBot::MatchStart(start) => {
                bot.match_start(&start);
                None
            }
            ToBot::Request(request) => Some(FromBot::action(request.id, bot.decide(&request))),
            ToBot::Event(event) => {
                bot.event(&event.event);
                None
            }
            ToBot::Error(error) => {
                bot.error(&error);
                None
            }
            ToBot::MatchEnd(end) => {
                bot.match_end(&end);
                None
            }
            ToBot::Goodbye(_) => return Ok(()),
            ToBot::Unknown => None,
        };
        if let Some(reply) = reply {
            serde_json::to_writer(&mut stdout, &reply)?;
            stdout.write_all(b"\n")?;
            stdout.flush()?;
        }
    }
    Ok(())
}
