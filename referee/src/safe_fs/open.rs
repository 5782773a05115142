//! The opening itself: one plain name beneath a directory descriptor, never through a link; a
//! non-blocking open and a look at what was opened before it is used; bounded reads.

use super::error::{FileError, FileErrorKind};
use super::private::{Privacy, secure_written};
use rustix::fs::{self, AtFlags, FileType, Mode, OFlags, ResolveFlags};
use rustix::io::Errno;
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

/// How often `openat2` is asked again when it says `EAGAIN` (a rename raced the lookup).
const RETRIES: usize = 8;

/// What a file is opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Access {
    /// Reading a regular file.
    Read,
    /// Appending to a regular file of one name, made if missing.
    Append,
    /// Writing a new regular file (nothing may be at the name).
    CreateNew,
    /// Reading a directory's entries and opening files in it.
    Directory,
}

impl Access {
    fn flags(self) -> OFlags {
        match self {
            Access::Read => OFlags::RDONLY | OFlags::NONBLOCK,
            Access::Append => OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE | OFlags::NONBLOCK,
            Access::CreateNew => OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL,
            Access::Directory => OFlags::RDONLY | OFlags::DIRECTORY,
        }
    }

    fn wanted(self) -> &'static str {
        match self {
            Access::Directory => "a directory",
            _ => "a regular file",
        }
    }
}

/// Whether `name` is one plain part of a path, the only names opened in a [`SafeDir`]: not
/// empty, `.` or `..`, and holding no `/` (an absolute name does) and no NUL.
///
/// [`SafeDir`]: super::SafeDir
pub fn is_plain_name(name: &str) -> bool {
    !(name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']))
}

/// Refuses a name that is not [plain](is_plain_name).
pub(super) fn plain(name: &str) -> Result<(), FileErrorKind> {
    if !is_plain_name(name) {
        return Err(FileErrorKind::BadName(name.to_string()));
    }
    Ok(())
}

/// Opens `name` beneath `dir` for `access`, and checks what it is: a regular file (of one name,
/// to be written to) or a directory, as `access` needs. A FIFO or a device is opened
/// non-blocking, so nothing waits for a writer or a reader; the flag is cleared once the file is
/// known to be regular. A file written in a [private](Privacy::Private) directory is made 0600.
pub(super) fn open_checked(
    dir: BorrowedFd<'_>,
    name: &str,
    access: Access,
    privacy: Privacy,
) -> Result<OwnedFd, FileErrorKind> {
    plain(name)?;
    let flags = access.flags();
    // openat2 takes a mode only with O_CREAT.
    let mode = if flags.contains(OFlags::CREATE) {
        privacy.file_mode()
    } else {
        Mode::empty()
    };
    let fd =
        open_beneath(dir, name, flags, mode).map_err(|errno| refusal(dir, name, errno, access))?;
    let stat = fs::fstat(&fd)?;
    let found = FileType::from_raw_mode(stat.st_mode);
    let wanted = match access {
        Access::Directory => FileType::Directory,
        _ => FileType::RegularFile,
    };
    if found != wanted {
        return Err(FileErrorKind::WrongType {
            found: kind_name(found),
            wanted: access.wanted(),
        });
    }
    let names = stat.st_nlink as u64;
    if matches!(access, Access::Append) && names > 1 {
        return Err(FileErrorKind::HardLinked(names));
    }
    if privacy == Privacy::Private && matches!(access, Access::Append | Access::CreateNew) {
        secure_written(fd.as_fd(), stat.st_mode)?;
    }
    blocking(fd.as_fd())?;
    Ok(fd)
}

/// `openat2` beneath `dir`, with no symbolic link in any component (nor a "magic" link of
/// `/proc`) and `O_NOFOLLOW`; where the kernel has no `openat2` (before Linux 5.6, or a system-
/// call filter that refuses it), `openat` with `O_NOFOLLOW`, which is the same for a name of one
/// part — the only names this module opens.
pub(super) fn open_beneath(
    dir: BorrowedFd<'_>,
    name: &str,
    flags: OFlags,
    mode: Mode,
) -> rustix::io::Result<OwnedFd> {
    let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY;
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
    for _ in 0..RETRIES {
        match fs::openat2(dir, name, flags, mode, resolve) {
            Err(Errno::AGAIN) => continue,
            Err(Errno::NOSYS | Errno::PERM) => break,
            opened => return opened,
        }
    }
    open_one_part(dir, name, flags, mode)
}

/// The fallback of [`open_beneath`]: `openat` with `O_NOFOLLOW`, for a name of one part.
pub(super) fn open_one_part(
    dir: BorrowedFd<'_>,
    name: &str,
    flags: OFlags,
    mode: Mode,
) -> rustix::io::Result<OwnedFd> {
    debug_assert!(plain(name).is_ok(), "one part: {name:?}");
    fs::openat(dir, name, flags | OFlags::NOFOLLOW | OFlags::CLOEXEC, mode)
}

/// Why `name` could not be opened, in words: a link, something of the wrong type (told from
/// what is there, without following it), or the system's error.
fn refusal(dir: BorrowedFd<'_>, name: &str, errno: Errno, access: Access) -> FileErrorKind {
    if errno == Errno::NOENT {
        return FileErrorKind::Missing;
    }
    match fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
            FileType::Symlink => FileErrorKind::Link,
            FileType::RegularFile if access != Access::Directory => errno.into(),
            FileType::Directory if access == Access::Directory => errno.into(),
            found => FileErrorKind::WrongType {
                found: kind_name(found),
                wanted: access.wanted(),
            },
        },
        // ELOOP with nothing to look at: a link on the way.
        Err(_) if errno == Errno::LOOP => FileErrorKind::Link,
        Err(_) => errno.into(),
    }
}

