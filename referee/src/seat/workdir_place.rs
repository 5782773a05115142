//! Where a workdir may be, whoever names it: not a directory of the system, and below
//! directories no other user can change.
//!
//! A workdir is handed to its bot with its whole tree, to write; so `/`, a directory at the top
//! of the file system (`/home`, `/tmp`, `/srv`) and the system's own directories ([`SYSTEM`])
//! are never one. And every directory above it must be out of other users' hands — the rule of
//! sshd's `StrictModes`: each belongs to root or to the referee's user and is writable by no one
//! else, unless it has the sticky bit (as `/tmp`), where only the owner of an entry may rename
//! it, and the entry below it belongs to root or the referee's user. Otherwise whoever may write
//! a directory above it could, once the run has started, rename the workdir and put a symbolic
//! link, or another directory, in its place: the referee holds the directory it admitted
//! ([`super::admitted_workdir`]), but every name of the path would be that user's to change.
//! The directories are looked at as the walk that opens the workdir passes through them
//! ([`super::path_walk`]), so they are the ones the workdir is reached through.

use super::path_walk::{self, WalkError, Walked};
use rustix::fs::OFlags;
use std::path::{Component, Path, PathBuf};

/// The system's directories: no workdir is one of them or inside one (`/lib*` is every
/// top-level name that starts with `lib`: `/lib`, `/lib64`, `/libx32`).
pub const SYSTEM: [&str; 9] = [
    "/etc", "/usr", "/bin", "/sbin", "/boot", "/dev", "/proc", "/sys", "/run",
];

/// Why a place cannot hold a workdir.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// `/`, a top-level directory, or a directory of the system.
    #[error(
        "it is {0}: a bot's workdir is given to it to write, with everything in it, so it is never /, a directory at the top of the file system, or one inside /etc, /usr, /bin, /sbin, /lib*, /boot, /dev, /proc, /sys or /run; make the bot a directory of its own (under /srv/referee, say)"
    )]
    System(&'static str),
    /// A symbolic link on the way.
    #[error(
        "a symbolic link on the way ({}) makes it {}: name that directory itself, if it is the one meant",
        link.display(),
        real.display()
    )]
    Redirected {
        /// The link.
        link: PathBuf,
        /// Where the kernel finds the directory.
        real: PathBuf,
    },
    /// A directory above it that another user can change.
    #[error(
        "the directory {} above it {why}: whoever can write there could rename the workdir and put another directory, or a link to one, in its place once the run has started; every directory above a workdir must belong to root or to the referee's user (uid {referee}) and be writable by no other user, unless it is sticky as /tmp is (sshd's StrictModes rule): give the bot a directory in such a place (under /srv/referee, say)",
        dir.display()
    )]
    Ancestor {
        /// The directory.
        dir: PathBuf,
        /// What is wrong with it.
        why: String,
        /// The referee's user.
        referee: u32,
    },
    /// It cannot be opened as a directory.
    #[error("not a directory the referee can open ({0}); make it first")]
    Unusable(std::io::Error),
}

/// What `path` (absolute, as [`path_walk::lexical`] leaves it) is, when it is a place of the
/// system no workdir may be: `None` when it may be one.
pub fn system_place(path: &Path) -> Option<&'static str> {
    let names: Vec<&std::ffi::OsStr> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    let Some(top) = names.first() else {
        return Some("/ itself");
    };
    let top = Path::new("/").join(top);
    let system =
        SYSTEM.iter().any(|s| top == Path::new(s)) || top.to_string_lossy().starts_with("/lib");
    match (names.len(), system) {
        (1, true) => Some("a directory of the system"),
        (1, false) => Some("a directory at the top of the file system"),
        (_, true) => Some("inside a directory of the system"),
        _ => None,
    }
}

