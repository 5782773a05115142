//! Leasing uids and gids across every referee of the machine.
//!
//! An id is leased by holding an exclusive `flock` on a file of its own in a directory only
//! root may write ([`LEASE_DIR`]): a referee holds the descriptor while the bot process (uid) or
//! the run (gid) lasts, and a crash releases it with the descriptor. An id some running process
//! holds — one of a bot that outlived its referee, or of another program that uses the range —
//! is skipped too, so that no two live bot processes ever share a uid.

use super::UidRange;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Where the referee keeps its lease files.
pub const LEASE_DIR: &str = "/run/referee/uids";

/// What an id is leased as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    /// A user id, for one bot process.
    User,
    /// A group id, for one bot and its working directory.
    Group,
}

impl IdKind {
    /// `uid` or `gid`.
    pub fn name(self) -> &'static str {
        match self {
            IdKind::User => "uid",
            IdKind::Group => "gid",
        }
    }
}

/// Ids that cannot be leased.
#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    /// The directory of the lease files cannot be made or used.
    #[error("cannot keep the leases of bot uids in {path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Every id of the range is leased or in use.
    #[error(
        "every {} of {range} is taken (by bots of this or another referee, or by running processes): give a wider --bot-uids",
        kind.name()
    )]
    Exhausted {
        /// What was asked for.
        kind: IdKind,
        /// The range.
        range: UidRange,
    },
}

/// The ids of a range, leased from the lease files of a directory.
#[derive(Debug)]
pub struct IdPool {
    range: UidRange,
    dir: PathBuf,
    /// Where the next search of each kind starts (an offset in the range), so that an id just
    /// given back is taken last.
    next: [AtomicU32; 2],
}

/// One leased id: leased while this lives.
#[derive(Debug)]
pub struct IdLease {
    id: u32,
    _lock: File,
}

impl IdLease {
    /// The id.
    pub fn id(&self) -> u32 {
        self.id
    }
}

impl IdPool {
    /// The pool of `range` with its lease files in `dir`, made (for root alone) if missing.
    ///
    /// # Errors
    /// [`LeaseError::Dir`] when `dir` cannot be made.
    pub fn open(range: UidRange, dir: &Path) -> Result<Self, LeaseError> {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|source| LeaseError::Dir {
                path: dir.to_path_buf(),
                source,
            })?;
        Ok(IdPool {
            range,
            dir: dir.to_path_buf(),
            next: [AtomicU32::new(0), AtomicU32::new(0)],
        })
    }

    /// The range.
    pub fn range(&self) -> UidRange {
        self.range
    }

    /// Leases an id of `kind` that no other lease holds and no running process has.
    ///
    /// # Errors
    /// [`LeaseError::Exhausted`] when there is none; [`LeaseError::Dir`] when a lease file
    /// cannot be made.
    pub fn lease(&self, kind: IdKind) -> Result<IdLease, LeaseError> {
        let size = self.range.last - self.range.first + 1;
        let start = self.next[kind as usize].load(Ordering::Relaxed) % size;
        let used = ids_in_use(kind);
        for offset in (0..size).map(|i| (start + i) % size) {
            let id = self.range.first + offset;
            if used.contains(&id) {
                continue;
            }
            let path = self.dir.join(format!("{}-{id}", kind.name()));
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .mode(0o600)
                .custom_flags(libc::O_CLOEXEC)
                .open(&path)
                .map_err(|source| LeaseError::Dir {
                    path: path.clone(),
                    source,
                })?;
            // SAFETY: flock on a descriptor this function owns.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                self.next[kind as usize].store(offset + 1, Ordering::Relaxed);
                return Ok(IdLease { id, _lock: file });
            }
        }
        Err(LeaseError::Exhausted {
            kind,
            range: self.range,
        })
    }
}

/// The ids of `kind` some running process has (real, effective, saved or file-system; for
/// groups, supplementary too), from `/proc/PID/status`, which shows them whatever the process
/// did to hide (`/proc/PID` itself belongs to root when a process is not dumpable).
fn ids_in_use(kind: IdKind) -> BTreeSet<u32> {
    let fields: &[&str] = match kind {
        IdKind::User => &["Uid:"],
        IdKind::Group => &["Gid:", "Groups:"],
    };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return BTreeSet::new();
    };
    let mut used = BTreeSet::new();
    // The ids come in the first lines: one read of each file (its size is not known ahead).
    let mut start = [0u8; 2048];
    for pid in entries.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok()) {
        let Ok(n) = File::open(format!("/proc/{pid}/status")).and_then(|mut f| f.read(&mut start))
        else {
            continue;
        };
        for line in String::from_utf8_lossy(&start[..n]).lines() {
            if let Some(ids) = fields.iter().find_map(|f| line.strip_prefix(f)) {
                used.extend(
                    ids.split_whitespace()
                        .filter_map(|id| id.parse::<u32>().ok()),
                );
            }
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(first: u32, last: u32) -> (tempfile::TempDir, IdPool) {
        let dir = tempfile::tempdir().unwrap();
        let pool = IdPool::open(UidRange { first, last }, &dir.path().join("leases")).unwrap();
        (dir, pool)
    }

    #[test]
    fn each_lease_is_an_id_of_its_own_until_it_is_dropped() {
        let (_dir, pool) = pool(1_000_000, 1_000_002);
        let mut leases: Vec<IdLease> = (0..3).map(|_| pool.lease(IdKind::User).unwrap()).collect();
        let mut ids: Vec<u32> = leases.iter().map(IdLease::id).collect();
        ids.sort();
        assert_eq!(ids, [1_000_000, 1_000_001, 1_000_002]);
        let err = pool.lease(IdKind::User).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("every uid of 1000000-1000002 is taken"),
            "{err}"
        );
        // Groups are leased apart from users.
        assert!(pool.lease(IdKind::Group).is_ok());
        let freed = leases.remove(1);
        let id = freed.id();
        drop(freed);
        assert_eq!(pool.lease(IdKind::User).unwrap().id(), id);
    }

    #[test]
    fn another_pool_on_the_same_files_is_another_referee_and_waits_its_turn() {
        let (dir, first) = pool(1_000_000, 1_000_001);
        let other = IdPool::open(first.range(), &dir.path().join("leases")).unwrap();
        let a = first.lease(IdKind::Group).unwrap();
        let b = other.lease(IdKind::Group).unwrap();
        assert_ne!(a.id(), b.id());
        assert!(other.lease(IdKind::Group).is_err());
    }

    #[test]
    fn an_id_a_running_process_has_is_never_leased() {
        // This test's own process has its uid and gid.
        // SAFETY: getuid and getgid only read the caller's ids.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let (_dir, users) = pool(uid, uid + 1000);
        assert_ne!(users.lease(IdKind::User).unwrap().id(), uid);
        let (_dir, groups) = pool(gid, gid + 1000);
        assert_ne!(groups.lease(IdKind::Group).unwrap().id(), gid);
    }
}
