//! A path looked up from `/` one name at a time, each directory on the way opened (`O_PATH`)
//! and looked at through its descriptor, never through a symbolic link: what the kernel finds
//! is then the directory named, and the directories on the way are the ones looked at, not
//! others swapped in between a look and an open. The workdir rule checks the directories
//! above a workdir this way ([`super::workdir_place`]), and each bot start finds again what
//! it binds and hides ([`super::admitted_workdir`], [`super::hidden_paths`]).

use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

/// A path found: the descriptor of what it names, its status, and each directory on the way
/// (`/` first) with its status as it was when the walk passed through it.
#[derive(Debug)]
pub struct Walked {
    /// What the path names, opened with the caller's flags.
    pub fd: OwnedFd,
    /// Its status.
    pub stat: Stat,
    /// The directories above it, `/` first, each with its status.
    pub above: Vec<(PathBuf, Stat)>,
}

/// Why a path cannot be walked.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// A symbolic link on the way (or at the end).
    #[error("{} is a symbolic link", .0.display())]
    Link(PathBuf),
    /// The path is not absolute, or holds `.` or `..`.
    #[error("{} is not an absolute path without . or ..", .0.display())]
    NotPlain(PathBuf),
    /// A name on the way cannot be opened (missing, not a directory, not allowed).
    #[error("{}: {source}", path.display())]
    Io {
        /// Where the walk stopped.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

impl WalkError {
    /// Whether nothing is at the path (a name on the way is missing).
    pub fn is_missing(&self) -> bool {
        matches!(self, WalkError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// Walks `path` (absolute, without `.` or `..`) from `/`, opening its last name with `last`
/// (`O_NOFOLLOW` and `O_CLOEXEC` are added): `OFlags::PATH` to look, `RDONLY | DIRECTORY` to
/// read a directory.
///
/// # Errors
/// [`WalkError`]: a symbolic link anywhere, a name missing or not a directory on the way.
pub fn walk(path: &Path, last: OFlags) -> Result<Walked, WalkError> {
    let io = |at: &Path, e: Errno| WalkError::Io {
        path: at.to_path_buf(),
        source: e.into(),
    };
    let mut names = Vec::new();
    for component in path.components() {
        match component {
            Component::RootDir => {}
            Component::Normal(name) => names.push(name),
            _ => return Err(WalkError::NotPlain(path.to_path_buf())),
        }
    }
    if !path.has_root() {
        return Err(WalkError::NotPlain(path.to_path_buf()));
    }
    let step = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let root = Path::new("/");
    let mut here = PathBuf::from(root);
    let mut fd = if names.is_empty() {
        rustix::fs::open(root, last | OFlags::CLOEXEC, Mode::empty()).map_err(|e| io(root, e))?
    } else {
        rustix::fs::open(root, step | OFlags::DIRECTORY, Mode::empty()).map_err(|e| io(root, e))?
    };
    let mut stat = rustix::fs::fstat(&fd).map_err(|e| io(root, e))?;
    let mut above = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let is_last = i + 1 == names.len();
        let flags = if is_last {
            last | OFlags::NOFOLLOW | OFlags::CLOEXEC
        } else {
            step
        };
        let parent = std::mem::replace(&mut here, PathBuf::new());
        let next = parent.join(name);
        let opened = match rustix::fs::openat(&fd, *name, flags, Mode::empty()) {
            Ok(opened) => opened,
            // O_NOFOLLOW without O_PATH refuses a link at the end (ELOOP, or ENOTDIR with
            // O_DIRECTORY): told from what is there.
            Err(e) => {
                let there = rustix::fs::statat(&fd, *name, AtFlags::SYMLINK_NOFOLLOW);
                return Err(match there {
                    Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Symlink => {
                        WalkError::Link(next)
                    }
                    _ => io(&next, e),
                });
            }
        };
        let found = rustix::fs::fstat(&opened).map_err(|e| io(&next, e))?;
        match FileType::from_raw_mode(found.st_mode) {
            FileType::Symlink => return Err(WalkError::Link(next)),
            FileType::Directory => {}
            _ if is_last => {}
            _ => return Err(io(&next, Errno::NOTDIR)),
        }
        above.push((parent, stat));
        (fd, stat, here) = (opened, found, next);
    }
    Ok(Walked { fd, stat, above })
}

/// `path` with its `.` dropped and each `..` taking off the name before it, as written (not as
/// the file system would resolve it).
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The device and inode of `stat`: what a file is, whatever its name.
pub fn identity(stat: &Stat) -> (u64, u64) {
    (stat.st_dev, stat.st_ino)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_path_is_found_with_every_directory_above_it() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("a/b")).unwrap();
        let walked = walk(&base.join("a/b"), OFlags::RDONLY | OFlags::DIRECTORY).unwrap();
        let meta = std::fs::metadata(base.join("a/b")).unwrap();
        use std::os::unix::fs::MetadataExt;
        assert_eq!(identity(&walked.stat), (meta.dev(), meta.ino()));
        let above: Vec<&Path> = walked.above.iter().map(|(p, _)| p.as_path()).collect();
        assert_eq!(above.first(), Some(&Path::new("/")));
        assert_eq!(above.last(), Some(&base.join("a").as_path()));
        assert_eq!(above.len(), base.join("a/b").components().count() - 1);
        assert_eq!(
            identity(&walk(Path::new("/"), OFlags::PATH).unwrap().stat),
            {
                let root = std::fs::metadata("/").unwrap();
                (root.dev(), root.ino())
            }
        );
    }

    #[test]
    fn a_link_anywhere_on_the_way_or_at_the_end_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("real/sub")).unwrap();
        std::os::unix::fs::symlink(base.join("real"), base.join("link")).unwrap();
        for flags in [OFlags::PATH, OFlags::RDONLY | OFlags::DIRECTORY] {
            let err = walk(&base.join("link/sub"), flags).unwrap_err();
            assert!(
                matches!(&err, WalkError::Link(p) if *p == base.join("link")),
                "{err}"
            );
            let err = walk(&base.join("link"), flags).unwrap_err();
            assert!(
                matches!(&err, WalkError::Link(p) if *p == base.join("link")),
                "{err}"
            );
        }
        assert!(
            walk(&base.join("none/sub"), OFlags::PATH)
                .unwrap_err()
                .is_missing()
        );
        assert!(matches!(
            walk(&base.join("real/../real"), OFlags::PATH).unwrap_err(),
            WalkError::NotPlain(_)
        ));
        assert!(matches!(
            walk(Path::new("relative"), OFlags::PATH).unwrap_err(),
            WalkError::NotPlain(_)
        ));
    }
}
