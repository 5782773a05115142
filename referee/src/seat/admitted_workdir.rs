//! A workdir as the referee admitted it when the run started ([`super::workdir_rule`]): the
//! directory itself, held open for the whole run, with the path it was found at. What the
//! referee does with a workdir afterwards acts on that directory, never on what its name may
//! lead to later (another directory, or a symbolic link to one, put in its place):
//!
//! - each start of the bot checks that the path still leads, through no link, to that directory
//!   ([`AdmittedWorkdir::check_named`]), else the start is refused (`spawn_failed`); then it
//!   binds the directory by its descriptor (bubblewrap's `--bind-fd`: the kernel binds the
//!   directory held, and bubblewrap refuses a destination that resolves elsewhere) or, without a
//!   sandbox, enters it by its descriptor (`fchdir`);
//! - the other bots' sandboxes hide that directory wherever it is ([`super::hidden_paths`]);
//! - the hand-over to the bot's group ([`super::users::workdir`]) and the quota's measure
//!   ([`super::workdir_quota`]) go through the descriptor.

use super::path_walk::{self, WalkError};
use super::workdir_marker::OpenDir;
use rustix::fs::OFlags;
use std::collections::BTreeMap;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A workdir admitted for the run, held open; clones share the descriptor.
#[derive(Clone, Debug)]
pub struct AdmittedWorkdir(Arc<OpenDir>);

impl PartialEq for AdmittedWorkdir {
    fn eq(&self, other: &Self) -> bool {
        self.identity() == other.identity() && self.path() == other.path()
    }
}

impl Eq for AdmittedWorkdir {}

/// A workdir whose path no longer leads to the directory admitted.
#[derive(Debug, thiserror::Error)]
#[error(
    "its workdir {} is not the directory the run started with (device {}, inode {}): {now}; the bot is not started",
    path.display(),
    identity.0,
    identity.1
)]
pub struct WorkdirChanged {
    /// The path admitted.
    pub path: PathBuf,
    /// The device and inode admitted.
    pub identity: (u64, u64),
    /// What the path leads to now.
    pub now: String,
}

impl AdmittedWorkdir {
    /// The directory `dir`, admitted.
    pub fn new(dir: OpenDir) -> Self {
        AdmittedWorkdir(Arc::new(dir))
    }

    /// The path it was admitted at.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Its device and inode.
    pub fn identity(&self) -> (u64, u64) {
        self.0.identity()
    }

    /// The directory, opened.
    pub fn dir(&self) -> &OpenDir {
        &self.0
    }

    /// Its descriptor (open for reading, close-on-exec).
    pub fn raw_fd(&self) -> RawFd {
        self.0.as_fd().as_raw_fd()
    }

    /// A path that leads to the directory itself in the referee's process, whatever its name
    /// now: `/proc/self/fd/N`.
    pub fn through_fd(&self) -> PathBuf {
        PathBuf::from(format!("/proc/self/fd/{}", self.raw_fd()))
    }

    /// Checks that its path still leads, through no symbolic link, to the directory admitted.
    ///
    /// # Errors
    /// [`WorkdirChanged`] saying what the path leads to now.
    pub fn check_named(&self) -> Result<(), WorkdirChanged> {
        let now = match path_walk::walk(self.path(), OFlags::PATH) {
            Ok(found) if path_walk::identity(&found.stat) == self.identity() => return Ok(()),
            Ok(found) => format!(
                "the path now names another file (device {}, inode {})",
                found.stat.st_dev, found.stat.st_ino
            ),
            Err(WalkError::Link(link)) => format!(
                "{} is now a symbolic link (to {})",
                link.display(),
                std::fs::read_link(&link)
                    .map(|t| t.display().to_string())
                    .unwrap_or_else(|_| "?".into())
            ),
            Err(e) => format!("the path cannot be followed now ({e})"),
        };
        Err(WorkdirChanged {
            path: self.path().to_path_buf(),
            identity: self.identity(),
            now,
        })
    }
}

impl AsFd for AdmittedWorkdir {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.0.as_fd()
    }
}

/// Each bot's admitted workdir, by the bot's name.
#[derive(Clone, Debug, Default)]
pub struct Workdirs(Arc<BTreeMap<String, AdmittedWorkdir>>);

impl Workdirs {
    /// The workdirs of `bots` (name, workdir).
    pub fn new(bots: impl IntoIterator<Item = (String, AdmittedWorkdir)>) -> Self {
        Workdirs(Arc::new(bots.into_iter().collect()))
    }

    /// The workdir admitted for the bot named `name`, if any.
    pub fn get(&self, name: &str) -> Option<&AdmittedWorkdir> {
        self.0.get(name)
    }

    /// Every bot's workdir, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &AdmittedWorkdir)> {
        self.0.iter()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The directory at `path` (a real path), admitted without the rule's checks.
    pub(crate) fn admitted(path: &Path) -> AdmittedWorkdir {
        let real = path.canonicalize().unwrap();
        AdmittedWorkdir::new(OpenDir::open(&real).unwrap())
    }

    #[test]
    fn a_workdir_swapped_for_a_link_or_another_directory_is_told() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let work = base.join("work");
        std::fs::create_dir(&work).unwrap();
        let held = admitted(&work);
        held.check_named().unwrap();
        std::fs::write(work.join("mine"), "x").unwrap();

        std::fs::rename(&work, base.join("work.real")).unwrap();
        std::os::unix::fs::symlink(base.join("elsewhere"), &work).unwrap();
        let err = held.check_named().unwrap_err();
        assert!(err.now.contains("is now a symbolic link"), "{err}");
        assert!(err.to_string().ends_with("the bot is not started"), "{err}");
        // Through its descriptor, the directory held, wherever it is now.
        assert!(held.through_fd().join("mine").exists());

        std::fs::remove_file(&work).unwrap();
        std::fs::create_dir(&work).unwrap();
        let err = held.check_named().unwrap_err();
        assert!(err.now.contains("another file"), "{err}");

        std::fs::remove_dir(&work).unwrap();
        std::fs::rename(base.join("work.real"), &work).unwrap();
        held.check_named().unwrap();
    }
}
