//! The referee's mark on a directory it has handed to a bot as its workdir: a file,
//! [`MARKER_FILE`], that the referee writes in the directory when a workdir named on its command
//! line is first used, and that a later run (`referee rerun`) reads to know that a workdir it
//! finds recorded is one the referee gave that bot, not one a results directory made up.
//!
//! The mark holds the directory's absolute path, its device and inode, and the bots it was
//! given to (name and command). It is trusted only when it is a regular file with one link,
//! owned by the referee's user and writable by no one else, and when what it holds is the
//! directory it lies in: so a bot (another uid, whose group may write the directory but not
//! the file, which the workdir hand-over leaves alone), another user, or a marker copied or
//! moved from elsewhere cannot forge it. A file, not a `trusted.*` extended attribute: those
//! need root to set and to read, and a referee that is not root marks its workdirs too
//! (`docs/security.md#bot-users`).

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

/// The marker's file name, in the workdir itself.
pub const MARKER_FILE: &str = ".referee-workdir";

/// The temporary name a marker is written under before it is renamed into place.
const MARKER_TEMP: &str = ".referee-workdir.new";

/// The largest marker read (a marker of many bots with long commands is a few KiB).
const MARKER_MAX_BYTES: u64 = 64 * 1024;

/// A bot a workdir was given to: its name and its command, as `tournament.json` records it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MarkedBot {
    /// The bot's name.
    pub name: String,
    /// Its command, as one line.
    pub command: String,
}

/// What a marker holds.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    path: PathBuf,
    device: u64,
    inode: u64,
    bots: Vec<MarkedBot>,
}

/// Why a directory's mark cannot be trusted.
#[derive(Debug, thiserror::Error)]
pub enum MarkerError {
    /// There is no marker.
    #[error("it holds no {MARKER_FILE}")]
    Missing,
    /// The marker is not a file only the referee's user could have written.
    #[error("its {MARKER_FILE} {0}, so the referee cannot have written it")]
    NotTheReferees(String),
    /// The marker cannot be read or is not a marker.
    #[error("its {MARKER_FILE} cannot be read: {0}")]
    Unreadable(String),
    /// The marker names another directory: it was copied or moved here.
    #[error(
        "its {MARKER_FILE} marks {path} (device {device}, inode {inode}), not this directory (device {here_device}, inode {here_inode}): a marker copied or moved from elsewhere"
    )]
    Elsewhere {
        /// The directory the marker names.
        path: PathBuf,
        /// Its device.
        device: u64,
        /// Its inode.
        inode: u64,
        /// This directory's device.
        here_device: u64,
        /// This directory's inode.
        here_inode: u64,
    },
    /// The marker gives the directory to other bots.
    #[error("its {MARKER_FILE} marks it for {marked}, not for bot '{name}' ({command})")]
    OtherBot {
        /// The bots it was given to.
        marked: String,
        /// The bot asking.
        name: String,
        /// That bot's command.
        command: String,
    },
}

/// A directory opened without following a symbolic link, for its mark to be read or written
/// through the descriptor.
#[derive(Debug)]
pub struct OpenDir {
    fd: OwnedFd,
    path: PathBuf,
    device: u64,
    inode: u64,
    owner: u32,
}

impl OpenDir {
    /// Opens the directory at `path` (an absolute path whose symbolic links are resolved: its
    /// last component is not followed).
    ///
    /// # Errors
    /// When it cannot be opened, or is not a directory (a symbolic link among them).
    pub fn open(path: &Path) -> std::io::Result<Self> {
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let st = rustix::fs::fstat(&fd)?;
        Ok(OpenDir {
            fd,
            path: path.to_path_buf(),
            device: st.st_dev,
            inode: st.st_ino,
            owner: st.st_uid,
        })
    }