/// The kind of file, in words.
pub(super) fn kind_name(kind: FileType) -> &'static str {
    match kind {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a directory",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Unknown => "a file of unknown type",
    }
}

/// Clears `O_NONBLOCK` (a regular file reads and writes the same with it, but the descriptor
/// is handed on).
fn blocking(fd: BorrowedFd<'_>) -> Result<(), FileErrorKind> {
    let flags = fs::fcntl_getfl(fd)?;
    if flags.contains(OFlags::NONBLOCK) {
        fs::fcntl_setfl(fd, flags - OFlags::NONBLOCK)?;
    }
    Ok(())
}

/// Opens a file the user named, for reading: its name is the user's, so links in it are
/// followed, but it must be a regular file — a FIFO or a device is refused without waiting.
///
/// # Errors
/// [`FileError`] for a missing file, one of another type, or one that cannot be opened.
pub fn open_named(path: &Path) -> Result<File, FileError> {
    use std::os::unix::fs::OpenOptionsExt;
    let failed = |kind| FileError::new(path, kind);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| {
            failed(match e.kind() {
                std::io::ErrorKind::NotFound => FileErrorKind::Missing,
                _ => e.into(),
            })
        })?;
    let stat = fs::fstat(&file).map_err(|e| failed(e.into()))?;
    let found = FileType::from_raw_mode(stat.st_mode);
    if found != FileType::RegularFile {
        return Err(failed(FileErrorKind::WrongType {
            found: kind_name(found),
            wanted: "a regular file",
        }));
    }
    blocking(file.as_fd()).map_err(failed)?;
    Ok(file)
}

/// Reads the whole of a file the user named, at most `limit` bytes ([`open_named`]).
///
/// # Errors
/// As [`open_named`], and [`FileErrorKind::TooBig`] for a file over `limit`.
pub fn read_named(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let mut file = open_named(path)?;
    read_to_limit(&mut file, limit).map_err(|kind| FileError::new(path, kind))
}

/// Reads `file` to its end, refusing it as soon as it is seen to hold more than `limit` bytes
/// (its size first, then what is read, for a file that grows meanwhile).
///
/// # Errors
/// [`FileErrorKind::TooBig`], or the system's error.
pub fn read_to_limit(file: &mut File, limit: u64) -> Result<Vec<u8>, FileErrorKind> {
    let size = file.metadata()?.len();
    if size > limit {
        return Err(FileErrorKind::TooBig { limit });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileErrorKind::TooBig { limit });
    }
    Ok(bytes)
}
