//! `referee merge DIR... --out OUT`: the results directories of one tournament's shards
//! combined — each match id once, from the first directory that has it — and, with an output
//! directory, written there with the stderr files and logs of the matches added
//! ([`Carry`]), so that the merged directory reads (leaderboard, report, rerun) as one run's
//! does. Merging into a directory that already holds some of the matches adds only the
//! others: it can be run again as more shards finish.

use super::carry::{Carry, Skipped, carry_verdicts};
use super::match_result::MatchResult;
use super::meta::{TournamentMeta, difference};
use super::results::{ReadBack, ResultsFile, made_private, read_back};
use super::results_error::ResultsError;
use crate::safe_fs::{MadePrivate, Privacy, SafeDir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why shards cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No directory was given.
    #[error("no results directory to merge")]
    Nothing,
    /// A directory that cannot be read back, or an output that cannot be written.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// Two directories of different tournaments.
    #[error("{} and {} are not shards of one tournament ({what} differs)", first.display(), other.display())]
    NotShards {
        /// The first directory.
        first: PathBuf,
        /// The one that differs from it.
        other: PathBuf,
        /// The first setting that differs.
        what: &'static str,
    },
}

/// The shards merged.
#[derive(Debug)]
pub struct Merged {
    /// The tournament.
    pub meta: TournamentMeta,
    /// Every match found, by id (as the shards record them).
    pub results: BTreeMap<u64, MatchResult>,
    /// What was written to the output directory, if one was given.
    pub written: Option<MergeWritten>,
}

impl Merged {
    /// Scheduled matches that are in none of the directories.
    pub fn missing(&self) -> u64 {
        self.meta.matches.saturating_sub(self.results.len() as u64)
    }
}

/// What a merge wrote to its output directory.
#[derive(Debug)]
pub struct MergeWritten {
    /// The directory, when other users could read it until the merge made it private.
    pub made_private: Option<MadePrivate>,
    /// Matches added (those it already held are left as they are).
    pub added: u64,
    /// Stderr files copied.
    pub stderr_files: u64,
    /// Match logs copied.
    pub logs: u64,
    /// Files of the shards not copied, and why.
    pub skipped: Vec<Skipped>,
}

/// Merges the results directories `dirs`, and writes the union into `out` if given (made
/// [private](Privacy::Private) where missing).
///
/// # Errors
/// [`MergeError`] for a directory that cannot be read back, directories of different
/// tournaments, or an output that cannot be written (or holds another tournament).
pub fn merge(dirs: &[PathBuf], out: Option<&Path>) -> Result<Merged, MergeError> {
    let mut shards: Vec<ReadBack> = Vec::with_capacity(dirs.len());
    for path in dirs {
        let shard = read_back(path)?;
        if let Some(first) = shards.first()
            && let Some(what) = difference(&first.meta, &shard.meta)
        {
            return Err(MergeError::NotShards {
                first: dirs[0].clone(),
                other: path.clone(),
                what,
            });
        }
        shards.push(shard);
    }
    let meta = shards.first().ok_or(MergeError::Nothing)?.meta.clone();
    // Each id from the first directory that has it.
    let mut found: BTreeMap<u64, usize> = BTreeMap::new();
    for (k, shard) in shards.iter().enumerate() {
        for &id in shard.results.keys() {
            found.entry(id).or_insert(k);
        }
    }
    let written = out
        .map(|out| write(out, &meta, &shards, &found))
        .transpose()?;
    let results = found
        .into_iter()
        .map(|(id, k)| (id, shards[k].results[&id].clone()))
        .collect();
    Ok(Merged {
        meta,
        results,
        written,
    })
}

/// Writes the matches `found` (by id, the shard each is taken from) that `out` does not hold
/// yet, with their files.
fn write(
    out: &Path,
    meta: &TournamentMeta,
    shards: &[ReadBack],
    found: &BTreeMap<u64, usize>,
) -> Result<MergeWritten, ResultsError> {
    let dir = SafeDir::create(out, Privacy::Private)?;
    let made_private = made_private(&dir)?;
    let (mut file, existing) = ResultsFile::open(&dir, meta, true)?;
    let mut carry = Carry::new(&dir);
    let mut added = 0;
    for (&id, &k) in found {
        if existing.contains_key(&id) {
            continue;
        }
        let shard = &shards[k];
        let result = carry.carry(k, &shard.dir, &shard.results[&id])?;
        file.append(&result)?;
        added += 1;
    }
    // Each bot's check verdict, from the first shard that kept one.
    for shard in shards {
        carry_verdicts(&shard.dir, &dir, meta.bots.iter().map(|b| b.name.as_str()))?;
    }
    Ok(MergeWritten {
        made_private,
        added,
        stderr_files: carry.stderr_files,
        logs: carry.logs_copied,
        skipped: carry.skipped,
    })
}
