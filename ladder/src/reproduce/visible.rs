//! What a caller may see of a finished match to reproduce it: the one rule, as a pure
//! function ([`visible_bundle`]); the reasoning is in docs/ladder-reproduce.md.
//!
//! - The **admin** gets everything: every seat's artifact, the whole log and record.
//! - An **owner** gets only a match where one of its versions sat, and only once every match
//!   that shares its seed (its duplicate group) has finished: the seed is in the bundle, and a
//!   seed gives away every deal it draws. Its own seats come with their artifact; every other
//!   seat but a built-in (whose code is the referee's) comes as a stand-in script of its logged
//!   actions, without its artifact or command. The log and the record keep what the seed and
//!   the actions decide (deals, events, actions, the kinds of faults, the result) and the
//!   owner's own seats' everything; of the other seats they lose their stderr, their fault
//!   messages (which can quote stderr) and their timings.

use super::bundle::{Bundle, SeatSource};
use crate::spec::MatchSpec;
use referee::runner::{LogRecord, MatchRecord, SeatStats};
use referee::stand_in::stand_in_script;

/// Who asks for a bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller<'a> {
    /// The ladder's admin: everything.
    Admin,
    /// An owner, by name.
    Owner(&'a str),
}

/// Why a caller may not have a match's bundle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotVisible {
    /// None of the match's seats is the caller's.
    #[error("{owner} has no bot in this match: an owner reproduces only its own matches")]
    NotAtTable {
        /// The caller.
        owner: String,
    },
    /// A match with the same seed (its duplicate group) is still to be played or being
    /// played: the seed would give its deal away.
    #[error(
        "a match with the same deal is still being played: the match can be reproduced once its whole duplicate group has finished"
    )]
    SeedInPlay,
}

/// What a fault message of a seat the caller does not own becomes.
pub const HIDDEN_MESSAGE: &str = "(another owner's bot: its fault's message is its owner's)";

/// What a command of a seat the caller does not own becomes.
pub const HIDDEN_COMMAND: &str = "stand-in";

/// The bundle `caller` may have of the finished match `spec` (its `record` and every record of
/// its `log`); `seed_in_play` says whether a match with the same seed is still queued or being
/// played.
///
/// # Errors
/// [`NotVisible`] for an owner with no seat in the match, or while its seed is in play.
pub fn visible_bundle(
    spec: &MatchSpec,
    record: &MatchRecord,
    log: &[LogRecord],
    caller: Caller<'_>,
    seed_in_play: bool,
) -> Result<Bundle, NotVisible> {
    let builtin = |seat: usize| {
        spec.seats[seat]
            .bot
            .command
            .trim_start()
            .starts_with("builtin:")
    };
    let own = |seat: usize| match caller {
        Caller::Admin => true,
        Caller::Owner(owner) => spec.seats[seat].owner == owner,
    };
    if let Caller::Owner(owner) = caller {
        if !(0..spec.seats.len()).any(own) {
            return Err(NotVisible::NotAtTable {
                owner: owner.to_string(),
            });
        }
        if seed_in_play {
            return Err(NotVisible::SeedInPlay);
        }
    }
    let seats: Vec<SeatSource> = (0..spec.seats.len())
        .map(|seat| match &spec.seats[seat].artifact {
            _ if builtin(seat) => SeatSource::Builtin,
            Some(hash) if own(seat) => SeatSource::Artifact { hash: hash.clone() },
            _ => SeatSource::StandIn {
                steps: stand_in_script(log, seat),
            },
        })
        .collect();
    let hidden = |seat: usize| !own(seat) && !builtin(seat);
    let mut spec = spec.clone();
    for (n, seat) in spec.seats.iter_mut().enumerate() {
        if hidden(n) {
            seat.artifact = None;
            seat.bot.command = HIDDEN_COMMAND.into();
        }
    }
    Ok(Bundle {
        spec,
        record: record_seen(record, &hidden),
        log: log
            .iter()
            .filter_map(|r| record_seen_in_log(r, &hidden))
            .collect(),
        seats,
    })
}

/// `record` without the fault messages and timings of the seats `hidden` says.
fn record_seen(record: &MatchRecord, hidden: &dyn Fn(usize) -> bool) -> MatchRecord {
    let mut record = record.clone();
    for fault in record.faults.iter_mut().filter(|f| hidden(f.seat)) {
        fault.message = HIDDEN_MESSAGE.into();
    }
    for (seat, stats) in record.stats.iter_mut().enumerate() {
        if hidden(seat) {
            *stats = SeatStats {
                decisions: stats.decisions,
                substituted: stats.substituted,
                ejected: stats.ejected,
                forfeited: stats.forfeited,
                ..SeatStats::default()
            };
        }
    }
    record
}

/// A log record as the caller sees it (`None`: not at all), the seats `hidden` says hidden.
fn record_seen_in_log(record: &LogRecord, hidden: &dyn Fn(usize) -> bool) -> Option<LogRecord> {
    let mut record = record.clone();
    match &mut record {
        LogRecord::Header { players, .. } => {
            for (seat, player) in players.iter_mut().enumerate() {
                if hidden(seat) {
                    player.bot = HIDDEN_COMMAND.into();
                    player.hello_name = None;
                }
            }
        }
        LogRecord::Stderr { seat, .. } if hidden(*seat) => return None,
        LogRecord::Fault { seat, message, .. } if hidden(*seat) => {
            *message = HIDDEN_MESSAGE.into();
        }
        LogRecord::Action {
            seat,
            ms,
            overrun,
            cpu_ms,
            ..
        } if hidden(*seat) => {
            *ms = 0.0;
            *overrun = false;
            *cpu_ms = None;
        }
        _ => {}
    }
    Some(record)
}

#[cfg(test)]
#[path = "visible_tests.rs"]
mod tests;
