//! A window of the ladder as a tournament results directory (`referee ladder export`): the
//! files `referee tournament` writes, with the schedule `ladder`
//! ([`Ladder`](referee::tournament::format::Ladder)), so that `referee leaderboard`, `report`
//! and `merge` read it and a class's final standings are the tournament's own code.
//!
//! - `tournament.json`: the game, its options, the fault limit and policy of the matches, the
//!   versions that played as the bots (seat names `BOT.vN`, by version id), and from the
//!   ladder ([`Ladder`]): `players` its largest table (fewer if fewer versions played),
//!   `matches` one past its last match id
//!   (a window is a shard of the ladder's matches so far), its `seed` (every match's own seed
//!   is in its record) and `duplicate`;
//! - `matches.jsonl`: each match's record, under its id and group, in id order;
//! - `stderr/BOT.vN.ID.stderr`: what each seat's process wrote during match ID (one file per
//!   match and seat, its range the whole file), where given;
//! - `logs/ID.jsonl`: each match's log, where given.
//!
//! The directory holds every seat's stderr and the logs' hidden information: it is the
//! admin's. Two windows merge (`referee merge`) when their identities agree, as two shards of
//! a tournament do: exported with the same [`Ladder`], the same versions having played in
//! each.

use crate::spec::MatchSpec;
use referee::runner::MatchRecord;
use referee::safe_fs::{FileError, Privacy, SafeDir, is_plain_name};
use referee::tournament::bounds::{BadResult, ResultCheck, check_meta};
use referee::tournament::results::{
    LOGS_DIR, META_FILE, MatchResult, MetaBot, ResultsError, ResultsFile, STDERR_DIR, StderrRange,
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

/// What the export says of the ladder the window is taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ladder {
    /// Its largest table (`max_players`).
    pub players: usize,
    /// One past its last match id: the size of the "schedule" the window is a shard of.
    pub matches: u64,
    /// Its seed.
    pub seed: u64,
    /// Whether its tables are duplicate groups.
    pub duplicate: bool,
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
    /// A window whose identity the results file would refuse (a game this referee lacks…).
    #[error("the window cannot be a tournament: {0}")]
    Identity(String),
    /// A match of more seats than the ladder's largest table, or an id past its last.
    #[error("match {0} is beyond the ladder's largest table or its last match")]
    Beyond(u64),
    /// A record the results file would not read back.
    #[error("match {id}: {message}")]
    Record {
        /// The match.
        id: u64,
        /// What is wrong.
        message: String,
    },
    /// The output directory already holds a tournament.
    #[error("{} already holds a tournament: export into a new directory", .0.display())]
    Exists(std::path::PathBuf),
    /// The output directory cannot be written.
    #[error(transparent)]
    Results(#[from] ResultsError),
}

impl From<FileError> for ExportError {
    fn from(e: FileError) -> Self {
        ExportError::Results(e.into())
    }
}

/// Writes `matches` (any order), a window of `ladder`, as a tournament results directory at
/// `out` (made if missing, private; refused if it already holds results).
///
/// # Errors
/// [`ExportError`] for an empty or inconsistent window, or a directory that cannot be
/// written.
pub fn export(
    matches: &[ExportedMatch],
    ladder: &Ladder,
    out: &Path,
) -> Result<Exported, ExportError> {
    let ordered = in_order(matches);
    let meta = meta(&ordered, ladder)?;
    write_results(&meta, &ordered, out)
}

/// `matches` in id order.
pub(crate) fn in_order(matches: &[ExportedMatch]) -> Vec<&ExportedMatch> {
    let mut ordered: Vec<&ExportedMatch> = matches.iter().collect();
    ordered.sort_by_key(|m| m.id);
    ordered
}

/// The results of `ordered` as `meta`'s tournament reads them back, each checked.
pub(crate) fn results_of(
    meta: &TournamentMeta,
    ordered: &[&ExportedMatch],
) -> Result<Vec<MatchResult>, ExportError> {
    let check = ResultCheck::new(meta);
    ordered.iter().map(|m| result(m, &check)).collect()
}

/// Writes `ordered` (in id order) as the results directory of `meta` at `out`.
pub(crate) fn write_results(
    meta: &TournamentMeta,
    ordered: &[&ExportedMatch],
    out: &Path,
) -> Result<Exported, ExportError> {
    let results = results_of(meta, ordered)?;
    let dir = SafeDir::create(out, Privacy::Private)?;
    if dir.holds(META_FILE)? {
        return Err(ExportError::Exists(out.to_path_buf()));
    }
    let (mut file, _) = ResultsFile::open(&dir, meta, false)?;
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

/// Refuses match `m` if it was played under other settings than `first`, or if its record's
/// players are not its seats' names.
pub(crate) fn same_settings(first: &ExportedMatch, m: &ExportedMatch) -> Result<(), ExportError> {
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
    Ok(())
}

/// The identity of the window: the first match's settings, which every other must share.
fn meta(ordered: &[&ExportedMatch], ladder: &Ladder) -> Result<TournamentMeta, ExportError> {
    let first = ordered.first().ok_or(ExportError::Empty)?;
    let mut bots: BTreeMap<(i64, String), MetaBot> = BTreeMap::new();
    let mut previous: Option<u64> = None;
    for m in ordered {
        if previous == Some(m.id) {
            return Err(ExportError::TwiceGiven(m.id));
        }
        previous = Some(m.id);
        if m.id >= ladder.matches || m.spec.seats.len() > ladder.players {
            return Err(ExportError::Beyond(m.id));
        }
        same_settings(first, m)?;
        for seat in &m.spec.seats {
            let known = bots
                .entry((seat.version, seat.bot.name.clone()))
                .or_insert_with(|| seat.bot.clone());
            if *known != seat.bot {
                return Err(ExportError::TwoBots(seat.bot.name.clone()));
            }
        }
    }
    let field = bots.len();
    let meta = TournamentMeta {
        game: first.spec.game.clone(),
        options: first.spec.options.clone(),
        bots: bots.into_values().collect(),
        // A window of fewer versions than the largest table seats no more than them.
        players: ladder.players.min(field),
        format: FormatSpec::from(ScheduleKind::Ladder),
        candidate: None,
        matches: ladder.matches,
        seed: ladder.seed,
        duplicate: ladder.duplicate,
        max_faults: first.spec.max_faults,
        policy: first.spec.policy,
    };
    check_meta(&meta)
        .map_err(|bad| ExportError::Identity(format!("{}: {}", bad.field, bad.message)))?;
    Ok(meta)
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

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