    /// The directory found by `walked` at `path` (opened for reading).
    pub fn from_walked(walked: super::path_walk::Walked, path: &Path) -> Self {
        OpenDir {
            fd: walked.fd,
            path: path.to_path_buf(),
            device: walked.stat.st_dev,
            inode: walked.stat.st_ino,
            owner: walked.stat.st_uid,
        }
    }

    /// The path it was opened at.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its device and inode: what it is, whatever its name.
    pub fn identity(&self) -> (u64, u64) {
        (self.device, self.inode)
    }

    /// The directory's owner.
    pub fn owner(&self) -> u32 {
        self.owner
    }

    /// The descriptor of the directory.
    pub fn fd(&self) -> &OwnedFd {
        &self.fd
    }

    /// Checks the directory's mark: a marker the referee's user wrote, for this directory, and,
    /// when `bot` is given, for that bot.
    ///
    /// # Errors
    /// [`MarkerError`] saying why the mark is missing or cannot be trusted.
    pub fn verify(&self, bot: Option<&MarkedBot>) -> Result<(), MarkerError> {
        let marker = self.read()?;
        if marker.path != self.path || marker.device != self.device || marker.inode != self.inode {
            return Err(MarkerError::Elsewhere {
                path: marker.path,
                device: marker.device,
                inode: marker.inode,
                here_device: self.device,
                here_inode: self.inode,
            });
        }
        match bot {
            Some(bot) if !marker.bots.contains(bot) => Err(MarkerError::OtherBot {
                marked: marked_names(&marker.bots),
                name: bot.name.clone(),
                command: bot.command.clone(),
            }),
            _ => Ok(()),
        }
    }

    fn read(&self) -> Result<Marker, MarkerError> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = match rustix::fs::openat(&self.fd, MARKER_FILE, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) => return Err(MarkerError::Missing),
            Err(rustix::io::Errno::LOOP) => {
                return Err(MarkerError::NotTheReferees("is a symbolic link".into()));
            }
            Err(e) => return Err(MarkerError::Unreadable(e.to_string())),
        };
        let st = rustix::fs::fstat(&fd).map_err(|e| MarkerError::Unreadable(e.to_string()))?;
        let referee = rustix::process::geteuid().as_raw();
        let mode = st.st_mode & 0o7777;
        let not = if FileType::from_raw_mode(st.st_mode) != FileType::RegularFile {
            Some("is not a regular file".to_string())
        } else if st.st_uid != referee {
            Some(format!(
                "belongs to uid {}, not to the referee's (uid {referee})",
                st.st_uid
            ))
        } else if mode & 0o022 != 0 {
            Some(format!("is writable by others (mode {mode:o})"))
        } else if st.st_nlink != 1 {
            Some(format!("has {} hard links", st.st_nlink))
        } else {
            None
        };
        if let Some(why) = not {
            return Err(MarkerError::NotTheReferees(why));
        }
        let mut text = String::new();
        std::fs::File::from(fd)
            .take(MARKER_MAX_BYTES)
            .read_to_string(&mut text)
            .map_err(|e| MarkerError::Unreadable(e.to_string()))?;
        serde_json::from_str(&text).map_err(|e| MarkerError::Unreadable(e.to_string()))
    }

    /// Marks the directory as the workdir of `bots`: a marker written under a temporary name,
    /// then renamed over any earlier one, owned by the referee's user, readable by it alone.
    ///
    /// # Errors
    /// When the marker cannot be written (a read-only directory, say).
    pub fn mark(&self, bots: &[MarkedBot]) -> std::io::Result<()> {
        let marker = Marker {
            path: self.path.clone(),
            device: self.device,
            inode: self.inode,
            bots: bots.to_vec(),
        };
        let text = serde_json::to_string_pretty(&marker).expect("markers serialize") + "\n";
        // A name a bot left in the way (a file, a link) is removed, not followed.
        match rustix::fs::unlinkat(&self.fd, MARKER_TEMP, AtFlags::empty()) {
            Ok(()) | Err(rustix::io::Errno::NOENT) => {}
            Err(e) => return Err(e.into()),
        }
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW;
        let fd = rustix::fs::openat(
            &self.fd,
            MARKER_TEMP,
            flags | OFlags::CLOEXEC,
            Mode::RUSR | Mode::WUSR,
        )?;
        // The directory's set-group-ID bit may have given it a bot's group: the referee's.
        rustix::fs::fchown(&fd, None, Some(rustix::process::getegid()))?;
        rustix::fs::fchmod(&fd, Mode::RUSR | Mode::WUSR)?;
        // Not synced: a mark lost or cut short by a crash is refused when read, never trusted.
        std::fs::File::from(fd).write_all(text.as_bytes())?;
        rustix::fs::renameat(&self.fd, MARKER_TEMP, &self.fd, MARKER_FILE)?;
        Ok(())
    }
}

