//! The paths a sandboxed bot must not see — the referee's outputs (the results directory, logs,
//! the config file, `--hide`) and every other bot's workdir — as found when the run started,
//! and where each is at a bot's start.
//!
//! Each is looked up once, when the run starts. What exists then is held open (`O_PATH`) for
//! the run, and at each bot start it is hidden where it is then: its descriptor tells its
//! current name (`/proc/self/fd/N`), which must lead, through no symbolic link, to the same file.
//! So a directory renamed after the start is hidden still, under its new name, and a link put at
//! its old name is never followed: hiding the link's target (a library directory, say) would take
//! it from every bot. What does not exist yet (a results directory made later) is hidden at its
//! path once it exists, reached through no link. What cannot be found so at a start (a link on
//! the way, a rename under way) refuses the start: a bot never runs with something it must not
//! see in view. A bot's own workdir is left out by what it is, the directory admitted for it
//! ([`AdmittedWorkdir`]), never by where a name leads.

use super::admitted_workdir::AdmittedWorkdir;
use super::path_walk::{self, WalkError};
use rustix::fs::{FileType, OFlags};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A path hidden from sandboxed bots.
#[derive(Clone, Debug)]
pub struct HiddenPath(Kind);

#[derive(Clone, Debug)]
enum Kind {
    /// Found when the run started: held open.
    Held(Arc<Held>),
    /// Not there when the run started: its path, links resolved as far as it existed.
    Later(PathBuf),
}

#[derive(Debug)]
struct Held {
    fd: OwnedFd,
    identity: (u64, u64),
    path: PathBuf,
}

/// Where a hidden path is at a bot's start, and whether it is a directory (hidden under an
/// empty one) or a file (hidden under `/dev/null`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// Its path now.
    pub path: PathBuf,
    /// Whether it is a directory.
    pub is_dir: bool,
}

/// A hidden path that cannot be found, at a bot's start, through no symbolic link.
#[derive(Debug, thiserror::Error)]
#[error(
    "{}, which the bots must not see, cannot be found through no symbolic link now ({why}): the bot is not started",
    path.display()
)]
pub struct HiddenMoved {
    /// The path as found when the run started.
    pub path: PathBuf,
    /// Why.
    pub why: String,
}

impl HiddenPath {
    /// `path` as it is now, at the start of the run: held open if it exists (links resolved),
    /// else its path with the links of the part that exists resolved.
    pub fn find(path: &Path) -> HiddenPath {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let real = resolved(&absolute);
        match path_walk::walk(&real, OFlags::PATH) {
            Ok(found) => HiddenPath(Kind::Held(Arc::new(Held {
                identity: path_walk::identity(&found.stat),
                fd: found.fd,
                path: real,
            }))),
            Err(_) => HiddenPath(Kind::Later(real)),
        }
    }

    /// The admitted workdir `workdir`, hidden from the other bots wherever it is.
    ///
    /// # Errors
    /// When its descriptor cannot be duplicated (out of descriptors).
    pub fn workdir(workdir: &AdmittedWorkdir) -> std::io::Result<HiddenPath> {
        let fd = rustix::io::fcntl_dupfd_cloexec(workdir, 0)?;
        Ok(HiddenPath(Kind::Held(Arc::new(Held {
            fd,
            identity: workdir.identity(),
            path: workdir.path().to_path_buf(),
        }))))
    }

    /// Its path as found when the run started.
    pub fn path(&self) -> &Path {
        match &self.0 {
            Kind::Held(held) => &held.path,
            Kind::Later(path) => path,
        }
    }

    /// Whether it is the directory `workdir` (by what it is, not by its name).
    pub fn is(&self, workdir: &AdmittedWorkdir) -> bool {
        matches!(&self.0, Kind::Held(held) if held.identity == workdir.identity())
    }

    /// Where it is now: `None` when it is gone (or not made yet).
    ///
    /// # Errors
    /// [`HiddenMoved`] when it cannot be found through no symbolic link.
    pub fn place(&self) -> Result<Option<Place>, HiddenMoved> {
        let moved = |why: String| HiddenMoved {
            path: self.path().to_path_buf(),
            why,
        };
        let is_dir =
            |stat: &rustix::fs::Stat| FileType::from_raw_mode(stat.st_mode) == FileType::Directory;
        match &self.0 {
            Kind::Held(held) => {
                let now = std::fs::read_link(format!("/proc/self/fd/{}", held.fd.as_raw_fd()))
                    .map_err(|e| moved(e.to_string()))?;
                if now.to_string_lossy().ends_with(" (deleted)") {
                    return Ok(None);
                }
                match path_walk::walk(&now, OFlags::PATH) {
                    Ok(found) if path_walk::identity(&found.stat) == held.identity => {
                        Ok(Some(Place {
                            path: now,
                            is_dir: is_dir(&found.stat),
                        }))
                    }
                    Ok(_) => Err(moved(format!("{} is now another file", now.display()))),
                    Err(e) => Err(moved(e.to_string())),
                }
            }
            Kind::Later(path) => match path_walk::walk(path, OFlags::PATH) {
                Ok(found) => Ok(Some(Place {
                    path: path.clone(),
                    is_dir: is_dir(&found.stat),
                })),
                Err(e) if e.is_missing() => Ok(None),
                Err(e @ (WalkError::Link(_) | WalkError::Io { .. } | WalkError::NotPlain(_))) => {
                    Err(moved(e.to_string()))
                }
            },
        }
    }
}

