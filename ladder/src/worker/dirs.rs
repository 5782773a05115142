//! The worker's directories, and who may pass through them.

use crate::bot_users;
use referee::safe_fs::{Privacy, SafeDir};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where the bots' workdirs go when bots cannot pass through the worker's own directory.
pub(super) const SPILL_BASE: &str = "/var/tmp";

/// The worker's directories: `cache/` (artifacts, hidden from bots), `jobs/` (each job's log
/// and stderr: the match's outputs, hidden from bots), `seats/` (each seat's workdir, given
/// to the seat's group), `builds/` (the build in progress, given to the bot's group for its
/// check). Other users may pass through `seats/` and `builds/` to a workdir, not list them.
#[derive(Clone, Debug)]
pub(super) struct Dirs {
    pub(super) cache: PathBuf,
    pub(super) jobs: PathBuf,
    pub(super) seats: PathBuf,
    pub(super) builds: PathBuf,
    /// The directory of `seats/` and `builds/` made for this worker under [`SPILL_BASE`], if
    /// they are there: removed when the last of the worker's `Dirs` goes.
    #[allow(dead_code, reason = "held for its drop, which removes the directory")]
    pub(super) spilled: Option<Arc<Spilled>>,
    /// Paths no bot, check or build may see beyond these ([`super::WorkerOptions::hide`]).
    pub(super) outside: Vec<PathBuf>,
}

/// The start of a spilled directory's name: `referee-worker-PID-RANDOM`.
const SPILL_PREFIX: &str = "referee-worker-";

