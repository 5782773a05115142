//! A tournament's results directory: `tournament.json` (what is being played) and
//! `matches.jsonl` (one line per finished match, appended as each finishes).
//!
//! A line is written with one `write` call and flushed at once, so a run killed at any moment
//! loses at most the line being written; on resume a half-written last line is detected, cut
//! off, and its match played again.

use crate::runner::MatchRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The results file's name.
pub const MATCHES_FILE: &str = "matches.jsonl";
/// The tournament identity file's name.
pub const META_FILE: &str = "tournament.json";

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
    /// A line that is not a match result (other than a half-written last line).
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
    /// A file of the directory that holds something else than it should.
    #[error("{path}: cannot be read ({message})")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The parse error.
        message: String,
    },
    /// A result that does not belong to the tournament (a bot it does not have, wrong lengths).
    #[error("{path}: match {id} does not belong to this tournament ({message})")]
    Foreign {
        /// The file.
        path: PathBuf,
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

/// Reads a directory's identity.
///
/// # Errors
/// [`ResultsError::Missing`] or an unreadable file.
pub fn read_meta(dir: &Path) -> Result<TournamentMeta, ResultsError> {
    let path = dir.join(META_FILE);
    let text =
        std::fs::read_to_string(&path).map_err(|_| ResultsError::Missing(dir.to_path_buf()))?;
    let raw: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| ResultsError::BadMeta {
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
    serde_json::from_value(raw).map_err(|e| ResultsError::BadMeta {
        path,
        message: e.to_string(),
    })
}

/// Checks that every result belongs to the tournament `meta` describes: its players are bots of
/// the field and every per-seat list has one entry per seat.
///
/// # Errors
/// [`ResultsError::Foreign`] naming the first result that does not.
pub fn check_results(
    dir: &Path,
    meta: &TournamentMeta,
    results: &BTreeMap<u64, MatchResult>,
) -> Result<(), ResultsError> {
    let foreign = |id: u64, message: String| ResultsError::Foreign {
        path: dir.join(MATCHES_FILE),
        id,
        message,
    };
    // A Nava tournament seats 4 or 3 at a table, match by match.
    let nava_seats: Option<BTreeMap<u64, usize>> = meta.nava.map(|nava| {
        super::schedule::build(&super::ScheduleSpec {
            kind: meta.schedule,
            bots: meta.bots.len(),
            players: meta.players,
            matches: meta.matches,
            seed: meta.seed,
            duplicate: meta.duplicate,
            candidate: 0,
            nava: Some(nava),
        })
        .into_iter()
        .map(|m| (m.id, m.seats.len()))
        .collect()
    });
    for (&id, result) in results {
        let r = &result.record;
        if let Some(unknown) = r
            .players
            .iter()
            .find(|p| !meta.bots.iter().any(|b| &b.name == *p))
        {
            return Err(foreign(id, format!("no bot is named '{unknown}'")));
        }
        let seats = r.players.len();
        let expected = match &nava_seats {
            Some(by_id) => by_id.get(&id).copied().unwrap_or(meta.players),
            None => meta.players,
        };
        if seats != expected
            || r.scores.len() != seats
            || r.ranks.len() != seats
            || r.stats.len() != seats
            || !(result.stderr.is_empty() || result.stderr.len() == seats)
        {
            return Err(foreign(
                id,
                format!(
                    "{seats} players, scores, ranks, stats or stderr ranges where {expected} seats are played"
                ),
            ));
        }
        if r.faults.iter().any(|f| f.seat >= seats) {
            return Err(foreign(id, "a fault of a seat that does not exist".into()));
        }
    }
    Ok(())
}

/// Writes the identity file atomically (a temporary file, then a rename), so that a run killed
/// at any moment leaves either no identity or a whole one.
fn write_meta(dir: &Path, meta: &TournamentMeta) -> Result<(), ResultsError> {
    let path = dir.join(META_FILE);
    let temporary = dir.join(format!("{META_FILE}.tmp"));
    let text = serde_json::to_string_pretty(meta).expect("meta serializes") + "\n";
    let mut file = File::create(&temporary).map_err(io_err(&temporary))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io_err(&temporary))?;
    std::fs::rename(&temporary, &path).map_err(io_err(&path))
}

/// Reads every complete result of a directory; a half-written last line is ignored. Returns the
/// results by id and the byte length of the complete lines.
///
/// # Errors
/// An unreadable file, or a corrupt line that is not the last.
pub fn read_results(dir: &Path) -> Result<(BTreeMap<u64, MatchResult>, u64), ResultsError> {
    let path = dir.join(MATCHES_FILE);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((BTreeMap::new(), 0)),
        Err(e) => return Err(io_err(&path)(e)),
    };
    let mut results = BTreeMap::new();
    let mut good = 0u64;
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let complete = line.ends_with(b"\n");
        match serde_json::from_slice::<MatchResult>(line) {
            Ok(result) if complete => {
                good += line.len() as u64;
                results.insert(result.id, result);
            }
            _ if i + 1 == lines.len() => break, // the half-written last line of a killed run
            Ok(_) => unreachable!("only the last line can lack its newline"),
            Err(e) => {
                return Err(ResultsError::Corrupt {
                    path,
                    line: i + 1,
                    message: e.to_string(),
                });
            }
        }
    }
    Ok((results, good))
}

/// The results file of a running tournament. It holds an exclusive lock on the directory
/// (`.lock`, with `flock`) while it lives, so two runs never write one directory at once.
pub struct ResultsFile {
    file: File,
    path: PathBuf,
    _lock: File,
}

fn lock(dir: &Path) -> Result<File, ResultsError> {
    use std::os::fd::AsRawFd;
    let path = dir.join(".lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_err(&path))?;
    // SAFETY: flock on a file descriptor this function owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(ResultsError::Locked(dir.to_path_buf()));
    }
    Ok(file)
}

impl ResultsFile {
    /// Prepares `dir` for `meta`: a new directory gets `tournament.json`; with `resume`, an
    /// existing one must hold the same tournament, its half-written last line (if any) is cut,
    /// and the results already there are returned.
    ///
    /// # Errors
    /// [`ResultsError`] for a directory that holds results without `resume`, another tournament,
    /// a corrupt file, or an I/O failure.
    pub fn open(
        dir: &Path,
        meta: &TournamentMeta,
        resume: bool,
    ) -> Result<(Self, BTreeMap<u64, MatchResult>), ResultsError> {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let lock = lock(dir)?;
        let meta_path = dir.join(META_FILE);
        let path = dir.join(MATCHES_FILE);
        let mut done = BTreeMap::new();
        if meta_path.exists() {
            let existing = read_meta(dir)?;
            if let Some(what) = difference(&existing, meta) {
                return Err(ResultsError::Different {
                    dir: dir.to_path_buf(),
                    what: what.to_string(),
                });
            }
            let (results, good) = read_results(dir)?;
            check_results(dir, meta, &results)?;
            if !results.is_empty() && !resume {
                return Err(ResultsError::Exists(dir.to_path_buf()));
            }
            if path.exists() {
                let file = OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(io_err(&path))?;
                file.set_len(good).map_err(io_err(&path))?;
            }
            done = results;
        } else {
            write_meta(dir, meta)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io_err(&path))?;
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
