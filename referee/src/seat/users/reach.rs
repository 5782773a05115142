//! Whether a bot user can reach what its process needs: the directory it runs in, its program,
//! and the arguments that name files — computed from the modes of each path and of every
//! directory on the way to it, as the kernel would for a user that owns none of them and whose
//! one group is the bot's (ACLs are not looked at).
//!
//! A checkout under `/root` (mode 700) is out of reach of every other user: such a bot could not
//! start as a uid of its own, so the referee runs it as its own user and says why
//! ([`Blocked`]'s message names the path, its mode and the fix).

use crate::seat::{BotSpec, Launch};
use std::fmt;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What a bot process must be able to do with a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Look up names in it: the directory it runs in.
    Search,
    /// Read it: a file its command names (a directory: list and search it).
    Read,
    /// Run it: its program (a script, whose interpreter reads it, must be readable too).
    Run,
}

/// A path a bot user cannot reach, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// The path the bot needs.
    pub target: PathBuf,
    /// The file or directory whose mode keeps the bot out: the target or a directory on the
    /// way to it.
    pub at: PathBuf,
    /// Its mode (type and permission bits).
    pub mode: u32,
    /// Its owner.
    pub owner: u32,
    /// Its group.
    pub group: u32,
    /// The permissions the bot lacks there for other users: `r`, `x` or `rx`.
    pub lacks: &'static str,
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.at.display();
        write!(
            f,
            "{}: {at} is {} ({:o}, owner uid {}, gid {}); fix: chmod o+{} {at}, or move the bot where every user can reach it",
            self.target.display(),
            mode_string(self.mode),
            self.mode & 0o7777,
            self.owner,
            self.group,
            self.lacks
        )
    }
}

/// `ls -l`'s form of a mode: `drwx------`.
pub fn mode_string(mode: u32) -> String {
    let kind = match mode & libc::S_IFMT {
        libc::S_IFDIR => 'd',
        libc::S_IFLNK => 'l',
        _ => '-',
    };
    let mut text = String::from(kind);
    for shift in [6, 3, 0] {
        let bits = (mode >> shift) & 7;
        text.push(if bits & 4 != 0 { 'r' } else { '-' });
        text.push(if bits & 2 != 0 { 'w' } else { '-' });
        text.push(if bits & 1 != 0 { 'x' } else { '-' });
    }
    text
}

/// The paths a bot's process needs and what for: the directory it runs in (its `workdir`, else
/// `cwd`, the referee's), its program, and each argument that names an existing file (from the
/// directory it runs in). Built-in bots need none.
pub fn needs(spec: &BotSpec, cwd: &Path) -> Vec<(PathBuf, Access)> {
    let Launch::Command(words) = &spec.launch else {
        return Vec::new();
    };
    let dir = match &spec.settings.workdir {
        Some(workdir) => cwd.join(workdir),
        None => cwd.to_path_buf(),
    };
    let mut needs = vec![(dir.clone(), Access::Search)];
    if let Ok(Some(program)) = spec.resolve_in(cwd) {
        needs.push((cwd.join(program), Access::Run));
    }
    for word in words.iter().skip(1) {
        let path = dir.join(word);
        if path.exists() {
            needs.push((path, Access::Read));
        }
    }
    needs
}

/// Whether a user that owns nothing and has the one group `gid` can reach `target` — search
/// every directory on the way to it, lexically and once symbolic links are followed — and then
/// do `access` with it. What does not exist is not this check's business (the way to it is).
///
/// # Errors
/// [`Blocked`], naming the first path whose mode stops the user.
pub fn check(target: &Path, gid: u32, access: Access) -> Result<(), Blocked> {
    let Ok(lexical) = std::path::absolute(target) else {
        return Ok(());
    };
    let real = lexical.canonicalize().ok();
    for path in std::iter::once(lexical.clone()).chain(real) {
        let mut ancestors: Vec<&Path> = path.ancestors().skip(1).collect();
        ancestors.reverse();
        for dir in ancestors {
            lacking(target, dir, gid, 0o1, "x")?;
        }
        let need = match access {
            Access::Search => 0o1,
            Access::Read if path.is_dir() => 0o5,
            Access::Read => 0o4,
            Access::Run if is_script(&path) => 0o5,
            Access::Run => 0o1,
        };
        let lacks = match need {
            0o1 => "x",
            0o4 => "r",
            _ => "rx",
        };
        lacking(target, &path, gid, need, lacks)?;
    }
    Ok(())
}

/// The first `program` on the referee's `PATH` that the user of [`check`] can run, for a hint
/// when the one the referee finds first is out of its reach.
pub fn runnable_on_path(program: &str, gid: u32) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file() && check(p, gid, Access::Run).is_ok())
}