/// Removes the spilled directories under `base` of workers of this user that ended without
/// removing theirs (killed): those whose process is gone. A name that is not of this form, a
/// link, or another user's directory is left alone, and so is one whose process id is alive
/// (whoever it is now).
fn remove_stale_spills(base: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(SPILL_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<i32>().ok())
            .filter(|&pid| pid > 0)
        else {
            continue;
        };
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } == -1
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if meta.is_dir() && meta.uid() == me && gone {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A directory made for one worker's run, removed (with what is in it) when dropped.
#[derive(Debug)]
pub(super) struct Spilled(pub(super) PathBuf);

impl Drop for Spilled {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Dirs {
    /// Makes them under `dir`, private but for `seats/` and `builds/`, which other users may
    /// search (mode 711): a bot process that runs as a uid of its own must pass through them to
    /// its workdir. As root (`own_uids`) the way to them must be open too, since a bot that
    /// could not reach its workdir could not run at all ([`bot_users`]): where `dir` is out of
    /// other users' reach (under `/root`), `seats/` and `builds/` are made in a directory of
    /// this run's own under `spill_base` instead (mode 711 too), and the worker says so.
    ///
    /// # Errors
    /// When a directory cannot be made, or (as root) no other user could pass through
    /// `spill_base` either.
    pub(super) fn make(dir: &Path, own_uids: bool, spill_base: &Path) -> std::io::Result<Dirs> {
        std::fs::create_dir_all(dir)?;
        let dir = dir.canonicalize()?;
        for d in [dir.join("cache"), dir.join("jobs")] {
            SafeDir::create(&d, Privacy::Private).map_err(std::io::Error::other)?;
        }
        let blocked = own_uids.then(|| bot_users::can_pass(&dir).err()).flatten();
        let (workdirs, spilled) = match blocked {
            None => (dir.clone(), None),
            Some(blocked) => {
                bot_users::can_pass(spill_base).map_err(|also| {
                    std::io::Error::other(format!(
                        "bots, which run as uids of their own, cannot pass through it ({blocked}), nor through {} ({also})",
                        spill_base.display()
                    ))
                })?;
                remove_stale_spills(spill_base);
                let spill = spill_base.join(format!(
                    "{SPILL_PREFIX}{}-{}",
                    std::process::id(),
                    crate::auth::new_lease()
                ));
                std::fs::DirBuilder::new().mode(0o711).create(&spill)?;
                eprintln!(
                    "worker: bots, which run as uids of their own, cannot pass through {} ({} is {}): their workdirs are in {} instead, removed when the worker stops",
                    dir.display(),
                    blocked.at.display(),
                    referee::seat::users::reach::mode_string(blocked.mode),
                    spill.display()
                );
                (spill.clone(), Some(Arc::new(Spilled(spill))))
            }
        };
        let dirs = Dirs {
            cache: dir.join("cache"),
            jobs: dir.join("jobs"),
            seats: workdirs.join("seats"),
            builds: workdirs.join("builds"),
            spilled,
            outside: Vec::new(),
        };
        for passed in [&dirs.seats, &dirs.builds] {
            SafeDir::create(passed, Privacy::Private).map_err(std::io::Error::other)?;
            std::fs::set_permissions(passed, std::fs::Permissions::from_mode(0o711))?;
        }
        Ok(dirs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().mode() & 0o7777
    }

    /// A directory of `mode` for a test.
    fn dir_of(mode: u32) -> tempfile::TempDir {
        let top = tempfile::tempdir().unwrap();
        std::fs::set_permissions(top.path(), std::fs::Permissions::from_mode(mode)).unwrap();
        top
    }

    #[test]
    fn bots_may_pass_through_seats_and_builds_and_nothing_else() {
        let top = dir_of(0o755);
        let spill = dir_of(0o755);
        let dirs = Dirs::make(&top.path().join("worker"), true, spill.path()).unwrap();
        assert!(dirs.spilled.is_none());
        assert!(dirs.seats.starts_with(top.path()), "{dirs:?}");
        assert_eq!(mode(&dirs.seats), 0o711);
        assert_eq!(mode(&dirs.builds), 0o711);
        assert_eq!(mode(&dirs.cache), 0o700);
        assert_eq!(mode(&dirs.jobs), 0o700);
        // Made again (a worker started again): the same.
        let dirs = Dirs::make(&top.path().join("worker"), true, spill.path()).unwrap();
        assert_eq!(mode(&dirs.seats), 0o711);
        assert_eq!(std::fs::read_dir(spill.path()).unwrap().count(), 0);
    }

    #[test]
    fn workdirs_out_of_bots_reach_are_made_elsewhere_for_the_run() {
        let top = dir_of(0o700);
        let spill = dir_of(0o755);
        let dirs = Dirs::make(&top.path().join("worker"), true, spill.path()).unwrap();
        let spilled = dirs.spilled.clone().unwrap().0.clone();
        assert!(spilled.starts_with(spill.path()), "{dirs:?}");
        assert_eq!(mode(&spilled), 0o711);
        for passed in [&dirs.seats, &dirs.builds] {
            assert!(passed.starts_with(&spilled), "{dirs:?}");
            assert_eq!(mode(passed), 0o711);
            assert!(bot_users::can_pass(passed).is_ok());
        }
        // The worker's own files stay where it was told.
        assert!(dirs.cache.starts_with(top.path()), "{dirs:?}");
        // Removed with the last of the worker's copies.
        let copy = dirs.clone();
        drop(dirs);
        assert!(spilled.exists());
        drop(copy);
        assert!(!spilled.exists());
        // Bots that run as the worker's user reach them anyway: nothing spilled.
        let dirs = Dirs::make(&top.path().join("worker"), false, spill.path()).unwrap();
        assert!(dirs.spilled.is_none() && dirs.seats.starts_with(top.path()));
    }

    #[test]
    fn a_killed_workers_spilled_directory_goes_at_the_next_start() {
        let top = dir_of(0o700);
        let spill = dir_of(0o755);
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        let dead = gone.id();
        gone.wait().unwrap();
        let alive = std::process::id();
        let target = tempfile::tempdir().unwrap();
        for name in [
            format!("referee-worker-{dead}-stale"),
            format!("referee-worker-{alive}-live"),
            "referee-worker-junk".to_owned(),
            "something-else".to_owned(),
        ] {
            std::fs::create_dir(spill.path().join(name)).unwrap();
        }
        let link = spill.path().join(format!("referee-worker-{dead}-link"));
        std::os::unix::fs::symlink(target.path(), &link).unwrap();
        let dirs = Dirs::make(&top.path().join("worker"), true, spill.path()).unwrap();
        let left: std::collections::BTreeSet<String> = std::fs::read_dir(spill.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            !left.contains(&format!("referee-worker-{dead}-stale")),
            "{left:?}"
        );
        for kept in [
            format!("referee-worker-{alive}-live"),
            "referee-worker-junk".to_owned(),
            "something-else".to_owned(),
            format!("referee-worker-{dead}-link"),
        ] {
            assert!(left.contains(&kept), "{kept}: {left:?}");
        }
        assert!(target.path().is_dir());
        // Its own is named by its process id.
        let own = dirs.spilled.clone().unwrap().0.clone();
        let own_name = own.file_name().unwrap().to_str().unwrap().to_owned();
        assert!(
            own_name.starts_with(&format!("referee-worker-{alive}-")),
            "{own_name}"
        );
    }

    #[test]
    fn a_worker_whose_bots_could_reach_no_workdir_does_not_start() {
        let top = dir_of(0o700);
        let spill = dir_of(0o700);
        let error = Dirs::make(&top.path().join("worker"), true, spill.path())
            .unwrap_err()
            .to_string();
        assert!(error.contains("cannot pass through it"), "{error}");
        assert!(error.contains("chmod o+x"), "{error}");
        assert_eq!(std::fs::read_dir(spill.path()).unwrap().count(), 0);
    }
}
