//! A window of the ladder as a tournament results directory (`referee ladder export`): the
//! files `referee tournament` writes, with the schedule `ladder`
//! ([`Ladder`](referee::tournament::format::Ladder)), so that `referee leaderboard`, `report`
//! and `merge` read it and a class's final standings are the tournament's own code.
//!
//! - `tournament.json`: the game, its options, the fault limit and policy of the matches, the
//!   versions that played as the bots (seat names `BOT.vN`, by version id), `players` the
//!   largest table, `matches` one more than the largest match id, `seed` 0 (every match's own
//!   seed is in its record) and `duplicate` whether a group holds more than one match;
//! - `matches.jsonl`: each match's record, under its id and group, in id order;
//! - `stderr/BOT.vN.ID.stderr`: what each seat's process wrote during match ID (one file per
//!   match and seat, its range the whole file), where given;
//! - `logs/ID.jsonl`: each match's log, where given.
//!
//! The directory holds every seat's stderr and the logs' hidden information: it is the
//! admin's. Two exports merge (`referee merge`) when their identities agree, as two shards of
//! a tournament do: the same versions, game, options and policy.

use crate::spec::MatchSpec;
use referee::runner::MatchRecord;
use referee::safe_fs::{FileError, Privacy, SafeDir, is_plain_name};
use referee::tournament::bounds::{BadResult, ResultCheck};
use referee::tournament::results::{
    LOGS_DIR, MatchResult, MetaBot, ResultsError, ResultsFile, STDERR_DIR, StderrRange,
    TournamentMeta,
};
use referee::tournament::{FormatSpec, ScheduleKind};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// One finished match of the window, as the store holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedMatch {
    /// Its id (unique in the window; the results file is in id order).
    pub id: u64,
    /// Its duplicate group (the matches of one group share a deal seed).
    pub group: u64,
    /// How it was played.
    pub spec: MatchSpec,
    /// What it left (players are the seat names, `BOT.vN`).
    pub record: MatchRecord,
    /// Its log (JSON Lines), if kept.
    pub log: Option<Vec<u8>>,
    /// What seats' processes wrote to stderr during it, by seat name.
    pub stderr: Vec<(String, Vec<u8>)>,
}

/// What an export wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Matches written.
    pub matches: u64,
    /// Versions in the field.
    pub bots: usize,
    /// Logs written.
    pub logs: u64,
    /// Stderr files written.
    pub stderr_files: u64,
}

/// Why a window cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// No match in the window.
    #[error("no match to export")]
    Empty,
    /// Two matches with one id.
    #[error("match {0} is given twice")]
    TwiceGiven(u64),
    /// A match played under other settings than the first one.
    #[error(
        "match {id} was played with another {what} than match {first}: a window of one ladder's settings is exported"
    )]
    Mixed {
        /// The match.
        id: u64,
        /// The first match of the window.
        first: u64,
        /// What differs.
        what: &'static str,
    },
    /// A record whose players are not its spec's seats.
    #[error("match {0}: its record's players are not its seats' names")]
    Seats(u64),
    /// One name, two bots (another command or other limits).
    #[error("'{0}' is seated with two different settings")]
    TwoBots(String),
    /// Stderr of a name that is no seat of its match, or not a plain name.
    #[error("match {id}: stderr of '{seat}', who is not one of its seats")]
    Stranger {
        /// The match.
        id: u64,
        /// The name given.
        seat: String,
    },
    /// A record the results file would not read back.
    #[error("match {id}: {message}")]
    Record {
        /// The match.
        id: u64,
        /// What is wrong.
        message: String,
    },
    /// The output directory cannot be written, or already holds results.
    #[error(transparent)]
    Results(#[from] ResultsError),
}

impl From<FileError> for ExportError {
    fn from(e: FileError) -> Self {
        ExportError::Results(e.into())
    }
}

/// Writes `matches` (any order) as a tournament results directory at `out` (made if missing,
/// private; refused if it already holds results).
///
/// # Errors
/// [`ExportError`] for an empty or inconsistent window, or a directory that cannot be
/// written.
pub fn export(matches: &[ExportedMatch], out: &Path) -> Result<Exported, ExportError> {
    let mut ordered: Vec<&ExportedMatch> = matches.iter().collect();
    ordered.sort_by_key(|m| m.id);
    let meta = meta(&ordered)?;
    let check = ResultCheck::new(&meta);
    let results: Vec<MatchResult> = ordered
        .iter()
        .map(|m| result(m, &check))
        .collect::<Result<_, _>>()?;
    let dir = SafeDir::create(out, Privacy::Private)?;
    let (mut file, _) = ResultsFile::open(&dir, &meta, false)?;
    let stderr_dir = dir.make_subdir(STDERR_DIR)?;
    let mut written = Exported {
        matches: 0,
        bots: meta.bots.len(),
        logs: 0,
        stderr_files: 0,
    };
    for (m, result) in ordered.iter().zip(&results) {
        for (seat, bytes) in &m.stderr {
            write(&stderr_dir, &stderr_file(seat, m.id), bytes)?;
            written.stderr_files += 1;
        }
        if let Some(log) = &m.log {
            let logs = dir.make_subdir(LOGS_DIR)?;
            write(&logs, &format!("{}.jsonl", m.id), log)?;
            written.logs += 1;
        }
        file.append(result)?;
        written.matches += 1;
    }
    Ok(written)
}

