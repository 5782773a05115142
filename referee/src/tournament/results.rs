//! A tournament's results directory: `tournament.json` (what is being played) and
//! `matches.jsonl` (one line per finished match, appended as each finishes).
//!
//! A line is written with one `write` call and flushed at once, so a run killed at any moment
//! loses at most the line being written; on resume a half-written last line is detected, cut
//! off, and its match played again.

use super::bounds::{BadResult, OutOfBounds, ResultCheck, check_meta};
use super::run_record::RUN_FILE;
use crate::runner::MatchRecord;
use crate::safe_fs::limits::{META_BYTES, RESULT_LINE_BYTES};
use crate::safe_fs::{BoundedLines, FileError, FileErrorKind, MadePrivate, SafeDir};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The results file's name.
pub const MATCHES_FILE: &str = "matches.jsonl";
/// The tournament identity file's name.
pub const META_FILE: &str = "tournament.json";
/// The directory of each bot process's stderr.
pub const STDERR_DIR: &str = "stderr";
/// The directory of the match logs (`--logs`).
pub const LOGS_DIR: &str = "logs";
/// The lock a run holds on its results directory (`flock`), while it writes there.
const LOCK_FILE: &str = ".lock";

/// One finished match, as a line of `matches.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The match's position in the schedule.
    pub id: u64,
    /// Its duplicate group.
    pub group: u64,
    /// Everything the match left (players are bot names by seat).
    #[serde(flatten)]
    pub record: MatchRecord,
    /// Where each seat's stderr of this match is, by seat (`None` for a bot without a process,
    /// or none saved); empty in results written before the referee recorded it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<Option<StderrRange>>,
}

/// What a bot process wrote to its stderr during one match: a byte range of its file in the
/// results directory's `stderr/`. The ranges of one file follow each other: each begins where
/// the process's previous match ended, the first where the process started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StderrRange {
    /// The file's name in `stderr/`.
    pub file: String,
    /// The first byte.
    pub from: u64,
    /// The byte after the last.
    pub to: u64,
}

/// A bot as the tournament knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetaBot {
    /// Its name.
    pub name: String,
    /// Its command, or `builtin:NAME`.
    pub command: String,
    /// The time limits it is held to.
    pub limits: protocol::Limits,
    /// Late replies per match accepted as soft overruns.
    pub overruns: u32,
    /// How late a soft overrun may be, in milliseconds.
    pub overrun_ms: u64,
    /// Its resource limits as configured.
    pub resources: crate::seat::ResourceLimits,
    /// What its time limit is charged on (absent: wall time).
    #[serde(default, skip_serializing_if = "is_wall")]
    pub time_basis: crate::seat::TimeBasis,
    /// Whether its processes are frozen while it is not on move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turn_isolation: bool,
}

impl MetaBot {
    /// The bot as a spec to start it by, with its time control, resource limits and, from a
    /// [run record](super::run_record::RunBot), its working directory and environment.
    ///
    /// # Errors
    /// [`BotSpecError`](crate::seat::BotSpecError) for a command that cannot be split again.
    pub fn spec(
        &self,
        run: Option<&super::run_record::RunBot>,
    ) -> Result<crate::seat::BotSpec, crate::seat::BotSpecError> {
        let mut spec = crate::seat::BotSpec::parse(&format!("{}={}", self.name, self.command))?;
        spec.settings = crate::seat::BotSettings {
            time: crate::seat::TimeControl {
                limits: self.limits,
                overruns: self.overruns,
                overrun_ms: self.overrun_ms,
                basis: self.time_basis,
                isolate: self.turn_isolation,
            },
            limits: self.resources,
            workdir: run.and_then(|r| r.workdir.clone()),
            env: run.map(|r| r.env.clone()).unwrap_or_default(),
        };
        Ok(spec)
    }
}

fn is_wall(basis: &crate::seat::TimeBasis) -> bool {
    *basis == crate::seat::TimeBasis::Wall
}

