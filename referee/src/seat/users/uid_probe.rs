//! Whether this machine lets bots run as uids of their own: the leases of a range can be kept
//! and a process can become one of its users. Read once at start-up, by [`isolate`](super::isolate).

use super::credentials::Credentials;
use super::lease::{IdKind, IdLease, IdPool, LEASE_DIR};
use super::setting::UidRange;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::sync::Arc;

/// A user of the pool for the start-up probes, leased while this lives.
pub(super) struct ProbeUser {
    /// The user.
    pub user: Credentials,
    _uid: IdLease,
    _gid: IdLease,
}

/// The pool of `range`, when the referee (as root) can give bots uids here: the leases can be
/// kept, and a process can become one of the range's users (the returned one, leased for the
/// other probes).
pub(super) fn pool_here(range: UidRange) -> Result<(Arc<IdPool>, ProbeUser), String> {
    let pool = Arc::new(IdPool::open(range, Path::new(LEASE_DIR)).map_err(|e| e.to_string())?);
    let uid = pool.lease(IdKind::User).map_err(|e| e.to_string())?;
    let gid = pool.lease(IdKind::Group).map_err(|e| e.to_string())?;
    let user = Credentials {
        uid: uid.id(),
        gid: gid.id(),
    };
    let mut command = std::process::Command::new("true");
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: assume makes system calls only, on a value copied before the fork.
    unsafe {
        command.pre_exec(move || user.assume());
    }
    match command.status() {
        Ok(status) if status.success() => Ok((
            pool,
            ProbeUser {
                user,
                _uid: uid,
                _gid: gid,
            },
        )),
        Ok(status) => Err(format!("a process made a bot's user ended with {status}")),
        Err(e) => Err(format!("a process cannot become a bot's user: {e}")),
    }
}

/// The referee's effective uid (0 when it runs as root).
pub(super) fn effective_uid() -> u32 {
    // SAFETY: geteuid only reads the caller's id.
    unsafe { libc::geteuid() }
}
