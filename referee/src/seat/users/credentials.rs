//! Becoming a bot's user in its child process, between fork and exec: only system calls, on
//! values copied before the fork (the child of a fork may not allocate).

use super::lease::IdLease;
use std::io;

/// The user and group a bot process runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Credentials {
    /// Its uid (real, effective, saved and file-system).
    pub uid: u32,
    /// Its only group.
    pub gid: u32,
}

/// The capabilities the kernel may know: dropping one past the last fails with `EINVAL`,
/// which is ignored.
const CAPABILITIES: libc::c_ulong = 64;

impl Credentials {
    /// Makes the calling process this user, for good: every capability out of its bounding
    /// set (while it still may: that needs `CAP_SETPCAP`), no supplementary group, then the
    /// group and the user (from root to another user the kernel clears the permitted,
    /// effective and ambient capabilities), `no_new_privs` (no set-user-ID program or file
    /// capability gives any back), and umask 007 (what it creates in its working directory is
    /// its group's: [`workdir`](super::workdir)). A change of credentials clears the parent-death
    /// signal: set it after this.
    ///
    /// Async-signal-safe: only system calls.
    ///
    /// # Errors
    /// The error of the first call that fails, or `EPERM` when the user did not change.
    pub fn assume(self) -> io::Result<()> {
        let check = |result: libc::c_int| {
            if result == 0 {
                Ok(())
            } else {
                Err(io::Error::last_os_error())
            }
        };
        // SAFETY: prctl, setgroups, setresgid, setresuid, umask and geteuid are system calls
        // on plain values (setgroups reads no memory when its count is 0).
        unsafe {
            for cap in 0..CAPABILITIES {
                libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
            }
            check(libc::setgroups(0, std::ptr::null()))?;
            check(libc::setresgid(self.gid, self.gid, self.gid))?;
            check(libc::setresuid(self.uid, self.uid, self.uid))?;
            if libc::geteuid() != self.uid || libc::getegid() != self.gid {
                return Err(io::Error::from_raw_os_error(libc::EPERM));
            }
            check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
            libc::umask(0o007);
        }
        Ok(())
    }
}

/// The user of one bot process: its credentials, and the lease of its uid, held while the
/// process lives.
#[derive(Debug)]
pub struct ProcessUser {
    /// What the process runs as.
    pub credentials: Credentials,
    /// The lease of its uid.
    _lease: IdLease,
}

impl ProcessUser {
    /// The user leased as `lease`, in the group `gid`.
    pub fn new(lease: IdLease, gid: u32) -> Self {
        ProcessUser {
            credentials: Credentials {
                uid: lease.id(),
                gid,
            },
            _lease: lease,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;

    #[test]
    fn a_process_that_assumes_a_user_has_no_capability_and_no_way_back() {
        let test = "a_process_that_assumes_a_user_has_no_capability_and_no_way_back";
        // SAFETY: geteuid only reads the caller's id.
        if unsafe { libc::geteuid() } != 0 {
            // CI runs as root: there, a test that cannot run fails.
            assert!(
                std::env::var_os("CI").is_none(),
                "{test} cannot run here (only root can become another user), and under CI a test does not skip"
            );
            eprintln!("SKIPPED {test}: only root can become another user");
            return;
        }
        // Ids no one has.
        let user = Credentials {
            uid: 4_000_000_002,
            gid: 4_000_000_003,
        };
        let mut command = std::process::Command::new("sh");
        command.args(["-c", "cat /proc/self/status; umask"]);
        // SAFETY: assume makes system calls only.
        unsafe {
            command.pre_exec(move || user.assume());
        }
        let out = command.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let status = String::from_utf8(out.stdout).unwrap();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}:")))
                .unwrap_or_else(|| panic!("no {name} in {status}"))
                .split_whitespace()
                .collect::<Vec<_>>()
        };
        assert_eq!(field("Uid"), ["4000000002"; 4]);
        assert_eq!(field("Gid"), ["4000000003"; 4]);
        assert!(field("Groups").is_empty(), "{status}");
        for caps in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
            assert_eq!(field(caps), ["0000000000000000"], "{caps}");
        }
        assert_eq!(field("NoNewPrivs"), ["1"]);
        assert_eq!(status.lines().last(), Some("0007"));
    }
}