/// What a tournament plays: every setting that changes results. Resume and merge refuse
/// directories whose identities differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentMeta {
    /// The game.
    pub game: String,
    /// The game options.
    pub options: serde_json::Value,
    /// The bots, in order.
    pub bots: Vec<MetaBot>,
    /// Players per match.
    pub players: usize,
    /// The schedule (`schedule` in the file; an older referee wrote `format`, which is refused
    /// naming this key).
    pub schedule: super::ScheduleKind,
    /// A Nava tournament's rounds and hands (none for other formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nava: Option<super::schedule::NavaSpec>,
    /// The gauntlet's candidate (none for other formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate: Option<String>,
    /// Matches in the whole schedule.
    pub matches: u64,
    /// The tournament seed.
    pub seed: u64,
    /// Whether duplicate groups share their seed.
    pub duplicate: bool,
    /// Fault limit per bot and match.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: crate::runner::FaultPolicy,
}

/// A results directory that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// An I/O failure.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// A file of the directory that cannot be opened or read as the referee needs it (a
    /// link, a FIFO, too big, …).
    #[error(transparent)]
    File(#[from] FileError),
    /// A line that is not a match result (other than a half-written last line), or holds a
    /// number out of its bounds.
    #[error("{path}, line {line}: not a match result ({message})")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The parse error.
        message: String,
    },
    /// Results exist and `--resume` was not given.
    #[error("{0} already holds results: add --resume to continue them, or choose another --out")]
    Exists(PathBuf),
    /// Another referee is writing to the directory.
    #[error("{0} is in use by another referee (a tournament or merge writing there now)")]
    Locked(PathBuf),
    /// The directory holds another tournament.
    #[error("{dir} holds a different tournament ({what} differs); use another --out")]
    Different {
        /// The directory.
        dir: PathBuf,
        /// Which setting differs.
        what: String,
    },
    /// No tournament in the directory.
    #[error("{0} holds no tournament ({META_FILE} is missing)")]
    Missing(PathBuf),
    /// The identity file cannot be read.
    #[error(
        "{path}: not a tournament description this referee can read ({message}); it may come from an older version: use another --out"
    )]
    BadMeta {
        /// The file.
        path: PathBuf,
        /// The parse error.
        message: String,
    },
    /// The identity file names a setting by the key an older referee used.
    #[error(
        "{path}: the key `{old}` is now `{new}` (the schedule, not the leaderboard's output format); this directory was written by an older referee: rename the key in the file to resume or merge it"
    )]
    RenamedKey {
        /// The file.
        path: PathBuf,
        /// The old key.
        old: &'static str,
        /// The key that replaced it.
        new: &'static str,
    },
    /// A field of the identity file out of its bounds
    /// ([`check_meta`](super::bounds::check_meta)).
    #[error("{path}: {field}: {message}")]
    Field {
        /// The file.
        path: PathBuf,
        /// The field (`nava`, `bots[3].name`).
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// A file of the directory that holds something else than it should.
    #[error("{path}: cannot be read ({message})")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The parse error.
        message: String,
    },
    /// A result that does not belong to the tournament (a bot it does not have, wrong lengths).
    #[error("{path}, line {line}: match {id} does not belong to this tournament ({message})")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The match id.
        id: u64,
        /// What is wrong.
        message: String,
    },
}

/// A mapper of an I/O failure on `path` to [`ResultsError::Io`].
pub(super) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> ResultsError + '_ {
    move |source| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Which setting differs between two identities, if any.
pub fn difference(a: &TournamentMeta, b: &TournamentMeta) -> Option<&'static str> {
    let checks: [(&'static str, bool); 12] = [
        ("game", a.game == b.game),
        ("options", a.options == b.options),
        ("bots", a.bots == b.bots),
        ("players", a.players == b.players),
        ("schedule", a.schedule == b.schedule),
        ("candidate", a.candidate == b.candidate),
        ("nava", a.nava == b.nava),
        ("matches", a.matches == b.matches),
        ("seed", a.seed == b.seed),
        ("duplicate", a.duplicate == b.duplicate),
        ("max_faults", a.max_faults == b.max_faults),
        ("policy", a.policy == b.policy),
    ];
    checks
        .into_iter()
        .find(|(_, same)| !same)
        .map(|(what, _)| what)
}

