//! Carrying finished matches from one results directory into another with what they left
//! beside `matches.jsonl`: each bot process's `stderr/` file their ranges name and each match's
//! `logs/ID.jsonl`. `referee merge` carries the shards' matches into its `--out`, and a
//! tournament whose bot is replaced carries the matches it keeps; both carry the `referee check`
//! verdicts kept in `checks/` ([`carry_verdicts`]).
//!
//! The directory read is untrusted (a shard may come from another machine, or be edited): only
//! regular files of one name are copied, each within its bound ([`STDERR_FILE_BYTES`],
//! [`LOG_FILE_BYTES`]), every one opened beneath the directory ([`SafeDir`]), and written only
//! into the output directory, under a fresh name. A file that cannot be copied is no failure of
//! the carry: the match is kept without it (its range dropped, no log) and the reason is
//! returned as a [`Skipped`] note; so is a range past the end of its file. Two shards' stderr files may share a name (each shard's
//! worker 0 starts `NAME.w0.1.stderr`): the second is copied under another name (`sK.NAME`),
//! and the ranges that name it are rewritten; a match's log keeps its name (ids are unique).

use super::files::{CHECK_FILE_LIMIT, CHECKS_DIR, LOGS_DIR, STDERR_DIR};
use super::match_result::{MatchResult, StderrRange};
use super::results_error::ResultsError;
use crate::runner::LogRecord;
use crate::safe_fs::limits::{LOG_FILE_BYTES, LOG_LINE_BYTES, STDERR_FILE_BYTES, shown};
use crate::safe_fs::{BoundedLines, FileError, SafeDir};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

/// The longest file name most file systems take, in bytes.
const NAME_MAX: usize = 255;

/// A file of a source directory that was not copied, and why; its match was carried without
/// it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file, in the source directory.
    pub path: PathBuf,
    /// Why it was not copied.
    pub why: String,
}

/// Copies what matches left beside `matches.jsonl` into the output directory, each stderr file
/// once per source, and rewrites their ranges (see the module documentation).
pub struct Carry<'a> {
    out: &'a SafeDir,
    stderr: Option<SafeDir>,
    logs: Option<SafeDir>,
    /// By source and name there: the name and length of its copy, or `None` when it was not
    /// copied.
    copied: BTreeMap<(usize, String), Option<(String, u64)>>,
    /// Names given in the output's `stderr/` by this carry.
    taken: BTreeSet<String>,
    /// What was not copied.
    pub skipped: Vec<Skipped>,
    /// Stderr files copied.
    pub stderr_files: u64,
    /// Logs copied.
    pub logs_copied: u64,
}

impl<'a> Carry<'a> {
    /// A carry into the results directory `out`.
    pub fn new(out: &'a SafeDir) -> Self {
        Carry {
            out,
            stderr: None,
            logs: None,
            copied: BTreeMap::new(),
            taken: BTreeSet::new(),
            skipped: Vec::new(),
            stderr_files: 0,
            logs_copied: 0,
        }
    }

    /// `result`, found in the results directory `from` (the `source`-th one of the carry, from
    /// 0), as it is in the output: its stderr files and log copied there, the ranges renamed
    /// after the copies (or dropped where a file was not copied).
    ///
    /// # Errors
    /// [`ResultsError`] when the output directory cannot be written (what the source holds is
    /// never an error: [`Carry::skipped`]).
    pub fn carry(
        &mut self,
        source: usize,
        from: &SafeDir,
        result: &MatchResult,
    ) -> Result<MatchResult, ResultsError> {
        let mut carried = result.clone();
        for range in carried.stderr.iter_mut() {
            let Some(r) = range else { continue };
            *range = match self.stderr_copy(source, from, &r.file)? {
                // A range past the file's end (an edited line) names bytes it does not hold.
                Some((_, len)) if r.to > len => {
                    self.skipped.push(skipped(
                        from,
                        STDERR_DIR,
                        &r.file,
                        format!(
                            "match {}'s range, bytes {} to {}, is beyond its end ({len} bytes)",
                            result.id, r.from, r.to
                        ),
                    ));
                    None
                }
                Some((file, _)) => Some(StderrRange {
                    file,
                    from: r.from,
                    to: r.to,
                }),
                None => None,
            };
        }
        if carried.stderr.iter().all(Option::is_none) {
            carried.stderr.clear();
        }
        self.log_copy(from, result)?;
        Ok(carried)
    }

