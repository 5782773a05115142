//! A bundle: what a caller gets to reproduce one ladder match ([`super::visible_bundle`] says
//! what), in memory and as a directory:
//!
//! ```text
//! DIR/spec.json            the match's spec (MatchSpec)
//! DIR/record.json          its recorded result (MatchRecord)
//! DIR/log.jsonl            its recorded log, as the caller may see it
//! DIR/artifacts/HASH/…     a seat's unpacked artifact, for the seats whose code the caller has
//! DIR/stand-in/SEAT.jsonl  a seat's stand-in script, for the others
//! DIR/run/SEAT/            made by each reproduction: the seats' working directories
//! ```
//!
//! [`Bundle::write`] writes all but the artifacts, which the caller fetches by their hash and
//! unpacks into [`artifact_dir`]. A seat's source is read back from what is there: a stand-in
//! script, else a built-in (`builtin:NAME`), else its artifact. The directory is read as
//! untrusted input (a server, or a person, made it): beneath its descriptor, no link
//! followed, each file within its bound.

use super::error::ReproduceError;
use crate::spec::MatchSpec;
use referee::runner::{LogRecord, MatchRecord};
use referee::safe_fs::limits::{LOG_FILE_BYTES, LOG_LINE_BYTES, META_BYTES, RESULT_LINE_BYTES};
use referee::safe_fs::{BoundedLines, FileError, FileErrorKind, Privacy, SafeDir};
use referee::stand_in::{StandInStep, read_script, write_script};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The spec's file in a bundle.
pub const SPEC_FILE: &str = "spec.json";
/// The record's file.
pub const RECORD_FILE: &str = "record.json";
/// The log's file.
pub const LOG_FILE: &str = "log.jsonl";
/// The directory of the artifacts, each in `HASH/`.
pub const ARTIFACTS_DIR: &str = "artifacts";
/// The directory of the stand-ins' scripts, each `SEAT.jsonl`.
pub const STAND_IN_DIR: &str = "stand-in";
/// The directory a reproduction makes its seats' working directories in.
pub const RUN_DIR: &str = "run";

/// What plays a seat when the match is played again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum SeatSource {
    /// The seat's own code: its artifact, by its sha256, unpacked in `artifacts/HASH/`.
    Artifact {
        /// The artifact's sha256.
        hash: String,
    },
    /// A built-in bot: its code is the referee's.
    Builtin,
    /// A stand-in that replays the seat's logged actions.
    StandIn {
        /// Its script.
        steps: Vec<StandInStep>,
    },
}

/// What a caller gets to reproduce one match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    /// The match's spec (the seats the caller may not see without their artifact and command).
    pub spec: MatchSpec,
    /// Its recorded result.
    pub record: MatchRecord,
    /// Its recorded log, every record in order, as the caller may see it.
    pub log: Vec<LogRecord>,
    /// What plays each seat, by seat.
    pub seats: Vec<SeatSource>,
}

/// Where a bundle in `dir` holds the unpacked artifact `hash`.
pub fn artifact_dir(dir: &Path, hash: &str) -> PathBuf {
    dir.join(ARTIFACTS_DIR).join(hash)
}

