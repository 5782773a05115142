//! Private directories: what the referee writes for a competition (a results directory, its
//! `stderr/` and `logs/`, a `--stderr-dir`, a report of a tournament not finished) is for the
//! referee's user alone until the competition ends: the seed in `tournament.json` is the key to
//! every deal, and `logs/` holds every hand. The rule is stated once in
//! [docs/security.md](../../../docs/security.md#who-can-read-the-results).

use super::error::FileErrorKind;
use crate::seat::users::reach::mode_string;
use rustix::fs::{self, FileType, Mode};
use std::fmt;
use std::fs::File;
use std::os::fd::BorrowedFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The mode of a directory the referee writes privately.
pub(super) const PRIVATE_DIR: u32 = 0o700;
/// The mode of a file the referee writes privately.
pub(super) const PRIVATE_FILE: u32 = 0o600;
/// The permissions of group and other users.
const OTHERS: u32 = 0o077;
/// The write permissions of group and other users.
const OTHERS_WRITE: u32 = 0o022;

/// Who may read what the referee writes in a directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Privacy {
    /// The referee's user alone, whatever the umask: directories it writes into are 0700 and
    /// the files it writes 0600; an existing directory must be that user's and writable by no
    /// one else (else it is refused), and whatever in it group or other users could read is
    /// made private.
    Private,
    /// As the umask says: what is meant to be published (a report of a finished tournament),
    /// and what is only read.
    Published,
}

impl Privacy {
    /// The mode a new directory is made with.
    pub(super) fn dir_mode(self) -> Mode {
        Mode::from_raw_mode(match self {
            Privacy::Private => PRIVATE_DIR,
            Privacy::Published => 0o777,
        })
    }

    /// The mode a new file is made with.
    pub(super) fn file_mode(self) -> Mode {
        Mode::from_raw_mode(match self {
            Privacy::Private => PRIVATE_FILE,
            Privacy::Published => 0o666,
        })
    }
}

/// A directory that other users could read, which the referee made private.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadePrivate {
    /// The directory.
    pub path: PathBuf,
    /// Its mode before (type and permission bits).
    pub mode: u32,
    /// Whether it held a tournament (`tournament.json`, and so its seed) that they could read.
    pub held_seed: bool,
}

impl fmt::Display for MadePrivate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} was {} ({:o}), open to other users of this machine: the referee made it private (700, its files 600)",
            self.path.display(),
            mode_string(self.mode),
            self.mode & 0o7777
        )?;
        if self.held_seed {
            write!(
                f,
                "; they could read its seed (tournament.json) until now: if they must not know the deals, start again with a new --seed and --out"
            )?;
        }
        write!(f, "; see docs/security.md#who-can-read-the-results")
    }
}

/// Checks a directory the referee is about to write privately, before anything is written:
/// it must be the referee's user's, and no other user may write it. Then makes it 0700; returns
/// its earlier mode when group or other users had any permission on it.
pub(super) fn secure_dir(fd: BorrowedFd<'_>, path: &Path) -> Result<Option<u32>, FileErrorKind> {
    let stat = fs::fstat(fd)?;
    let (mode, owner) = (stat.st_mode, stat.st_uid);
    let user = rustix::process::geteuid().as_raw();
    if owner != user {
        return Err(FileErrorKind::NotYours { owner, user, mode });
    }
    if mode & OTHERS_WRITE != 0 {
        return Err(FileErrorKind::OthersCanWrite {
            dir: path.to_path_buf(),
            mode,
            owner,
        });
    }
    if mode & 0o7777 != PRIVATE_DIR {
        fs::fchmod(fd, Mode::from_raw_mode(PRIVATE_DIR))?;
    }
    Ok((mode & OTHERS != 0).then_some(mode))
}

/// Makes a file the referee writes in a private directory 0600, whatever the umask made it or
/// an older referee left.
pub(super) fn secure_written(fd: BorrowedFd<'_>, mode: u32) -> Result<(), FileErrorKind> {
    if mode & 0o7777 != PRIVATE_FILE {
        fs::fchmod(fd, Mode::from_raw_mode(PRIVATE_FILE))?;
    }
    Ok(())
}

/// Whether a file found in a private directory, and not written this time, must lose the
/// permissions of group and other users.
pub(super) fn open_to_others(mode: u32) -> bool {
    mode & OTHERS != 0
}

/// Takes the permissions of group and other users from a regular file of one name found in a
/// private directory (anything else is left alone: the caller refuses it where it must).
pub(super) fn secure_found(fd: BorrowedFd<'_>) -> Result<(), FileErrorKind> {
    let stat = fs::fstat(fd)?;
    let mode = stat.st_mode;
    let regular = FileType::from_raw_mode(mode) == FileType::RegularFile && stat.st_nlink == 1;
    if regular && open_to_others(mode) {
        fs::fchmod(fd, Mode::from_raw_mode(mode & 0o700))?;
    }
    Ok(())
}

/// Makes, or empties, the file a user named for the referee to write (`match --log FILE`: a
/// match log holds every hand), for the referee's user alone: a new file is 0600, whatever the
/// umask, and so is one there that is that user's. A link in the name is followed (the user
/// named it); a file of another user keeps its owner and mode.
///
/// # Errors
/// When the file cannot be opened or its mode set.
pub fn create_private_file(path: &Path) -> std::io::Result<File> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(PRIVATE_FILE)
        .open(path)?;
    let meta = file.metadata()?;
    if meta.uid() == rustix::process::geteuid().as_raw() && meta.mode() & 0o7777 != PRIVATE_FILE {
        file.set_permissions(std::fs::Permissions::from_mode(PRIVATE_FILE))?;
    }
    Ok(file)
}