    /// The name and length of the copy of stderr file `name` of `from` in the output, copied
    /// at its first use; `None` when it is not copied.
    fn stderr_copy(
        &mut self,
        source: usize,
        from: &SafeDir,
        name: &str,
    ) -> Result<Option<(String, u64)>, ResultsError> {
        let key = (source, name.to_string());
        if let Some(copy) = self.copied.get(&key) {
            return Ok(copy.clone());
        }
        let copy = match open_source(from, STDERR_DIR, name, STDERR_FILE_BYTES) {
            Err(skipped) => {
                self.skipped.push(skipped);
                None
            }
            Ok(file) => {
                if self.stderr.is_none() {
                    self.stderr = Some(self.out.make_subdir(STDERR_DIR)?);
                }
                let dir = self.stderr.as_ref().expect("made above");
                let fresh =
                    fresh_name(
                        name,
                        source,
                        |n| Ok(self.taken.contains(n) || dir.holds(n)?),
                    )?;
                match copy_into(file, dir, &fresh, STDERR_FILE_BYTES)? {
                    Err(why) => {
                        self.skipped.push(skipped(from, STDERR_DIR, name, why));
                        None
                    }
                    Ok(len) => {
                        self.taken.insert(fresh.clone());
                        self.stderr_files += 1;
                        Some((fresh, len))
                    }
                }
            }
        };
        self.copied.insert(key, copy.clone());
        Ok(copy)
    }

    /// Copies `result`'s log from `from`, if it has one and it is that match's (its header's
    /// match id, seed and players are the match's: a log put in another's place, even one of
    /// the same deal in another seating, would replay another match).
    fn log_copy(&mut self, from: &SafeDir, result: &MatchResult) -> Result<(), ResultsError> {
        let name = format!("{}.jsonl", result.id);
        let mut file = match open_source(from, LOGS_DIR, &name, LOG_FILE_BYTES) {
            Ok(file) => file,
            Err(s) if s.why == MISSING => return Ok(()),
            Err(s) => {
                self.skipped.push(s);
                return Ok(());
            }
        };
        let m = &result.record;
        let why = match header_of(&mut file) {
            Ok(logged) if logged == (m.match_id.clone(), m.seed, m.players.clone()) => None,
            Ok((id, seed, players)) => Some(format!(
                "the log of another match (match {}, seed {seed}, players {}, where this one is match {}, seed {}, players {})",
                id,
                players.join(", "),
                m.match_id,
                m.seed,
                m.players.join(", ")
            )),
            Err(why) => Some(why),
        };
        if let Some(why) = why {
            self.skipped.push(skipped(from, LOGS_DIR, &name, why));
            return Ok(());
        }
        if self.logs.is_none() {
            self.logs = Some(self.out.make_subdir(LOGS_DIR)?);
        }
        let dir = self.logs.as_ref().expect("made above");
        match copy_into(file, dir, &name, LOG_FILE_BYTES)? {
            Err(why) => self.skipped.push(skipped(from, LOGS_DIR, &name, why)),
            Ok(_) => self.logs_copied += 1,
        }
        Ok(())
    }
}

/// The match id, seed and players by seat in the header of the match log `file` (its first
/// line), the file then rewound; `Err(why)` when its first line is no log header.
fn header_of(file: &mut std::fs::File) -> Result<(String, u64, Vec<String>), String> {
    let mut lines = BoundedLines::new(std::io::BufReader::new(&mut *file), LOG_LINE_BYTES);
    let mut line = Vec::new();
    let first = lines
        .next_into(&mut line)
        .map_err(|kind| kind.to_string())?;
    let header = match first.map(|_| serde_json::from_slice::<LogRecord>(&line)) {
        Some(Ok(LogRecord::Header {
            match_id,
            seed,
            players,
            ..
        })) => (
            match_id,
            seed,
            players.into_iter().map(|p| p.name).collect(),
        ),
        _ => return Err("its first line is not a match log's header".into()),
    };
    file.seek(std::io::SeekFrom::Start(0))
        .map_err(|e| format!("cannot be read ({e})"))?;
    Ok(header)
}