/// Whether `hash` is a sha256 as the ladder names artifacts: 64 lowercase hex digits.
pub fn is_sha256(hash: &str) -> bool {
    hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl Bundle {
    /// Writes the bundle into `dir` (made, for the caller alone: the log holds every hand),
    /// all but the artifacts ([`artifact_dir`] says where each goes).
    ///
    /// # Errors
    /// [`ReproduceError::File`] when the directory or a file cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), ReproduceError> {
        let out = SafeDir::create(dir, Privacy::Private)?;
        out.replace_file(SPEC_FILE, &json(&self.spec), false)?;
        out.replace_file(RECORD_FILE, &json(&self.record), false)?;
        let mut log = Vec::new();
        for record in &self.log {
            log.extend(json(record));
            log.push(b'\n');
        }
        out.replace_file(LOG_FILE, &log, false)?;
        let stand_ins: Vec<(usize, &Vec<StandInStep>)> = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(seat, source)| match source {
                SeatSource::StandIn { steps } => Some((seat, steps)),
                _ => None,
            })
            .collect();
        if !stand_ins.is_empty() {
            let scripts = match out.subdir(STAND_IN_DIR)? {
                Some(scripts) => scripts,
                None => out.make_subdir(STAND_IN_DIR)?,
            };
            for (seat, steps) in stand_ins {
                let mut text = Vec::new();
                write_script(steps, &mut text).expect("writing to memory does not fail");
                scripts.replace_file(&script_name(&self.spec, seat)?, &text, false)?;
            }
        }
        Ok(())
    }

    /// Reads the bundle in `dir`, each seat's source from what is there (a stand-in script,
    /// else a built-in, else the seat's artifact, which must be unpacked there).
    ///
    /// # Errors
    /// [`ReproduceError`]: a file missing, unreadable or not what it should be, a seat with no
    /// source.
    pub fn read(dir: &Path) -> Result<Self, ReproduceError> {
        let input = SafeDir::open(dir)?;
        let spec: MatchSpec = read_json(&input, SPEC_FILE, META_BYTES)?;
        let record: MatchRecord = read_json(&input, RECORD_FILE, RESULT_LINE_BYTES as u64)?;
        let log = read_log(&input)?;
        let scripts = input.subdir(STAND_IN_DIR)?;
        let artifacts = input.subdir(ARTIFACTS_DIR)?;
        let mut seats = Vec::with_capacity(spec.seats.len());
        for (n, seat) in spec.seats.iter().enumerate() {
            let name = script_name(&spec, n)?;
            let script = match &scripts {
                Some(scripts) => scripts.open_read(&name)?,
                None => None,
            };
            let source = if let Some(file) = script {
                let steps = read_script(std::io::BufReader::new(file)).map_err(|e| {
                    ReproduceError::BadFile {
                        path: dir.join(STAND_IN_DIR).join(&name),
                        why: e.to_string(),
                    }
                })?;
                SeatSource::StandIn { steps }
            } else if seat.bot.command.trim_start().starts_with("builtin:") {
                SeatSource::Builtin
            } else {
                let missing = || ReproduceError::NoSource {
                    seat: n,
                    bot: seat.bot.name.clone(),
                };
                let hash = seat.artifact.clone().ok_or_else(missing)?;
                if !is_sha256(&hash) {
                    return Err(ReproduceError::BadFile {
                        path: dir.join(SPEC_FILE),
                        why: format!("seat {n}'s artifact {hash:?} is not a sha256"),
                    });
                }
                let there = match &artifacts {
                    Some(artifacts) => artifacts.subdir(&hash)?.is_some(),
                    None => false,
                };
                if !there {
                    return Err(missing());
                }
                SeatSource::Artifact { hash }
            };
            seats.push(source);
        }
        Ok(Bundle {
            spec,
            record,
            log,
            seats,
        })
    }
}

/// The file name of seat `seat`'s stand-in script: `SEAT.jsonl`, the seat's name (`BOT.vN`).
fn script_name(spec: &MatchSpec, seat: usize) -> Result<String, ReproduceError> {
    let bot = &spec.seats[seat].bot.name;
    let name = format!("{bot}.jsonl");
    if !referee::safe_fs::is_plain_name(&name) || bot.starts_with('.') {
        return Err(ReproduceError::BadFile {
            path: PathBuf::from(SPEC_FILE),
            why: format!("seat {seat}'s name {bot:?} cannot name a file"),
        });
    }
    Ok(name)
}

/// Reads the JSON file `name` of `dir`, within `limit` bytes.
fn read_json<T: serde::de::DeserializeOwned>(
    dir: &SafeDir,
    name: &str,
    limit: u64,
) -> Result<T, ReproduceError> {
    let bytes = dir
        .read(name, limit)?
        .ok_or_else(|| FileError::new(&dir.path_of(name), FileErrorKind::Missing))?;
    serde_json::from_slice(&bytes).map_err(|e| ReproduceError::BadFile {
        path: dir.path_of(name),
        why: e.to_string(),
    })
}

/// Reads the log, line by line within [`LOG_LINE_BYTES`], the file within [`LOG_FILE_BYTES`].
fn read_log(dir: &SafeDir) -> Result<Vec<LogRecord>, ReproduceError> {
    let path = dir.path_of(LOG_FILE);
    let file = dir
        .open_read(LOG_FILE)?
        .ok_or_else(|| FileError::new(&path, FileErrorKind::Missing))?;
    let size = file
        .metadata()
        .map_err(|e| FileError::new(&path, e.into()))?
        .len();
    if size > LOG_FILE_BYTES {
        return Err(FileError::new(
            &path,
            FileErrorKind::TooBig {
                limit: LOG_FILE_BYTES,
            },
        )
        .into());
    }
    let mut lines = BoundedLines::new(std::io::BufReader::new(file), LOG_LINE_BYTES);
    let mut line = Vec::new();
    let mut records = Vec::new();
    while let Some(n) = lines
        .next_into(&mut line)
        .map_err(|kind| FileError::new(&path, kind))?
    {
        let record = serde_json::from_slice(&line).map_err(|e| ReproduceError::BadFile {
            path: path.clone(),
            why: format!("line {n}: not a log record ({e})"),
        })?;
        records.push(record);
    }
    Ok(records)
}

/// A part of the bundle as JSON.
fn json<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("the bundle's types serialize")
}

#[cfg(test)]
#[path = "bundle_tests.rs"]
mod tests;
