//! A bot's working directory, shared by the processes of the bot, each of which runs as a uid
//! of its own: the directory and everything in it belong to the bot's group for the run.
//!
//! At the start of a run every file and directory of the tree is given the bot's group, with
//! the group's permissions made the owner's (so files an earlier run's processes left, under
//! other uids and another group, are the bot's again), and the directories the set-group-ID
//! bit, so that what a process creates there belongs to the group too; bot processes run with
//! umask 007, so it is readable and writable by the bot's next process. The top directory
//! loses every permission of other users: no other bot, whatever its uid, can enter it. At the
//! end of the run it is given back to the referee's group ([`SharedWorkdir`]'s drop), so that a
//! later bot that leases the same gid cannot enter it either.
//!
//! The walk never follows a symbolic link, and leaves alone a file with more than one hard
//! link (it may be another file of the system, linked in by a bot) and anything that is not a
//! file or a directory: every change is made through a descriptor opened without following
//! links and checked to be the entry that was looked at.
//!
//! Only a directory the [rule](crate::seat::workdir_rule) admitted is handed over, and the
//! walk starts from the descriptor held since ([`AdmittedWorkdir`]), not from its name, which
//! may lead elsewhere by now; its [mark](crate::seat::workdir_marker), if it has one, stays the
//! referee's, out of the group's reach.

use crate::seat::admitted_workdir::AdmittedWorkdir;
use crate::seat::workdir_marker::MARKER_FILE;
use std::ffi::CString;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

/// Directories deeper than this below the working directory are left as they are.
const MAX_DEPTH: usize = 64;

/// A working directory given to a bot's group; given back to the referee's group when
/// dropped.
#[derive(Debug)]
pub struct SharedWorkdir {
    dir: AdmittedWorkdir,
}

/// Gives the admitted working directory `dir` and everything in it to the group `gid` (see the
/// module documentation).
///
/// # Errors
/// When a change of group or mode fails (a read-only file system, say).
pub fn share(dir: &AdmittedWorkdir, gid: u32) -> io::Result<SharedWorkdir> {
    let top = dir.dir().fd();
    let st = stat(top)?;
    // The group's permissions and set-group-ID; none for other users.
    grant(top, &st, gid, (st.st_mode | 0o2070) & !0o007)?;
    walk(top, gid, 0)?;
    Ok(SharedWorkdir { dir: dir.clone() })
}

impl Drop for SharedWorkdir {
    fn drop(&mut self) {
        // SAFETY: getegid only reads the caller's id; fchown on a descriptor held open.
        unsafe {
            libc::fchown(self.dir.as_fd().as_raw_fd(), u32::MAX, libc::getegid());
        }
    }
}

/// Gives every file and directory in the directory open at `dir` to `gid`, down to
/// [`MAX_DEPTH`].
fn walk(dir: &OwnedFd, gid: u32, depth: usize) -> io::Result<()> {
    if depth >= MAX_DEPTH {
        return Ok(());
    }
    // The directory's entries, read through its descriptor (not a path a bot could swap).
    let entries = std::fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd()))?;
    for entry in entries {
        let name = entry?.file_name();
        if depth == 0 && name == MARKER_FILE {
            continue;
        }
        let Ok(name) = CString::new(name.as_bytes()) else {
            continue;
        };
        let Some(looked) = stat_at(dir.as_raw_fd(), &name) else {
            continue;
        };
        let is_dir = looked.st_mode & libc::S_IFMT == libc::S_IFDIR;
        let is_file = looked.st_mode & libc::S_IFMT == libc::S_IFREG;
        if !(is_dir || is_file) || (is_file && looked.st_nlink > 1) {
            continue;
        }
        let flags = libc::O_RDONLY
            | libc::O_NOFOLLOW
            | libc::O_NONBLOCK
            | libc::O_NOCTTY
            | libc::O_CLOEXEC
            | if is_dir { libc::O_DIRECTORY } else { 0 };
        // SAFETY: openat with a NUL-terminated name relative to a descriptor we own; the
        // result, when valid, is a descriptor nobody else owns.
        let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags) };
        if fd < 0 {
            continue;
        }
        // SAFETY: `fd` was just opened and is owned by nothing else.
        let entry = unsafe { OwnedFd::from_raw_fd(fd) };
        let st = stat(&entry)?;
        let same = st.st_dev == looked.st_dev
            && st.st_ino == looked.st_ino
            && st.st_mode & libc::S_IFMT == looked.st_mode & libc::S_IFMT;
        if !same || (is_file && st.st_nlink > 1) {
            continue;
        }
        if is_dir {
            grant(&entry, &st, gid, st.st_mode | 0o2070)?;
            walk(&entry, gid, depth + 1)?;
        } else {
            // The owner's permissions for the group too; never set-user-ID or set-group-ID.
            let mode = (st.st_mode | ((st.st_mode & 0o700) >> 3)) & !0o6000;
            grant(&entry, &st, gid, mode)?;
        }
    }
    Ok(())
}