/// The identity of the window: the first match's settings, which every other must share.
fn meta(ordered: &[&ExportedMatch]) -> Result<TournamentMeta, ExportError> {
    let first = ordered.first().ok_or(ExportError::Empty)?;
    let mut bots: BTreeMap<(i64, String), MetaBot> = BTreeMap::new();
    let mut previous: Option<u64> = None;
    for m in ordered {
        if previous == Some(m.id) {
            return Err(ExportError::TwiceGiven(m.id));
        }
        previous = Some(m.id);
        let (a, b) = (&first.spec, &m.spec);
        let mixed = [
            ("game", a.game == b.game),
            ("options", a.options == b.options),
            ("max_faults", a.max_faults == b.max_faults),
            ("policy", a.policy == b.policy),
        ]
        .into_iter()
        .find(|(_, same)| !same);
        if let Some((what, _)) = mixed {
            return Err(ExportError::Mixed {
                id: m.id,
                first: first.id,
                what,
            });
        }
        let names: Vec<&str> = m.spec.seats.iter().map(|s| s.bot.name.as_str()).collect();
        if names != m.record.players {
            return Err(ExportError::Seats(m.id));
        }
        for seat in &m.spec.seats {
            let known = bots
                .entry((seat.version, seat.bot.name.clone()))
                .or_insert_with(|| seat.bot.clone());
            if *known != seat.bot {
                return Err(ExportError::TwoBots(seat.bot.name.clone()));
            }
        }
    }
    let mut groups: BTreeMap<u64, u32> = BTreeMap::new();
    for m in ordered {
        *groups.entry(m.group).or_default() += 1;
    }
    Ok(TournamentMeta {
        game: first.spec.game.clone(),
        options: first.spec.options.clone(),
        bots: bots.into_values().collect(),
        players: ordered
            .iter()
            .map(|m| m.spec.seats.len())
            .max()
            .unwrap_or(0),
        format: FormatSpec::from(ScheduleKind::Ladder),
        candidate: None,
        matches: ordered.last().map_or(0, |m| m.id.saturating_add(1)),
        seed: 0,
        duplicate: groups.values().any(|&n| n > 1),
        max_faults: first.spec.max_faults,
        policy: first.spec.policy,
    })
}

/// The line of `matches.jsonl` of match `m`, checked as `referee leaderboard` will read it.
fn result(m: &ExportedMatch, check: &ResultCheck<'_>) -> Result<MatchResult, ExportError> {
    let players = &m.record.players;
    let mut stderr: Vec<Option<StderrRange>> = vec![None; players.len()];
    for (seat, bytes) in &m.stderr {
        let file = stderr_file(seat, m.id);
        let at = players.iter().position(|p| p == seat);
        let (Some(at), true) = (at, is_plain_name(&file)) else {
            return Err(ExportError::Stranger {
                id: m.id,
                seat: seat.clone(),
            });
        };
        stderr[at] = Some(StderrRange {
            file,
            from: 0,
            to: bytes.len() as u64,
        });
    }
    if stderr.iter().all(Option::is_none) {
        stderr.clear();
    }
    let result = MatchResult {
        id: m.id,
        group: m.group,
        record: m.record.clone(),
        stderr,
    };
    check.check(&result).map_err(|bad| ExportError::Record {
        id: m.id,
        message: match bad {
            BadResult::Foreign(message) | BadResult::OutOfBounds(message) => message,
        },
    })?;
    Ok(result)
}

/// The name in `stderr/` of what `seat` wrote during match `id`.
fn stderr_file(seat: &str, id: u64) -> String {
    format!("{seat}.{id}.stderr")
}

fn write(dir: &SafeDir, name: &str, bytes: &[u8]) -> Result<(), ExportError> {
    let path = dir.path_of(name);
    dir.create_file(name)?
        .write_all(bytes)
        .map_err(|source| ResultsError::Io { path, source }.into())
}