impl AsFd for OpenDir {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

/// `'a' (cmd), 'b' (cmd)`: the bots of a marker, for messages.
fn marked_names(bots: &[MarkedBot]) -> String {
    if bots.is_empty() {
        return "no bot".into();
    }
    bots.iter()
        .map(|b| format!("bot '{}' ({})", b.name, b.command))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn bot(name: &str) -> MarkedBot {
        MarkedBot {
            name: name.into(),
            command: format!("python3 {name}.py"),
        }
    }

    fn open(path: &Path) -> OpenDir {
        OpenDir::open(&path.canonicalize().unwrap()).unwrap()
    }

    #[test]
    fn a_marked_directory_is_the_marked_bots_and_no_others() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            open(dir.path()).verify(None),
            Err(MarkerError::Missing)
        ));
        open(dir.path()).mark(&[bot("a")]).unwrap();
        let marked = open(dir.path());
        marked.verify(Some(&bot("a"))).unwrap();
        marked.verify(None).unwrap();
        let err = marked.verify(Some(&bot("b"))).unwrap_err();
        assert!(matches!(err, MarkerError::OtherBot { .. }), "{err}");
        let mode = std::fs::metadata(dir.path().join(MARKER_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        // Marked again for another bot: the new mark replaces the old.
        marked.mark(&[bot("b")]).unwrap();
        open(dir.path()).verify(Some(&bot("b"))).unwrap();
    }

    #[test]
    fn a_copied_or_writable_or_linked_marker_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (dir.path().join("first"), dir.path().join("second"));
        std::fs::create_dir(&first).unwrap();
        std::fs::create_dir(&second).unwrap();
        open(&first).mark(&[bot("a")]).unwrap();
        std::fs::copy(first.join(MARKER_FILE), second.join(MARKER_FILE)).unwrap();
        let err = open(&second).verify(Some(&bot("a"))).unwrap_err();
        assert!(matches!(err, MarkerError::Elsewhere { .. }), "{err}");

        let marker = first.join(MARKER_FILE);
        std::fs::set_permissions(&marker, std::fs::Permissions::from_mode(0o620)).unwrap();
        let err = open(&first).verify(None).unwrap_err();
        assert!(matches!(err, MarkerError::NotTheReferees(_)), "{err}");

        std::fs::remove_file(second.join(MARKER_FILE)).unwrap();
        std::os::unix::fs::symlink(&marker, second.join(MARKER_FILE)).unwrap();
        let err = open(&second).verify(None).unwrap_err();
        assert!(matches!(err, MarkerError::NotTheReferees(_)), "{err}");
    }

    #[test]
    fn a_link_in_the_way_of_the_temporary_name_is_removed_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "keep").unwrap();
        let work = dir.path().join("work");
        std::fs::create_dir(&work).unwrap();
        std::os::unix::fs::symlink(&outside, work.join(MARKER_TEMP)).unwrap();
        open(&work).mark(&[bot("a")]).unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        open(&work).verify(Some(&bot("a"))).unwrap();
    }
}