/// Where each of `hidden` is now, but `own` (a bot's own workdir, which it sees).
///
/// # Errors
/// [`HiddenMoved`] for the first that cannot be found through no symbolic link.
pub fn places(
    hidden: &[HiddenPath],
    own: Option<&AdmittedWorkdir>,
) -> Result<Vec<Place>, HiddenMoved> {
    let mut places = Vec::with_capacity(hidden.len());
    for path in hidden {
        if own.is_some_and(|own| path.is(own)) {
            continue;
        }
        places.extend(path.place()?);
    }
    Ok(places)
}

/// `path` (absolute) with the symbolic links of its longest part that exists resolved.
fn resolved(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut existing = path_walk::lexical(path);
    loop {
        if let Ok(real) = existing.canonicalize() {
            return rest.iter().rev().fold(real, |p, name| p.join(name));
        }
        match (
            existing.file_name().map(|n| n.to_owned()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path_walk::lexical(path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::admitted_workdir::tests::admitted;

    #[test]
    fn a_held_directory_is_hidden_where_it_is_now_and_a_link_at_its_old_name_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let (out, library) = (base.join("out"), base.join("library"));
        std::fs::create_dir(&out).unwrap();
        std::fs::create_dir(&library).unwrap();
        let hidden = HiddenPath::find(&out);
        let place = |path: &Path| Place {
            path: path.to_path_buf(),
            is_dir: true,
        };
        assert_eq!(hidden.place().unwrap(), Some(place(&out)));

        std::fs::rename(&out, base.join("out.real")).unwrap();
        std::os::unix::fs::symlink(&library, &out).unwrap();
        assert_eq!(hidden.place().unwrap(), Some(place(&base.join("out.real"))));

        std::fs::remove_dir(base.join("out.real")).unwrap();
        assert_eq!(hidden.place().unwrap(), None, "gone");
    }

    #[test]
    fn a_path_made_later_is_hidden_once_made_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let out = base.join("later/out");
        let hidden = HiddenPath::find(&out);
        assert_eq!(hidden.place().unwrap(), None);
        std::fs::create_dir_all(&out).unwrap();
        let file = base.join("later/t.toml");
        std::fs::write(&file, "").unwrap();
        assert_eq!(hidden.place().unwrap().unwrap().path, out);
        assert!(!HiddenPath::find(&file).place().unwrap().unwrap().is_dir);

        std::fs::rename(base.join("later"), base.join("moved")).unwrap();
        std::os::unix::fs::symlink(base.join("moved"), base.join("later")).unwrap();
        let err = hidden.place().unwrap_err();
        assert!(err.to_string().contains("the bot is not started"), "{err}");
    }

    #[test]
    fn a_bots_own_workdir_is_left_out_by_what_it_is_not_by_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let (mine, other) = (base.join("mine"), base.join("other"));
        std::fs::create_dir(&mine).unwrap();
        std::fs::create_dir(&other).unwrap();
        let (mine, other) = (admitted(&mine), admitted(&other));
        let hidden = [
            HiddenPath::workdir(&mine).unwrap(),
            HiddenPath::workdir(&other).unwrap(),
        ];
        let paths = |own| -> Vec<PathBuf> {
            places(&hidden, own)
                .unwrap()
                .into_iter()
                .map(|p| p.path)
                .collect()
        };
        assert_eq!(paths(Some(&mine)), vec![other.path().to_path_buf()]);
        assert_eq!(paths(None).len(), 2);
        // The other's name swapped for a link to this bot's own directory: the other is hidden
        // where it is, and this bot's own is not skipped for it.
        let moved = base.join("other.real");
        std::fs::rename(other.path(), &moved).unwrap();
        std::os::unix::fs::symlink(mine.path(), other.path()).unwrap();
        assert_eq!(paths(Some(&mine)), vec![moved]);
    }
}