/// The reason given for a file that is not there.
const MISSING: &str = "no such file";

fn skipped(from: &SafeDir, sub: &str, name: &str, why: String) -> Skipped {
    Skipped {
        path: from.path_of(sub).join(name),
        why,
    }
}

/// Opens `sub/name` of `from` to copy it: a regular file of one name, at most `limit` bytes.
fn open_source(
    from: &SafeDir,
    sub: &str,
    name: &str,
    limit: u64,
) -> Result<std::fs::File, Skipped> {
    let refused = |e: FileError| Skipped {
        path: e.path.clone(),
        why: e.kind.to_string(),
    };
    let missing = || skipped(from, sub, name, MISSING.into());
    let dir = from.subdir(sub).map_err(refused)?.ok_or_else(missing)?;
    let file = dir.open_read(name).map_err(refused)?.ok_or_else(missing)?;
    let why = match file.metadata() {
        Err(e) => Some(e.to_string()),
        Ok(m) if m.nlink() > 1 => Some(format!(
            "has {} names (hard links): only a file of one name is copied",
            m.nlink()
        )),
        Ok(m) if m.len() > limit => Some(format!(
            "is larger than {}, the most the referee copies of such a file",
            shown(limit)
        )),
        Ok(_) => None,
    };
    match why {
        Some(why) => Err(skipped(from, sub, name, why)),
        None => Ok(file),
    }
}

/// Copies `file` into a new file `name` of `dir`, at most `limit` bytes: `Ok(the bytes
/// copied)`, or `Err(why)` (and no file left) when it has grown beyond it, or cannot be read.
///
/// # Errors
/// [`ResultsError`] when the copy cannot be written.
fn copy_into(
    file: std::fs::File,
    dir: &SafeDir,
    name: &str,
    limit: u64,
) -> Result<Result<u64, String>, ResultsError> {
    let mut into = dir.create_file(name)?;
    let path = dir.path_of(name);
    let mut buffer = vec![0u8; 64 << 10];
    let mut read = file.take(limit + 1);
    let mut total = 0u64;
    let why = loop {
        let n = match read.read(&mut buffer) {
            Ok(0) => break None,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => break Some(format!("cannot be read ({e})")),
        };
        total += n as u64;
        if total > limit {
            break Some(format!(
                "grew larger than {}, the most the referee copies of such a file",
                shown(limit)
            ));
        }
        into.write_all(&buffer[..n])
            .map_err(super::results_error::io_err(&path))?;
    };
    drop(into);
    match why {
        Some(why) => {
            dir.remove_file(name)?;
            Ok(Err(why))
        }
        None => Ok(Ok(total)),
    }
}

/// A name for the copy of stderr file `name` of source `source` that `taken` says is free:
/// the name itself, else `sK.NAME` (K = `source` + 1), else `sK.I.NAME`; a name too long for
/// the file system becomes `sK.I.stderr`.
fn fresh_name(
    name: &str,
    source: usize,
    mut taken: impl FnMut(&str) -> Result<bool, FileError>,
) -> Result<String, FileError> {
    let k = source + 1;
    let candidates = std::iter::once(name.to_string())
        .chain(std::iter::once(format!("s{k}.{name}")))
        .chain((2u64..).map(|i| format!("s{k}.{i}.{name}")));
    for (i, candidate) in candidates.enumerate() {
        let candidate = if candidate.len() > NAME_MAX {
            format!("s{k}.{i}.stderr")
        } else {
            candidate
        };
        if !taken(&candidate)? {
            return Ok(candidate);
        }
    }
    unreachable!("the candidates never end")
}