/// Opens the workdir `path` (absolute, as [`path_walk::lexical`] leaves it) for reading, after
/// checking it is no place of the system, no symbolic link is on the way, and every directory
/// above it is out of other users' hands (see the module documentation). `referee` is the
/// referee's user.
///
/// # Errors
/// [`PlaceError`] saying why it cannot be a workdir.
pub fn open_workdir(path: &Path, referee: u32) -> Result<Walked, PlaceError> {
    if let Some(what) = system_place(path) {
        return Err(PlaceError::System(what));
    }
    let walked =
        path_walk::walk(path, OFlags::RDONLY | OFlags::DIRECTORY).map_err(|e| match e {
            WalkError::Link(link) => PlaceError::Redirected {
                real: path.canonicalize().unwrap_or_else(|_| link.clone()),
                link,
            },
            WalkError::Io { source, .. } => PlaceError::Unusable(source),
            e @ WalkError::NotPlain(_) => PlaceError::Unusable(std::io::Error::other(e)),
        })?;
    for (dir, stat) in &walked.above {
        if let Some(why) = unsafe_above(stat.st_uid, stat.st_mode, referee) {
            return Err(PlaceError::Ancestor {
                dir: dir.clone(),
                why,
                referee,
            });
        }
    }
    Ok(walked)
}

/// What lets another user change a directory above a workdir, owned by `owner` with `mode`:
/// `None` when nothing does. (Below a sticky directory, the entry must belong to root or the
/// referee's user: every directory after it on the way is checked to, and the workdir itself
/// must be the referee's user's.)
fn unsafe_above(owner: u32, mode: u32, referee: u32) -> Option<String> {
    let mode = mode & 0o7777;
    if owner != 0 && owner != referee {
        return Some(format!(
            "belongs to uid {owner}, not to root or to the referee's user"
        ));
    }
    let sticky = mode & 0o1000 != 0;
    match (mode & 0o020 != 0, mode & 0o002 != 0) {
        _ if sticky => None,
        (_, true) => Some(format!("is writable by every user (mode {mode:o})")),
        (true, _) => Some(format!("is writable by its group (mode {mode:o})")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_root_the_top_level_and_the_systems_directories_are_no_workdirs() {
        for path in ["/", "/home", "/tmp", "/srv"] {
            assert!(system_place(Path::new(path)).is_some(), "{path}");
        }
        for path in [
            "/etc/x",
            "/usr/lib",
            "/usr/lib/python3",
            "/lib64/x",
            "/libx32/y",
            "/proc/self",
            "/run/user/1000",
            "/boot/grub",
        ] {
            assert_eq!(
                system_place(Path::new(path)),
                Some("inside a directory of the system"),
                "{path}"
            );
        }
        for path in [
            "/home/alice/work",
            "/tmp/x",
            "/srv/referee/a",
            "/var/lib/referee",
        ] {
            assert_eq!(system_place(Path::new(path)), None, "{path}");
        }
        let err = open_workdir(Path::new("/usr/lib"), 0).unwrap_err();
        assert!(matches!(err, PlaceError::System(_)), "{err}");
    }

    #[test]
    fn a_directory_above_that_another_user_can_change_is_refused_unless_sticky() {
        let referee = rustix::process::geteuid().as_raw();
        assert_eq!(unsafe_above(referee, 0o40755, referee), None);
        assert_eq!(unsafe_above(0, 0o41777, referee), None, "/tmp");
        assert!(
            unsafe_above(2001, 0o40755, referee)
                .unwrap()
                .contains("uid 2001")
        );
        assert!(
            unsafe_above(0, 0o40775, referee)
                .unwrap()
                .contains("its group")
        );
        assert!(
            unsafe_above(0, 0o40757, referee)
                .unwrap()
                .contains("every user")
        );

        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let work = base.join("shared/work");
        std::fs::create_dir_all(&work).unwrap();
        open_workdir(&work, referee).unwrap();
        let shared = base.join("shared");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = open_workdir(&work, referee).unwrap_err();
        assert!(
            matches!(&err, PlaceError::Ancestor { dir, .. } if *dir == shared),
            "{err}"
        );
        assert!(err.to_string().contains("StrictModes"), "{err}");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        open_workdir(&work, referee).unwrap();

        std::os::unix::fs::symlink(&shared, base.join("link")).unwrap();
        let err = open_workdir(&base.join("link/work"), referee).unwrap_err();
        assert!(
            matches!(&err, PlaceError::Redirected { real, .. } if *real == work),
            "{err}"
        );
    }
}
