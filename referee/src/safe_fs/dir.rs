//! [`SafeDir`]: a directory opened once, and every file in it opened beneath its descriptor.

use super::error::{FileError, FileErrorKind};
use super::open::{Access, kind_name, open_checked, plain, read_to_limit};
use super::private::{MadePrivate, Privacy, open_to_others, secure_dir, secure_found};
use rustix::fs::{self, AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

/// A directory whose contents the referee does not trust (a results directory, a report's
/// directory, a `--stderr-dir`), opened once by the name the user gave. Every file and
/// subdirectory in it is reached by one plain name beneath this descriptor, never through a
/// symbolic link ([module documentation](super)). A [private](Privacy::Private) one is the
/// referee's user's alone, and so is everything the referee writes or finds in it.
pub struct SafeDir {
    fd: OwnedFd,
    path: PathBuf,
    privacy: Privacy,
    /// Its mode before the referee made it private, when other users had any permission.
    was_open: Option<u32>,
}

impl std::fmt::Debug for SafeDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("SafeDir").field(&self.path).finish()
    }
}

impl SafeDir {
    /// Opens the directory the user named (`path` is the user's: a link in it is followed), to
    /// read it: its modes are left as they are.
    ///
    /// # Errors
    /// [`FileError`]: nothing there, not a directory, or not readable.
    pub fn open(path: &Path) -> Result<Self, FileError> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOCTTY)
            .open(path)
            .map_err(|e| {
                let kind = match e.raw_os_error() {
                    Some(libc::ENOENT) => FileErrorKind::Missing,
                    Some(libc::ENOTDIR) => FileErrorKind::WrongType {
                        found: "something else (or a path through a file)",
                        wanted: "a directory",
                    },
                    _ => e.into(),
                };
                FileError::new(path, kind)
            })?;
        Ok(SafeDir {
            fd: file.into(),
            path: path.to_path_buf(),
            privacy: Privacy::Published,
            was_open: None,
        })
    }

    /// Makes the directory the user named, and those above it, where missing (those above as
    /// the umask says, the directory itself as `privacy` does); then opens it to write in it.
    /// A [private](Privacy::Private) one is checked before anything is written — the referee's
    /// user's, writable by no one else — and made 0700.
    ///
    /// # Errors
    /// [`FileError`] when it cannot be made or opened, or, private, when it is another user's
    /// ([`FileErrorKind::NotYours`]) or other users can write it
    /// ([`FileErrorKind::OthersCanWrite`]).
    pub fn create(path: &Path, privacy: Privacy) -> Result<Self, FileError> {
        let failed = |e: std::io::Error| FileError::new(path, e.into());
        match (privacy, path.parent()) {
            (Privacy::Published, _) => std::fs::create_dir_all(path).map_err(failed)?,
            (Privacy::Private, parent) => {
                if let Some(parent) = parent.filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent).map_err(failed)?;
                }
                match fs::mkdir(path, privacy.dir_mode()) {
                    Ok(()) | Err(Errno::EXIST) => {}
                    Err(errno) => return Err(failed(errno.into())),
                }
            }
        }
        let mut dir = SafeDir::open(path)?;
        dir.privacy = privacy;
        if privacy == Privacy::Private {
            dir.was_open = secure_dir(dir.fd.as_fd(), path).map_err(|kind| dir.error_at(kind))?;
        }
        Ok(dir)
    }

    /// The directory, when other users could read it until the referee made it private
    /// ([`SafeDir::create`]); its `held_seed` is for the caller to say.
    pub fn made_private(&self) -> Option<MadePrivate> {
        self.was_open.map(|mode| MadePrivate {
            path: self.path.clone(),
            mode,
            held_seed: false,
        })
    }

    /// The directory's path, as the user gave it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of `name` in the directory, for messages.
    pub fn path_of(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    fn error(&self, name: &str, kind: FileErrorKind) -> FileError {
        FileError::new(&self.path_of(name), kind)
    }

    fn error_at(&self, kind: FileErrorKind) -> FileError {
        FileError::new(&self.path, kind)
    }

    /// The subdirectory `name`, if there is one; of a private directory, checked and made
    /// private as [`SafeDir::create`] does.
    ///
    /// # Errors
    /// [`FileError`] for a link or something else than a directory at the name, or, private,
    /// one of another user or that other users can write.
    pub fn subdir(&self, name: &str) -> Result<Option<SafeDir>, FileError> {
        let fd = match open_checked(self.fd.as_fd(), name, Access::Directory, self.privacy) {
            Ok(fd) => fd,
            Err(FileErrorKind::Missing) => return Ok(None),
            Err(kind) => return Err(self.error(name, kind)),
        };
        let path = self.path_of(name);
        if self.privacy == Privacy::Private {
            secure_dir(fd.as_fd(), &path).map_err(|kind| self.error(name, kind))?;
        }
        Ok(Some(SafeDir {
            fd,
            path,
            privacy: self.privacy,
            was_open: None,
        }))
    }

    /// The subdirectory `name`, made if missing ([`SafeDir::subdir`]).
    ///
    /// # Errors
    /// [`FileError`] for a link or something else than a directory at the name, one that
    /// cannot be made, or, private, one of another user or that other users can write.
    pub fn make_subdir(&self, name: &str) -> Result<SafeDir, FileError> {
        plain(name).map_err(|kind| self.error(name, kind))?;
        match fs::mkdirat(&self.fd, name, self.privacy.dir_mode()) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(errno) => return Err(self.error(name, errno.into())),
        }
        self.subdir(name)?
            .ok_or_else(|| self.error(name, FileErrorKind::Missing))
    }

    /// Whether anything is at `name`, a link included (not followed).
    ///
    /// # Errors
    /// [`FileError`] for a bad name, or one that cannot be looked at.
    pub fn holds(&self, name: &str) -> Result<bool, FileError> {
        plain(name).map_err(|kind| self.error(name, kind))?;
        match fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(_) => Ok(true),
            Err(Errno::NOENT) => Ok(false),
            Err(errno) => Err(self.error(name, errno.into())),
        }
    }

    /// Opens the regular file `name` for reading; `None` when nothing is there.
    ///
    /// # Errors
    /// [`FileError`] for a link, something else than a regular file, or a failure to open.
    pub fn open_read(&self, name: &str) -> Result<Option<File>, FileError> {
        match open_checked(self.fd.as_fd(), name, Access::Read, self.privacy) {
            Ok(fd) => Ok(Some(fd.into())),
            Err(FileErrorKind::Missing) => Ok(None),
            Err(kind) => Err(self.error(name, kind)),
        }
    }

    /// Reads the whole regular file `name`, at most `limit` bytes; `None` when nothing is there.
    ///
    /// # Errors
    /// As [`SafeDir::open_read`], and [`FileErrorKind::TooBig`].
    pub fn read(&self, name: &str, limit: u64) -> Result<Option<Vec<u8>>, FileError> {
        let Some(mut file) = self.open_read(name)? else {
            return Ok(None);
        };
        read_to_limit(&mut file, limit)
            .map(Some)
            .map_err(|kind| self.error(name, kind))
    }

    /// Opens the regular file `name` to append to it, made (empty) if missing. A file there
    /// must have no other name. In a private directory it is made 0600.
    ///
    /// # Errors
    /// [`FileError`] for a link, something else than a regular file, a file of several names,
    /// or a failure to open.
    pub fn open_append(&self, name: &str) -> Result<File, FileError> {
        open_checked(self.fd.as_fd(), name, Access::Append, self.privacy)
            .map(File::from)
            .map_err(|kind| self.error(name, kind))
    }

    /// Makes `name` a new, empty regular file, open for writing: whatever was at the name (a
    /// file of an earlier run, a link) is removed first — the name only, never what a link
    /// points to; a directory there is refused. In a private directory it is made 0600.
    ///
    /// # Errors
    /// [`FileError`] for a directory at the name, or a failure to remove or make it.
    pub fn create_file(&self, name: &str) -> Result<File, FileError> {
        plain(name).map_err(|kind| self.error(name, kind))?;
        match fs::unlinkat(&self.fd, name, AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => {}
            Err(Errno::ISDIR) => {
                return Err(self.error(
                    name,
                    FileErrorKind::WrongType {
                        found: kind_name(FileType::Directory),
                        wanted: "a regular file",
                    },
                ));
            }
            Err(errno) => return Err(self.error(name, errno.into())),
        }
        open_checked(self.fd.as_fd(), name, Access::CreateNew, self.privacy)
            .map(File::from)
            .map_err(|kind| self.error(name, kind))
    }

    /// Removes the name `name` (a file or a link there; never what a link points to); nothing
    /// there is no error.
    ///
    /// # Errors
    /// [`FileError`] for a bad name, a directory at the name, or a failure to remove it.
    pub fn remove_file(&self, name: &str) -> Result<(), FileError> {
        plain(name).map_err(|kind| self.error(name, kind))?;
        match fs::unlinkat(&self.fd, name, AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => Ok(()),
            Err(errno) => Err(self.error(name, errno.into())),
        }
    }

    /// Writes `bytes` as the whole of `name`, atomically: a new file under a temporary name
    /// (`NAME.tmp`), synced to disk first if `durable`, then renamed over `name`, which
    /// replaces a file or a link there (never what a link points to). A reader sees the old
    /// file or the new one, whole.
    ///
    /// # Errors
    /// [`FileError`] when the temporary file cannot be made or written, or the rename fails (a
    /// directory at `name`).
    pub fn replace_file(&self, name: &str, bytes: &[u8], durable: bool) -> Result<(), FileError> {
        plain(name).map_err(|kind| self.error(name, kind))?;
        let temporary = format!("{name}.tmp");
        let mut file = self.create_file(&temporary)?;
        let written = file
            .write_all(bytes)
            .and_then(|()| if durable { file.sync_all() } else { Ok(()) });
        drop(file);
        let renamed = written
            .map_err(|e| self.error(&temporary, e.into()))
            .and_then(|()| {
                fs::renameat(&self.fd, temporary.as_str(), &self.fd, name)
                    .map_err(|errno| self.error(name, errno.into()))
            });
        if renamed.is_err() {
            let _ = fs::unlinkat(&self.fd, temporary.as_str(), AtFlags::empty());
        }
        renamed
    }

    /// Checks that `name`, if anything is there, is a regular file of one name (a link is not
    /// followed); in a private directory, one that group or other users have permissions on
    /// loses them.
    ///
    /// # Errors
    /// [`FileError`] for a link, something else than a regular file, a file of several names,
    /// or one that cannot be looked at.
    pub fn check_file(&self, name: &str) -> Result<(), FileError> {
        plain(name).map_err(|kind| self.error(name, kind))?;
        self.check_entry(name, name)
    }

    /// Checks that every entry of the directory is a regular file of one name
    /// ([`SafeDir::check_file`]), and, in a private directory, private.
    ///
    /// # Errors
    /// [`FileError`] naming the first entry that is not, or a failure to read the directory.
    pub fn check_entries(&self) -> Result<(), FileError> {
        let io = |e: Errno| FileError::new(&self.path, e.into());
        for entry in fs::Dir::read_from(&self.fd).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name();
            if name != c"." && name != c".." {
                self.check_entry(name, &name.to_string_lossy())?;
            }
        }
        Ok(())
    }

    /// [`SafeDir::check_file`] of `name`, shown as `shown`.
    fn check_entry(
        &self,
        name: impl rustix::path::Arg + Copy,
        shown: &str,
    ) -> Result<(), FileError> {
        let stat = match fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => stat,
            Err(Errno::NOENT) => return Ok(()),
            Err(errno) => return Err(self.error(shown, errno.into())),
        };
        let kind = match FileType::from_raw_mode(stat.st_mode) {
            FileType::RegularFile if stat.st_nlink as u64 > 1 => {
                FileErrorKind::HardLinked(stat.st_nlink as u64)
            }
            FileType::RegularFile => return self.secure_entry(name, shown, stat.st_mode),
            FileType::Symlink => FileErrorKind::Link,
            found => FileErrorKind::WrongType {
                found: kind_name(found),
                wanted: "a regular file",
            },
        };
        Err(self.error(shown, kind))
    }

    /// In a private directory, takes the permissions of group and other users from the
    /// regular file of one name at `name`, if there is one; anything else there is left as it
    /// is (for the caller to refuse, if it must).
    ///
    /// # Errors
    /// [`FileError`] for a bad name, or a file that cannot be looked at or changed.
    pub fn keep_private(&self, name: &str) -> Result<(), FileError> {
        plain(name).map_err(|kind| self.error(name, kind))?;
        match fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => self.secure_entry(name, name, stat.st_mode),
            Err(Errno::NOENT) => Ok(()),
            Err(errno) => Err(self.error(name, errno.into())),
        }
    }

    /// Takes the permissions of group and other users from the file `name` (of mode `mode`
    /// when looked at) of a private directory, if it is a regular file of one name, through a
    /// descriptor: never a link's target, nor a file that has another name elsewhere.
    fn secure_entry(
        &self,
        name: impl rustix::path::Arg,
        shown: &str,
        mode: u32,
    ) -> Result<(), FileError> {
        let regular = FileType::from_raw_mode(mode) == FileType::RegularFile;
        if self.privacy != Privacy::Private || !regular || !open_to_others(mode) {
            return Ok(());
        }
        // One part, read from the directory itself: O_NOFOLLOW is all it takes.
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = fs::openat(&self.fd, name, flags | OFlags::NOCTTY, Mode::empty())
            .map_err(|errno| self.error(shown, errno.into()))?;
        secure_found(fd.as_fd()).map_err(|kind| self.error(shown, kind))
    }
}