/// Gives the file open at `fd`, whose status is `st`, to `gid` with permission bits `mode`.
fn grant(fd: &OwnedFd, st: &libc::stat, gid: u32, mode: u32) -> io::Result<()> {
    let fd = fd.as_raw_fd();
    // SAFETY: fchown and fchmod on a descriptor we own (-1: the owner is left as it is).
    unsafe {
        if st.st_gid != gid && libc::fchown(fd, u32::MAX, gid) != 0 {
            return Err(io::Error::last_os_error());
        }
        // A change of group clears the set-ID bits of a file: set the mode whatever it was.
        if (st.st_gid != gid || st.st_mode & 0o7777 != mode & 0o7777)
            && libc::fchmod(fd, mode & 0o7777) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The status of the file open at `fd`.
fn stat(fd: &OwnedFd) -> io::Result<libc::stat> {
    // SAFETY: fstat fills the zeroed struct we own.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(fd.as_raw_fd(), &mut st) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(st)
    }
}

/// The status of the entry `name` of the directory open at `dir`, not following a link.
fn stat_at(dir: RawFd, name: &CString) -> Option<libc::stat> {
    // SAFETY: fstatat fills the zeroed struct we own; `name` is NUL-terminated.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        (libc::fstatat(dir, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) == 0).then_some(st)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::path::Path;

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
    }

    #[test]
    fn the_tree_is_the_groups_with_the_owners_permissions_and_links_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let sub = work.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::set_permissions(&work, std::fs::Permissions::from_mode(0o755)).unwrap();
        let state = sub.join("state");
        std::fs::write(&state, "x").unwrap();
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o4700)).unwrap();
        // A file outside, linked in twice: hard and symbolic.
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "secret").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::hard_link(&outside, work.join("hard")).unwrap();
        std::os::unix::fs::symlink(&outside, work.join("soft")).unwrap();
        // SAFETY: geteuid and getegid only read the caller's ids.
        let (root, own) = unsafe { (libc::geteuid() == 0, libc::getegid()) };
        // A group of no one as root; else the caller's own: any owner may give files to it.
        let gid = if root { 4_000_000_001 } else { own };
        let marker = work.join(MARKER_FILE);
        let bot = crate::seat::workdir_marker::MarkedBot {
            name: "a".into(),
            command: "a".into(),
        };
        let admitted = crate::seat::admitted_workdir::tests::admitted(&work);
        admitted.dir().mark(&[bot]).unwrap();
        // The directory's name taken by another: the directory admitted is handed over.
        let moved = dir.path().join("moved");
        std::fs::rename(&work, &moved).unwrap();
        std::fs::create_dir(&work).unwrap();
        let decoy = mode(&work);

        let shared = share(&admitted, gid).unwrap();
        assert_eq!(mode(&work), decoy, "the name's new directory is left alone");
        std::fs::remove_dir(&work).unwrap();
        std::fs::rename(&moved, &work).unwrap();
        assert_eq!(mode(&marker), 0o600, "the mark is left alone");
        assert_eq!(mode(&work), 0o2770);
        assert_eq!(mode(&sub) & 0o2070, 0o2070);
        assert_eq!(mode(&state), 0o770, "no set-user-ID");
        assert_eq!(mode(&outside), 0o600, "a hard link is left alone");
        for path in [&work, &sub, &state] {
            assert_eq!(std::fs::metadata(path).unwrap().gid(), gid);
        }
        drop(shared);
        assert_eq!(std::fs::metadata(&work).unwrap().gid(), own, "given back");
    }
}
