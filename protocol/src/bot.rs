//! A minimal synchronous driver for bots written in Rust: implement [`Bot`], call [`run`].
//!
//! It reads the referee's messages from standard input, answers `hello` and every `request`,
//! forwards everything else to the bot, ignores message types it does not know, and returns on
//! `goodbye` or end of input. It has no dependencies beyond serde.

use crate::{ErrorMsg, EventMsg, FromBot, Hello, MatchEnd, MatchStart, Request};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
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
    /// Whether the bot looks at events. A bot that does not (it decides from the view alone)
    /// returns `false`: its `hello` reply then asks the referee to send no events at all.
    fn wants_events(&self) -> bool {
        true
    }
    /// Whether the bot takes its view as changes ([`crate::ViewMode::Delta`]): then every
    /// request of a match after its first carries in `view` only what changed, as a merge patch
    /// ([`crate::merge_patch`]) with `delta` set, and the bot keeps the whole view itself. A bot
    /// that never reads the view (it plays from the legal list) saves reading it whole.
    fn wants_delta(&self) -> bool {
        false
    }
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
    let mut stdin = stdin;
    // One buffer for every line.
    let mut buffer = String::new();
    loop {
        buffer.clear();
        if stdin.read_line(&mut buffer)? == 0 {
            return Ok(());
        }
        let line = buffer.trim_end_matches(['\n', '\r']);
        if line.is_empty() {
            continue;
        }
        let reply = match handle(bot, line) {
            Ok(Handled::Reply(reply)) => Some(reply),
            Ok(Handled::Nothing) => None,
            Ok(Handled::Goodbye) => return Ok(()),
            Err(err) => {
                eprintln!("cannot parse a referee message ({err}): {line}");
                continue;
            }
        };
        if let Some(reply) = reply {
            serde_json::to_writer(&mut stdout, &reply)?;
            stdout.write_all(b"\n")?;
            stdout.flush()?;
        }
    }
}

/// What one message asks of the driver.
enum Handled<A> {
    Reply(FromBot<A>),
    Nothing,
    Goodbye,
}

/// Only the `type` of a message: read first, so that each message is then parsed straight into
/// its own struct (no buffering of the whole message, as a tagged enum would need), and events
/// not at all for a bot that does not want them.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
}

/// The message's type when the line starts with it, as the referee writes every message
/// (`{"type":"request",...`): read without a pass over the whole line. Any other layout is
/// left to the full parse.
fn kind_up_front(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(r#"{"type":""#)?;
    let kind = &rest[..rest.find('"')?];
    (!kind.contains('\\')).then_some(kind)
}

fn handle<V, A, E>(bot: &mut impl Bot<V, A, E>, line: &str) -> serde_json::Result<Handled<A>>
where
    V: DeserializeOwned,
    A: Serialize + DeserializeOwned,
    E: DeserializeOwned,
{
    let kind = match kind_up_front(line) {
        Some(kind) => std::borrow::Cow::Borrowed(kind),
        None => serde_json::from_str::<Envelope>(line)?.kind,
    };
    Ok(match kind.as_ref() {
        "hello" => {
            let _: Hello = serde_json::from_str(line)?;
            let mut hello = FromBot::hello(bot.name());
            if let FromBot::Hello(reply) = &mut hello {
                reply.events = (!bot.wants_events()).then_some(false);
                reply.view = bot.wants_delta().then_some(crate::ViewMode::Delta);
            }
            Handled::Reply(hello)
        }
        "match_start" => {
            bot.match_start(&serde_json::from_str::<MatchStart>(line)?);
            Handled::Nothing
        }
        "request" => {
            let request: Request<V, A> = serde_json::from_str(line)?;
            Handled::Reply(FromBot::action(request.id, bot.decide(&request)))
        }
        "event" if bot.wants_events() => {
            bot.event(&serde_json::from_str::<EventMsg<E>>(line)?.event);
            Handled::Nothing
        }
        "error" => {
            bot.error(&serde_json::from_str::<ErrorMsg>(line)?);
            Handled::Nothing
        }
        "match_end" => {
            bot.match_end(&serde_json::from_str::<MatchEnd>(line)?);
            Handled::Nothing
        }
        "goodbye" => Handled::Goodbye,
        // Events a bot does not want, and message types this driver does not know.
        _ => Handled::Nothing,
    })
}

#[cfg(test)]
mod tests {
    use super::kind_up_front;

    #[test]
    fn the_type_is_read_up_front_only_in_the_referees_layout() {
        assert_eq!(
            kind_up_front(r#"{"type":"request","id":1}"#),
            Some("request")
        );
        assert_eq!(kind_up_front(r#"{ "type": "request"}"#), None);
        assert_eq!(kind_up_front(r#"{"id":1,"type":"request"}"#), None);
        assert_eq!(kind_up_front(r#"{"type":"req\"x"}"#), None);
    }
}