/// Reads a directory's identity, at most [`META_BYTES`], and checks it against the
/// [bounds](super::bounds::check_meta).
///
/// # Errors
/// [`ResultsError::Missing`], a file that is not a regular file or is over its bound, or a
/// description that cannot be read or is out of bounds.
pub fn read_meta(dir: &SafeDir) -> Result<TournamentMeta, ResultsError> {
    let path = dir.path_of(META_FILE);
    let bytes = dir
        .read(META_FILE, META_BYTES)?
        .ok_or_else(|| ResultsError::Missing(dir.path().to_path_buf()))?;
    let raw: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| ResultsError::BadMeta {
            path: path.clone(),
            message: e.to_string(),
        })?;
    if raw.get("format").is_some() && raw.get("schedule").is_none() {
        return Err(ResultsError::RenamedKey {
            path,
            old: "format",
            new: "schedule",
        });
    }
    let meta: TournamentMeta = serde_json::from_value(raw).map_err(|e| ResultsError::BadMeta {
        path: path.clone(),
        message: e.to_string(),
    })?;
    check_meta(&meta).map_err(|OutOfBounds { field, message }| ResultsError::Field {
        path,
        field,
        message,
    })?;
    Ok(meta)
}

/// Writes the identity file atomically (a temporary file, then a rename), so that a run killed
/// at any moment leaves either no identity or a whole one.
fn write_meta(dir: &SafeDir, meta: &TournamentMeta) -> Result<(), ResultsError> {
    let text = serde_json::to_string_pretty(meta).expect("meta serializes") + "\n";
    Ok(dir.replace_file(META_FILE, text.as_bytes(), true)?)
}

/// Reads every complete result of a directory, line by line (each at most
/// [`RESULT_LINE_BYTES`]), each checked against the tournament `meta` describes
/// ([`ResultCheck`]); a half-written last line is ignored. Returns the results by id and the
/// byte length of the complete lines.
///
/// # Errors
/// A file that is not a regular file, a line over its bound, a corrupt line that is not the
/// last, or a result that does not belong to the tournament or is out of bounds.
pub fn read_results(
    dir: &SafeDir,
    meta: &TournamentMeta,
) -> Result<(BTreeMap<u64, MatchResult>, u64), ResultsError> {
    let path = dir.path_of(MATCHES_FILE);
    let mut results = BTreeMap::new();
    let Some(file) = dir.open_read(MATCHES_FILE)? else {
        return Ok((results, 0));
    };
    let check = ResultCheck::new(meta);
    let mut lines = BoundedLines::new(std::io::BufReader::new(file), RESULT_LINE_BYTES);
    let mut line = Vec::new();
    let mut good = 0u64;
    // A line that is not a result: refused unless it is the last (a killed run's).
    let mut unparsed: Option<(usize, String)> = None;
    while let Some(n) = lines
        .next_into(&mut line)
        .map_err(|kind| FileError::new(&path, kind))?
    {
        if let Some((line, message)) = unparsed.take() {
            return Err(ResultsError::Corrupt {
                path,
                line,
                message,
            });
        }
        let result = match serde_json::from_slice::<MatchResult>(&line) {
            // Only the last line can lack its newline: a killed run's, dropped.
            Ok(_) if !line.ends_with(b"\n") => break,
            Ok(result) => result,
            Err(e) => {
                unparsed = Some((n, e.to_string()));
                continue;
            }
        };
        check.check(&result).map_err(|bad| match bad {
            BadResult::Foreign(message) => ResultsError::Foreign {
                path: path.clone(),
                line: n,
                id: result.id,
                message,
            },
            BadResult::OutOfBounds(message) => ResultsError::Corrupt {
                path: path.clone(),
                line: n,
                message,
            },
        })?;
        good += line.len() as u64;
        results.insert(result.id, result);
    }
    Ok((results, good))
}

/// A results directory read back: its identity and its results, each checked.
#[derive(Debug)]
pub struct ReadBack {
    /// The directory, opened.
    pub dir: SafeDir,
    /// What the tournament plays.
    pub meta: TournamentMeta,
    /// Its results, by id.
    pub results: BTreeMap<u64, MatchResult>,
}

/// Reads the results directory the user named: its identity and every result
/// ([`read_meta`], [`read_results`]).
///
/// # Errors
/// [`ResultsError`] for a directory that holds no tournament, or a file that cannot be read
/// back.
pub fn read_back(path: &Path) -> Result<ReadBack, ResultsError> {
    let dir = SafeDir::open(path).map_err(|e| match e.kind {
        FileErrorKind::Missing => ResultsError::Missing(path.to_path_buf()),
        _ => e.into(),
    })?;
    let meta = read_meta(&dir)?;
    let (results, _) = read_results(&dir, &meta)?;
    Ok(ReadBack { dir, meta, results })
}