/// Whether the user of [`check`] can search the directories on the way to `path` (not `path`
/// itself): whether it can name `path`, which mounting something over it (bubblewrap's
/// hiding) needs.
pub fn can_name(path: &Path, gid: u32) -> bool {
    path.parent()
        .is_none_or(|parent| check(parent, gid, Access::Search).is_ok())
}

/// `Err` when the user of [`check`] lacks any of the permission bits `need` (`0o4` read,
/// `0o1` execute or search) on `at`.
fn lacking(
    target: &Path,
    at: &Path,
    gid: u32,
    need: u32,
    lacks: &'static str,
) -> Result<(), Blocked> {
    let Ok(meta) = std::fs::metadata(at) else {
        return Ok(());
    };
    let mode = meta.mode();
    let bits = if meta.gid() == gid { mode >> 3 } else { mode } & 0o7;
    if bits & need == need {
        return Ok(());
    }
    Err(Blocked {
        target: target.to_path_buf(),
        at: at.to_path_buf(),
        mode,
        owner: meta.uid(),
        group: meta.gid(),
        lacks,
    })
}

/// Whether `path` starts with `#!`: its interpreter must read it.
fn is_script(path: &Path) -> bool {
    let mut start = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok_and(|()| &start == b"#!")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    /// A group no file here has.
    const NO_GROUP: u32 = 4_000_000_000;

    #[test]
    fn a_directory_on_the_way_without_search_for_others_blocks_and_is_named() {
        let dir = tempfile::tempdir().unwrap();
        chmod(dir.path(), 0o755);
        let locked = dir.path().join("locked");
        let bot = locked.join("bot.py");
        std::fs::create_dir(&locked).unwrap();
        std::fs::write(&bot, "#!/usr/bin/env python3\n").unwrap();
        chmod(&bot, 0o755);
        chmod(&locked, 0o700);
        let blocked = check(&bot, NO_GROUP, Access::Run).unwrap_err();
        assert_eq!(blocked.at, locked);
        assert_eq!(blocked.lacks, "x");
        let text = blocked.to_string();
        assert!(text.contains("is drwx------ (700, owner uid"), "{text}");
        assert!(
            text.contains(&format!("fix: chmod o+x {}", locked.display())),
            "{text}"
        );
        chmod(&locked, 0o711);
        assert_eq!(check(&bot, NO_GROUP, Access::Run), Ok(()));
        // A script is read by its interpreter.
        chmod(&bot, 0o711);
        let blocked = check(&bot, NO_GROUP, Access::Run).unwrap_err();
        assert_eq!((blocked.at.as_path(), blocked.lacks), (bot.as_path(), "rx"));
        assert!(check(&bot, NO_GROUP, Access::Read).is_err());
        // Through a symbolic link, the way to its target counts too.
        chmod(&bot, 0o755);
        chmod(&locked, 0o700);
        let link = dir.path().join("link.py");
        std::os::unix::fs::symlink(&bot, &link).unwrap();
        assert_eq!(check(&link, NO_GROUP, Access::Run).unwrap_err().at, locked);
        // A file that does not exist is not this check's business; the way to it is.
        assert_eq!(
            check(&dir.path().join("nothing"), NO_GROUP, Access::Read),
            Ok(())
        );
        assert!(check(&locked.join("nothing"), NO_GROUP, Access::Read).is_err());
        assert!(!can_name(&locked.join("out"), NO_GROUP));
        assert!(can_name(&locked, NO_GROUP));
    }

    #[test]
    fn the_group_bits_count_for_the_bots_own_group() {
        let dir = tempfile::tempdir().unwrap();
        chmod(dir.path(), 0o770);
        let gid = std::fs::metadata(dir.path()).unwrap().gid();
        assert_eq!(check(dir.path(), gid, Access::Search), Ok(()));
        assert!(check(dir.path(), NO_GROUP, Access::Search).is_err());
    }

    #[test]
    fn a_bot_needs_where_it_runs_its_program_and_the_files_it_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("data.txt"), "").unwrap();
        let mut spec = BotSpec::parse("b=sh data.txt --fast").unwrap();
        spec.settings.workdir = Some(dir.path().to_path_buf());
        let needs = needs(&spec, Path::new("/"));
        assert_eq!(needs[0], (dir.path().to_path_buf(), Access::Search));
        assert!(
            needs[1].0.ends_with("sh") && needs[1].1 == Access::Run,
            "{needs:?}"
        );
        assert_eq!(needs[2], (dir.path().join("data.txt"), Access::Read));
        assert_eq!(needs.len(), 3, "{needs:?}");
        assert!(
            super::needs(&BotSpec::parse("builtin:random").unwrap(), Path::new("/")).is_empty()
        );
        assert_eq!(mode_string(libc::S_IFREG | 0o640), "-rw-r-----");
        assert!(runnable_on_path("sh", NO_GROUP).is_some());
        assert_eq!(runnable_on_path("no-such-program-4711", NO_GROUP), None);
    }
}
