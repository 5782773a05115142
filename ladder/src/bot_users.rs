//! Who a ladder's bot processes run as on this machine, in its matches and in its builds'
//! checks alike: as root, each process a uid of its own of [`UidRange::DEFAULT`] or none at
//! all ([`BotUids::Required`]: the ladder never runs a bot as root, and a seat that cannot have
//! a uid of its own is the platform's failure, not the bot's); otherwise the worker's user.
//!
//! A recipe names its program by name (`python3 bot.py`): as root, the program is the first of
//! that name on the worker's `PATH` that a bot's uid can run, so that a toolchain installed
//! under root's home (a pyenv shim in `/root/.pyenv`, out of other users' reach) gives way to
//! the system's (`/usr/bin/python3`).

use referee::seat::users::reach::{self, Access};
use referee::seat::users::{BotUids, UidRange};
use referee::seat::{BotSpec, Launch};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// A group no directory on the way to a program has: what any other user may do.
pub(crate) const NO_GROUP: u32 = u32::MAX - 1;

/// Whether the worker runs as root (and its bots as uids of their own).
pub fn root() -> bool {
    // SAFETY: geteuid only reads the caller's id.
    unsafe { libc::geteuid() == 0 }
}

/// Which uids bot processes run as, when the worker is `root` or not.
pub fn bot_uids(root: bool) -> BotUids {
    if root {
        BotUids::Required(UidRange::DEFAULT)
    } else {
        BotUids::Auto
    }
}

/// `bot`, with a program named without a path that a bot's uid cannot run where `PATH` finds
/// it first replaced by the first on `PATH` it can run (when there is one; else it stays, and
/// the seat is refused with the reason). Only as `root`: otherwise bots run as the worker.
pub fn runnable_program(bot: &mut BotSpec, root: bool) {
    let Launch::Command(words) = &mut bot.launch else {
        return;
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    match words.first_mut() {
        Some(program) if root => {
            if let Some(other) = for_bot_users(program, &path) {
                *program = other.display().to_string();
            }
        }
        _ => {}
    }
}

/// The program to run for `program` (a word of a command) with the search path `path`, when
/// the first `path` finds is out of a bot's uid's reach and a later one is not.
fn for_bot_users(program: &str, path: &OsStr) -> Option<PathBuf> {
    if program.contains('/') {
        return None;
    }
    let mut found = std::env::split_paths(path)
        .map(|dir| dir.join(program))
        .filter(|p| p.is_file());
    let first = found.next()?;
    if reach::check(&first, NO_GROUP, Access::Run).is_ok() {
        return None;
    }
    found.find(|p| reach::check(p, NO_GROUP, Access::Run).is_ok())
}

/// Whether a bot's uid can pass through the directory `dir` (search it and every directory on
/// the way): a workdir below it is within its reach.
///
/// # Errors
/// Which directory keeps it out, and the fix.
pub fn can_pass(dir: &Path) -> Result<(), reach::Blocked> {
    reach::check(dir, NO_GROUP, Access::Search)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// An executable `prog` in a new directory `name` of `root`, with mode `mode`.
    fn program_in(root: &Path, name: &str, mode: u32) -> PathBuf {
        let dir = root.join(name);
        std::fs::create_dir(&dir).unwrap();
        let prog = dir.join("prog");
        std::fs::write(&prog, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode)).unwrap();
        dir
    }

    #[test]
    fn a_program_out_of_reach_gives_way_to_the_next_on_the_path() {
        let root = tempfile::tempdir().unwrap();
        std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let hidden = program_in(root.path(), "home", 0o700);
        let open = program_in(root.path(), "usr", 0o755);
        let path = std::env::join_paths([&hidden, &open]).unwrap();
        assert_eq!(for_bot_users("prog", &path), Some(open.join("prog")));
        // The first open to all, or none open, or a path given: left alone.
        let path = std::env::join_paths([&open, &hidden]).unwrap();
        assert_eq!(for_bot_users("prog", &path), None);
        let path = std::env::join_paths([&hidden]).unwrap();
        assert_eq!(for_bot_users("prog", &path), None);
        let path = std::env::join_paths([&hidden, &open]).unwrap();
        assert_eq!(for_bot_users("./prog", &path), None);
        assert_eq!(for_bot_users("missing", &path), None);
    }

    #[test]
    fn a_worker_not_root_runs_the_program_path_finds() {
        let mut bot = BotSpec::new(None, Launch::Command(vec!["python3".into()])).unwrap();
        let before = bot.launch.clone();
        runnable_program(&mut bot, false);
        assert_eq!(bot.launch, before);
    }
}