/// The results directory `dir` (made [private](crate::safe_fs::Privacy::Private)), when other users could read
/// it until then, and whether it held a tournament, and so its seed.
///
/// # Errors
/// [`ResultsError`] when `tournament.json` cannot be looked at.
pub fn made_private(dir: &SafeDir) -> Result<Option<MadePrivate>, ResultsError> {
    let Some(mut made) = dir.made_private() else {
        return Ok(None);
    };
    made.held_seed = dir.holds(META_FILE)?;
    Ok(Some(made))
}

/// The results file of a running tournament. It holds an exclusive lock on the directory
/// (`.lock`, with `flock`) while it lives, so two runs never write one directory at once.
pub struct ResultsFile {
    file: File,
    path: PathBuf,
    _lock: File,
}

fn lock(dir: &SafeDir) -> Result<File, ResultsError> {
    use std::os::fd::AsRawFd;
    let file = dir.open_append(LOCK_FILE)?;
    // SAFETY: flock on a file descriptor this function owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(ResultsError::Locked(dir.path().to_path_buf()));
    }
    Ok(file)
}

/// Checks what the referee will write to in an existing directory before it writes anything:
/// `run.json` (replaced, not written through, but a link there says the directory was tampered
/// with) and every file of `stderr/` and `logs/` (appended to, or replaced) must be regular
/// files of one name; in a private directory, they and `tournament.json` are made private.
fn check_writable(dir: &SafeDir) -> Result<(), ResultsError> {
    dir.check_file(RUN_FILE)?;
    // Read, not written: made private here (what is written is, as it is opened).
    dir.keep_private(META_FILE)?;
    for name in [STDERR_DIR, LOGS_DIR] {
        if let Some(sub) = dir.subdir(name)? {
            sub.check_entries()?;
        }
    }
    Ok(())
}

impl ResultsFile {
    /// Prepares `dir` for `meta`: a new directory gets `tournament.json`; with `resume`, an
    /// existing one must hold the same tournament, its half-written last line (if any) is cut,
    /// and the results already there are returned. Every file the run will write to is checked
    /// first ([`SafeDir`]: no link, no FIFO, no file of several names).
    ///
    /// # Errors
    /// [`ResultsError`] for a directory that holds results without `resume`, another tournament,
    /// a corrupt or tampered-with file, or an I/O failure.
    pub fn open(
        dir: &SafeDir,
        meta: &TournamentMeta,
        resume: bool,
    ) -> Result<(Self, BTreeMap<u64, MatchResult>), ResultsError> {
        let meta_path = dir.path_of(META_FILE);
        check_meta(meta).map_err(|OutOfBounds { field, message }| ResultsError::Field {
            path: meta_path,
            field,
            message,
        })?;
        let lock = lock(dir)?;
        let mut done = BTreeMap::new();
        let mut good = None;
        if dir.holds(META_FILE)? {
            let existing = read_meta(dir)?;
            if let Some(what) = difference(&existing, meta) {
                return Err(ResultsError::Different {
                    dir: dir.path().to_path_buf(),
                    what: what.to_string(),
                });
            }
            let (results, length) = read_results(dir, meta)?;
            if !results.is_empty() && !resume {
                return Err(ResultsError::Exists(dir.path().to_path_buf()));
            }
            done = results;
            good = Some(length);
        }
        check_writable(dir)?;
        if good.is_none() {
            write_meta(dir, meta)?;
        }
        let path = dir.path_of(MATCHES_FILE);
        let file = dir.open_append(MATCHES_FILE)?;
        if let Some(good) = good {
            file.set_len(good).map_err(io_err(&path))?;
        }
        Ok((
            ResultsFile {
                file,
                path,
                _lock: lock,
            },
            done,
        ))
    }

    /// Appends one result as one line, written and flushed at once.
    ///
    /// # Errors
    /// When writing fails.
    pub fn append(&mut self, result: &MatchResult) -> Result<(), ResultsError> {
        let mut line = serde_json::to_vec(result).expect("results serialize");
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.flush())
            .map_err(io_err(&self.path))
    }
}