/// Copies the verdicts `from` keeps in its [`CHECKS_DIR`] for the bots `names` into `to`'s:
/// a merge's shards, or a tournament whose bot was replaced (whose other bots' verdicts still
/// hold). A verdict `to` holds already is kept; one `from` lacks, or that is not a readable
/// regular file of it within the bound, is passed over (the sheet then has no verdict for that
/// bot). Returns how many were copied.
///
/// # Errors
/// [`FileError`] when `to`'s directory or a file in it cannot be written.
pub fn carry_verdicts<'a>(
    from: &SafeDir,
    to: &SafeDir,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<usize, FileError> {
    let Ok(Some(checks)) = from.subdir(CHECKS_DIR) else {
        return Ok(0);
    };
    let mut copied = 0;
    for name in names {
        let file = format!("{name}.json");
        let Ok(Some(bytes)) = checks.read(&file, CHECK_FILE_LIMIT) else {
            continue;
        };
        let out = to.make_subdir(CHECKS_DIR)?;
        if !out.holds(&file)? {
            out.replace_file(&file, &bytes, false)?;
            copied += 1;
        }
    }
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_taken_gets_its_sources_prefix_then_a_count_and_a_long_one_a_short_name() {
        let taken = ["a.w0.1.stderr", "s2.a.w0.1.stderr"];
        let fresh = |name: &str| fresh_name(name, 1, |n| Ok(taken.contains(&n))).unwrap();
        assert_eq!(fresh("b.w0.1.stderr"), "b.w0.1.stderr");
        assert_eq!(fresh("a.w0.1.stderr"), "s2.2.a.w0.1.stderr");
        let long = "x".repeat(254);
        assert_eq!(fresh_name(&long, 0, |_| Ok(false)).unwrap(), long);
        assert_eq!(
            fresh_name(&long, 0, |n| Ok(n == long)).unwrap(),
            "s1.1.stderr"
        );
    }

    #[test]
    fn a_link_a_fifo_a_hard_link_and_a_file_over_its_bound_are_not_opened_to_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let stderr = tmp.path().join(STDERR_DIR);
        std::fs::create_dir(&stderr).unwrap();
        std::fs::write(stderr.join("plain"), "ok\n").unwrap();
        std::fs::write(tmp.path().join("secret"), "secret\n").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret"), stderr.join("link")).unwrap();
        std::fs::hard_link(tmp.path().join("secret"), stderr.join("hard")).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            stderr.join("fifo"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let dir = SafeDir::open(tmp.path()).unwrap();
        assert!(open_source(&dir, STDERR_DIR, "plain", 10).is_ok());
        for (name, why) in [
            ("link", "symbolic link"),
            ("hard", "2 names"),
            ("fifo", "FIFO"),
            ("missing", MISSING),
        ] {
            let skipped = open_source(&dir, STDERR_DIR, name, 10).unwrap_err();
            assert!(skipped.why.contains(why), "{name}: {}", skipped.why);
        }
        let over = open_source(&dir, STDERR_DIR, "plain", 2).unwrap_err();
        assert!(over.why.contains("larger than 2 bytes"), "{}", over.why);
    }

    #[test]
    fn verdicts_are_carried_once_from_regular_files_only() {
        let from = tempfile::tempdir().unwrap();
        let to = tempfile::tempdir().unwrap();
        let checks = from.path().join(CHECKS_DIR);
        std::fs::create_dir(&checks).unwrap();
        std::fs::write(checks.join("a.json"), "{\"passed\": true}").unwrap();
        std::fs::write(checks.join("b.json"), "{\"passed\": false}").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", checks.join("c.json")).unwrap();
        std::fs::create_dir(to.path().join(CHECKS_DIR)).unwrap();
        std::fs::write(to.path().join(CHECKS_DIR).join("b.json"), "kept").unwrap();
        let open = |d: &tempfile::TempDir| SafeDir::open(d.path()).unwrap();
        let copied =
            carry_verdicts(&open(&from), &open(&to), ["a", "b", "c", "d", "../x"]).unwrap();
        assert_eq!(
            copied, 1,
            "a only: b is kept as it was, c is a link, d and ../x are no file"
        );
        let read = |n: &str| std::fs::read_to_string(to.path().join(CHECKS_DIR).join(n)).ok();
        assert_eq!(read("a.json").as_deref(), Some("{\"passed\": true}"));
        assert_eq!(read("b.json").as_deref(), Some("kept"));
        assert_eq!(read("c.json"), None);
    }
}
