//! The system-call filter every bot process runs under, in both sandbox modes: no file locks,
//! no leases, no file-change notifications, no file-system counters and no shared futex wakes,
//! which bots in different sandboxes would otherwise share (see `docs/security.md`, "The system-call filter").
//!
//! Advisory locks, leases and inotify watches belong to files, not to mount namespaces: a bot
//! that holds a lock on a file of `/usr/share/zoneinfo` (read-only, in every sandbox) is seen by
//! a bot in another sandbox that tries to take it, and a bot that opens a file wakes another
//! bot's watch on it. The filter closes these channels with [seccompiler]'s BPF programs (the
//! Firecracker project's), built once per run in the referee, before any fork (the child of a
//! fork may not allocate), and installed in the bot's child between fork and exec, after
//! everything else the child does ([`BotFilter::install`]). The referee itself is never
//! filtered.
//!
//! A denied call does not kill the bot: it fails with [`DENIED_ERRNO`] (`EPERM`, so that SQLite
//! reports "access permission denied" at once where `ENOLCK` would make it retry as "database is
//! locked" for its whole busy timeout), except `flock`, which succeeds and does nothing. The
//! JVM (OpenJDK since JDK-8286030) takes a `flock` on its performance-data file at start and,
//! when that fails, prints a warning on stdout, before the bot's `hello`: the bot would fail its
//! handshake. A `flock` that takes no lock tells no one anything either.
//!
//! The free blocks and inodes of a file system (`statfs`, `fstatfs`, `ustat`, its quotas, and the
//! free-space map and counters that some file systems give through `ioctl`) are counts that every
//! bot on the file system moves: a bot that creates and deletes files in its `workdir` moves the
//! free inodes that a bot in another sandbox reads from `statvfs("/")`. Those calls fail with
//! [`HIDDEN_ERRNO`] (`ENOSYS`, as on a kernel without them: glibc's `pathconf` then answers
//! with its defaults), the ioctls with [`DENIED_ERRNO`]. bubblewrap does not need them: only
//! libselinux, which it links, asks `statfs` whether SELinux is mounted, and takes a failure for
//! "no".
//!
//! A futex on a page of a file is keyed by the file, which every sandbox maps through the
//! read-only view: one bot's wake reached another bot's wait (18,000 bit/s). Shared wakes
//! ([`DENIED_SHARED_FUTEX`], without `FUTEX_PRIVATE_FLAG`) fail with [`DENIED_ERRNO`]; a
//! process's own threads use private futexes, and a thread's joiner is woken by the kernel, not
//! by a system call. io_uring ([`ABSENT_CALLS`]), whose operations the kernel runs without the
//! filter, is absent.
//!
//! The programs check the architecture first and kill a process that makes a system call of
//! another one (a 32-bit `int 0x80` call from an x86-64 process: the filter does not know its
//! numbers); on x86-64 they also deny the x32 numbers of the same calls.

use seccompiler::{
    BackendError, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The error a denied system call fails with.
pub const DENIED_ERRNO: i32 = libc::EPERM;

/// The `fcntl` commands the filter denies, with what each would do: take or test a record lock
/// (classic POSIX or open-file-description), or take a lease, or watch a directory.
pub const DENIED_FCNTL: [(libc::c_int, &str); 8] = [
    (libc::F_SETLK, "F_SETLK"),
    (libc::F_SETLKW, "F_SETLKW"),
    (libc::F_GETLK, "F_GETLK"),
    (libc::F_OFD_SETLK, "F_OFD_SETLK"),
    (libc::F_OFD_SETLKW, "F_OFD_SETLKW"),
    (libc::F_OFD_GETLK, "F_OFD_GETLK"),
    (libc::F_SETLEASE, "F_SETLEASE"),
    (libc::F_NOTIFY, "F_NOTIFY"),
];

/// The system calls the filter denies whatever their arguments: file-change notifications
/// (inotify, fanotify).
pub const DENIED_CALLS: [&str; 3] = ["inotify_init", "inotify_init1", "fanotify_init"];

/// The `futex` commands that wake waiters (`FUTEX_WAKE`, `FUTEX_REQUEUE`, `FUTEX_CMP_REQUEUE`,
/// `FUTEX_WAKE_OP`, `FUTEX_WAKE_BITSET`), which the filter denies when they are shared (without
/// `FUTEX_PRIVATE_FLAG`): a shared futex on a page of a file is keyed by the file, which every
/// sandbox maps through the read-only view, so one bot's wake reached another's wait.
pub const DENIED_SHARED_FUTEX: [(u32, &str); 5] = [
    (1, "FUTEX_WAKE"),
    (3, "FUTEX_REQUEUE"),
    (4, "FUTEX_CMP_REQUEUE"),
    (5, "FUTEX_WAKE_OP"),
    (10, "FUTEX_WAKE_BITSET"),
];

/// `FUTEX_PRIVATE_FLAG` (and `FUTEX2_PRIVATE`): the futex is the process's own.
const FUTEX_PRIVATE_FLAG: u32 = 128;

/// `FUTEX_CLOCK_REALTIME`: which clock a wait's timeout is on, beside any command.
const FUTEX_CLOCK_REALTIME: u32 = 256;

/// The system call that succeeds without doing anything.
pub const NO_OP_CALLS: [&str; 1] = ["flock"];

/// The error the calls of [`HIDDEN_CALLS`] fail with: the one of a kernel without them.
pub const HIDDEN_ERRNO: i32 = libc::ENOSYS;

/// The system calls that fail with [`HIDDEN_ERRNO`] whatever their arguments: a file system's
/// free blocks and inodes (`statfs`, `fstatfs`; `ustat` on x86-64 only) and its quotas.
pub const HIDDEN_CALLS: [&str; 5] = ["statfs", "fstatfs", "ustat", "quotactl", "quotactl_fd"];

/// The system calls that fail with [`HIDDEN_ERRNO`] as if the kernel had none: io_uring, whose
/// operations the kernel runs on the bot's behalf without passing them through the filter
/// (futex operations since Linux 6.7, among others), and which runtimes take as an option
/// (libuv, in Node.js, falls back to its thread pool).
pub const ABSENT_CALLS: [&str; 3] = ["io_uring_setup", "io_uring_enter", "io_uring_register"];

/// The `ioctl` requests the filter denies with [`DENIED_ERRNO`]: a file system's map of free
/// space (ext4 and XFS answer it without privileges) and the free counts of XFS and btrfs.
pub const DENIED_IOCTL: [(u32, &str); 3] = [
    // _IOWR('X', 59, struct fsmap_head): 192 bytes.
    (0xc0c0_583b, "FS_IOC_GETFSMAP"),
    // _IOR('X', 113, struct xfs_fsop_counts): 32 bytes.
    (0x8020_5871, "XFS_IOC_FSCOUNTS"),
    // _IOWR(0x94, 20, struct btrfs_ioctl_space_args): 16 bytes.
    (0xc010_9414, "BTRFS_IOC_SPACE_INFO"),
];

/// What glibc prints, and then aborts, when a futex call fails as it never expects: the mark of
/// a process-shared lock or semaphore whose wake the filter refused.
const GLIBC_FUTEX_ABORT: &str = "The futex facility returned an unexpected error code";

/// A note for a fault message when a bot's stderr `tail` shows that one of its processes died
/// of the filter's refusal of a shared futex wake (see [`DENIED_SHARED_FUTEX`]), which the bot's
/// author would otherwise not recognise.
pub fn refusal_note(tail: &str) -> Option<&'static str> {
    tail.contains(GLIBC_FUTEX_ABORT).then_some(
        "; \"The futex facility returned an unexpected error code\" is glibc's abort when the referee refuses a process-shared futex wake: a process-shared lock, semaphore or queue (Python multiprocessing's, when contended) cannot wake its waiters here; use threads, or pipes between processes (docs/security.md#the-system-call-filter)",
    )
}

/// The numbers of the system calls the filter names, on one architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    fcntl: i64,
    flock: i64,
    ioctl: i64,
    statfs: i64,
    fstatfs: i64,
    /// Absent from the generic table.
    ustat: Option<i64>,
    quotactl: i64,
    quotactl_fd: i64,
    /// `io_uring_setup`, `io_uring_enter`, `io_uring_register`.
    io_uring: [i64; 3],
    futex: i64,
    /// The futex2 calls that wake (Linux 6.7): `futex_wake`, `futex_requeue`.
    futex_wake: i64,
    futex_requeue: i64,
    /// Absent from the generic table (arm64, RISC-V), which has `inotify_init1` only.
    inotify_init: Option<i64>,
    inotify_init1: i64,
    fanotify_init: i64,
    /// Whether the x32 numbers (the same, with [`X32_BIT`]) exist and are denied too.
    x32: bool,
    /// The x32 number of `ioctl`, which has one of its own (with [`X32_BIT`]).
    ioctl_x32: Option<i64>,
}

/// The bit that marks an x32 system call on x86-64.
const X32_BIT: i64 = 0x4000_0000;

/// x86-64 (`arch/x86/entry/syscalls/syscall_64.tbl`; x32 uses the same numbers for these, but
/// for `ioctl`).
const X86_64: Numbers = Numbers {
    fcntl: 72,
    flock: 73,
    ioctl: 16,
    statfs: 137,
    fstatfs: 138,
    ustat: Some(136),
    quotactl: 179,
    quotactl_fd: 443,
    io_uring: [425, 426, 427],
    futex: 202,
    futex_wake: 454,
    futex_requeue: 456,
    inotify_init: Some(253),
    inotify_init1: 294,
    fanotify_init: 300,
    x32: true,
    ioctl_x32: Some(514),
};

/// The generic table (`include/uapi/asm-generic/unistd.h`) of arm64 and RISC-V.
const GENERIC: Numbers = Numbers {
    fcntl: 25,
    flock: 32,
    ioctl: 29,
    statfs: 43,
    fstatfs: 44,
    ustat: None,
    quotactl: 60,
    quotactl_fd: 443,
    io_uring: [425, 426, 427],
    futex: 98,
    futex_wake: 454,
    futex_requeue: 456,
    inotify_init: None,
    inotify_init1: 26,
    fanotify_init: 262,
    x32: false,
    ioctl_x32: None,
};

fn numbers(arch: TargetArch) -> Numbers {
    match arch {
        TargetArch::x86_64 => X86_64,
        TargetArch::aarch64 | TargetArch::riscv64 => GENERIC,
    }
}

/// The architecture the referee runs on, if seccompiler can build programs for it.
fn native_arch() -> Option<TargetArch> {
    if cfg!(target_arch = "x86_64") {
        Some(TargetArch::x86_64)
    } else if cfg!(target_arch = "aarch64") {
        Some(TargetArch::aarch64)
    } else if cfg!(target_arch = "riscv64") {
        Some(TargetArch::riscv64)
    } else {
        None
    }
}

/// Why the filter could not be built.
#[derive(Debug, thiserror::Error)]
#[error("cannot build the bots' system-call filter")]
pub struct FilterError(#[source] BackendError);

/// The three BPF programs every bot process gets, ready to install.
#[derive(Debug)]
pub struct BotFilter {
    /// Fails record locks, leases, notifications, shared futex wakes and the ioctls of
    /// [`DENIED_IOCTL`] with [`DENIED_ERRNO`].
    deny: BpfProgram,
    /// Fails the calls of [`HIDDEN_CALLS`] and [`ABSENT_CALLS`] with [`HIDDEN_ERRNO`].
    hide: BpfProgram,
    /// Makes `flock` succeed without doing anything.
    no_op: BpfProgram,
}

/// The rules that match a call whose argument `index`, read as a 32-bit value, is one of
/// `values`.
fn argument_is_one_of(index: u8, values: &[u32]) -> Result<Vec<SeccompRule>, FilterError> {
    values
        .iter()
        .map(|&value| {
            let condition = SeccompCondition::new(
                index,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::Eq,
                value.into(),
            )?;
            SeccompRule::new(vec![condition])
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(FilterError)
}

impl BotFilter {
    /// The filter for the architecture the referee runs on, built on first use; `None` on an
    /// architecture seccompiler has no programs for (anything but x86-64, arm64 and RISC-V 64),
    /// where bots run unfiltered.
    pub fn native() -> Option<&'static BotFilter> {
        static FILTER: OnceLock<Option<BotFilter>> = OnceLock::new();
        FILTER
            .get_or_init(|| {
                native_arch().map(|arch| {
                    BotFilter::build(arch).expect("the filter's rules are valid (unit-tested)")
                })
            })
            .as_ref()
    }

    /// The filter for `arch`.
    ///
    /// # Errors
    /// When seccompiler refuses the rules (it does not: the tests build every architecture).
    pub fn build(arch: TargetArch) -> Result<BotFilter, FilterError> {
        let n = numbers(arch);
        let with_x32 = |calls: &[i64]| -> Vec<i64> {
            let mut all = calls.to_vec();
            if n.x32 {
                all.extend(calls.iter().map(|c| c | X32_BIT));
            }
            all
        };
        let mut deny: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
        // Double words: the kernel reads an fcntl command and an ioctl request as 32-bit
        // ints, so the upper half of the register must not let a call through.
        let commands = DENIED_FCNTL.map(|(command, _)| command as u32);
        for fcntl in with_x32(&[n.fcntl]) {
            deny.insert(fcntl, argument_is_one_of(1, &commands)?);
        }
        let requests = DENIED_IOCTL.map(|(request, _)| request);
        for ioctl in with_x32(&[n.ioctl])
            .into_iter()
            .chain(n.ioctl_x32.map(|c| c | X32_BIT))
        {
            deny.insert(ioctl, argument_is_one_of(1, &requests)?);
        }
        // A shared wake: the command's bits but FUTEX_CLOCK_REALTIME, with FUTEX_PRIVATE_FLAG
        // clear, are one of the waking commands.
        let shared_wakes = DENIED_SHARED_FUTEX
            .iter()
            .map(|&(command, _)| {
                SeccompCondition::new(
                    1,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::MaskedEq((!FUTEX_CLOCK_REALTIME).into()),
                    command.into(),
                )
                .and_then(|condition| SeccompRule::new(vec![condition]))
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(FilterError)?;
        for futex in with_x32(&[n.futex]) {
            deny.insert(futex, shared_wakes.clone());
        }
        // futex2's wake without FUTEX2_PRIVATE in its flags (the fourth argument); its requeue
        // reads its futexes' flags from memory, which a filter cannot see: denied.
        let shared_wake2 = SeccompCondition::new(
            3,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::MaskedEq(FUTEX_PRIVATE_FLAG.into()),
            0,
        )
        .and_then(|condition| SeccompRule::new(vec![condition]))
        .map_err(FilterError)?;
        for call in with_x32(&[n.futex_wake]) {
            deny.insert(call, vec![shared_wake2.clone()]);
        }
        for call in with_x32(&[n.futex_requeue]) {
            deny.insert(call, Vec::new());
        }
        let notify: Vec<i64> = n
            .inotify_init
            .into_iter()
            .chain([n.inotify_init1, n.fanotify_init])
            .collect();
        for call in with_x32(&notify) {
            deny.insert(call, Vec::new());
        }
        let hidden: Vec<i64> = [n.statfs, n.fstatfs, n.quotactl, n.quotactl_fd]
            .into_iter()
            .chain(n.ustat)
            .chain(n.io_uring)
            .collect();
        let hide = with_x32(&hidden)
            .into_iter()
            .map(|call| (call, Vec::new()))
            .collect();
        let no_op = with_x32(&[n.flock])
            .into_iter()
            .map(|call| (call, Vec::new()))
            .collect();
        let program = |rules, action| -> Result<BpfProgram, FilterError> {
            SeccompFilter::new(rules, SeccompAction::Allow, action, arch)
                .and_then(BpfProgram::try_from)
                .map_err(FilterError)
        };
        Ok(BotFilter {
            deny: program(deny, SeccompAction::Errno(DENIED_ERRNO as u32))?,
            hide: program(hide, SeccompAction::Errno(HIDDEN_ERRNO as u32))?,
            no_op: program(no_op, SeccompAction::Errno(0))?,
        })
    }

    /// Installs the filter on the calling thread, for good: sets `no_new_privs` (which an
    /// unprivileged process needs to install a filter, and which keeps a setuid program from
    /// gaining privileges), then loads the three programs.
    ///
    /// Async-signal-safe (two system calls, no allocation), so it may run between fork and
    /// exec.
    ///
    /// # Errors
    /// The system error of `prctl` or `seccomp` (a kernel without `CONFIG_SECCOMP_FILTER`).
    pub fn install(&self) -> std::io::Result<()> {
        // SAFETY: prctl with constant arguments changes only this thread's flags.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        for program in [&self.deny, &self.hide, &self.no_op] {
            let fprog = libc::sock_fprog {
                len: program.len() as libc::c_ushort,
                // seccompiler's `sock_filter` is `#[repr(C)]` with the kernel's layout, as
                // libc's is (the size is checked below); the kernel only reads it.
                filter: program.as_ptr().cast::<libc::sock_filter>().cast_mut(),
            };
            // SAFETY: the program outlives the call, which copies it into the kernel.
            let rc = unsafe {
                libc::syscall(
                    libc::SYS_seccomp,
                    libc::SECCOMP_SET_MODE_FILTER,
                    0,
                    &raw const fprog,
                )
            };
            if rc != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// The number of BPF instructions of the three programs.
    pub fn instructions(&self) -> usize {
        self.deny.len() + self.hide.len() + self.no_op.len()
    }
}

const _: () = assert!(
    std::mem::size_of::<seccompiler::sock_filter>() == std::mem::size_of::<libc::sock_filter>()
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    #[test]
    fn every_architecture_builds() {
        for arch in [TargetArch::x86_64, TargetArch::aarch64, TargetArch::riscv64] {
            let filter = BotFilter::build(arch).unwrap();
            // 360 on x86-64 (its x32 numbers double the rules); far below the kernel's 4,096.
            assert!(filter.instructions() < 400, "{arch:?}: {filter:?}");
        }
    }

    #[test]
    fn the_native_numbers_are_libcs() {
        let Some(arch) = native_arch() else {
            return;
        };
        let n = numbers(arch);
        assert_eq!(n.fcntl, libc::SYS_fcntl);
        assert_eq!(n.flock, libc::SYS_flock);
        assert_eq!(n.inotify_init1, libc::SYS_inotify_init1);
        assert_eq!(n.fanotify_init, libc::SYS_fanotify_init);
        assert_eq!(n.ioctl, libc::SYS_ioctl);
        assert_eq!(n.statfs, libc::SYS_statfs);
        assert_eq!(n.fstatfs, libc::SYS_fstatfs);
        assert_eq!(n.quotactl, libc::SYS_quotactl);
        assert_eq!(n.quotactl_fd, libc::SYS_quotactl_fd);
        assert_eq!(n.futex, libc::SYS_futex);
        assert_eq!(n.futex_wake, 454);
        assert_eq!(n.futex_requeue, 456);
        assert_eq!(
            n.io_uring,
            [
                libc::SYS_io_uring_setup,
                libc::SYS_io_uring_enter,
                libc::SYS_io_uring_register
            ]
        );
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(n.inotify_init, Some(libc::SYS_inotify_init));
            assert_eq!(n.ustat, Some(libc::SYS_ustat));
        }
    }

    /// The ioctl requests are the kernel's `_IOR`/`_IOWR` of their structures' sizes.
    #[test]
    fn the_ioctl_requests_encode_their_sizes() {
        const fn request(read_write: u32, kind: u8, number: u8, size: u32) -> u32 {
            read_write << 30 | size << 16 | (kind as u32) << 8 | number as u32
        }
        let (read, read_write) = (2, 3);
        // struct fsmap_head: 4 u32, 6 reserved u64, 2 struct fsmap of 64 bytes.
        assert_eq!(
            DENIED_IOCTL[0].0,
            request(read_write, b'X', 59, 16 + 48 + 128)
        );
        // struct xfs_fsop_counts: 4 u64.
        assert_eq!(DENIED_IOCTL[1].0, request(read, b'X', 113, 32));
        // struct btrfs_ioctl_space_args: 2 u64 and a flexible array.
        assert_eq!(DENIED_IOCTL[2].0, request(read_write, 0x94, 20, 16));
    }

    /// What the scripts of [`filtered`] may call: `call(f)` runs `f` and gives "ok" or the
    /// errno of its `OSError`; `errno(rc)` gives "ok" for a return code of 0 or more, else the
    /// errno of a `libc` call (made through ctypes).
    const HELPERS: &str = r#"
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
def call(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return str(e.errno)
def errno(rc):
    return str(ctypes.get_errno()) if rc < 0 else "ok"
"#;

    /// Runs the Python `script`, after [`HELPERS`], with the filter installed before exec;
    /// returns its stdout.
    fn filtered(script: &str) -> String {
        let filter = BotFilter::native().expect("a supported architecture");
        let mut command = Command::new("python3");
        command.args(["-c", &format!("{HELPERS}{script}")]);
        // SAFETY: install is async-signal-safe.
        unsafe {
            command.pre_exec(|| filter.install());
        }
        let out = command.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn locks_fail_with_eperm_and_flock_takes_nothing() {
        let script = r#"
import fcntl, os, struct
a = open("/proc/self/exe", "rb")
b = open("/proc/self/exe", "rb")
lk = struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0)
print(call(lambda: fcntl.flock(a, fcntl.LOCK_EX)))
# Nothing was taken: a second description takes the same lock at once.
print(call(lambda: fcntl.flock(b, fcntl.LOCK_EX | fcntl.LOCK_NB)))
for cmd in [fcntl.F_SETLK, fcntl.F_SETLKW, fcntl.F_GETLK, fcntl.F_OFD_SETLK, fcntl.F_OFD_SETLKW, fcntl.F_OFD_GETLK]:
    print(call(lambda: fcntl.fcntl(a, cmd, lk)))
print(call(lambda: fcntl.fcntl(a, fcntl.F_SETLEASE, fcntl.F_RDLCK)))
print(call(lambda: fcntl.fcntl(os.open("/", os.O_RDONLY), fcntl.F_NOTIFY, fcntl.DN_ACCESS)))
# Other commands pass.
print(call(lambda: fcntl.fcntl(a, fcntl.F_GETFD)))
print(call(lambda: fcntl.fcntl(a, fcntl.F_GETLEASE)))
"#;
        let eperm = DENIED_ERRNO.to_string();
        let mut expected = vec!["ok", "ok"];
        expected.extend([eperm.as_str(); 8]);
        expected.extend(["ok", "ok"]);
        assert_eq!(filtered(script).lines().collect::<Vec<_>>(), expected);
    }

    /// The other ways into the kernel on x86-64: an x32 call is filtered like a 64-bit one, and
    /// a 32-bit call (`int 0x80`, whose numbers the filter does not know) kills the process.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn an_x32_call_is_filtered_and_a_32_bit_call_kills() {
        let filter = BotFilter::native().expect("x86-64 has a filter");
        // SAFETY: the child makes async-signal-safe calls only, on a filter built before.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            // SAFETY: system calls on constant arguments; the child never returns.
            unsafe {
                // No core file for the SIGSYS below.
                let none = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                libc::setrlimit(libc::RLIMIT_CORE, &none);
                if filter.install().is_err() {
                    libc::_exit(2);
                }
                // fcntl(0, F_SETLK, NULL) by its x32 number: the filter's EPERM, not the
                // kernel's ENOSYS (x32 is off on most kernels) or EFAULT.
                let rc = libc::syscall(X32_BIT | libc::SYS_fcntl, 0, libc::F_SETLK, 0);
                if rc != -1 || *libc::__errno_location() != DENIED_ERRNO {
                    libc::_exit(3);
                }
                // getpid, by its 32-bit number.
                std::arch::asm!("int 0x80", inout("eax") 20 => _, out("r8") _, out("r9") _,
                    out("r10") _, out("r11") _);
                libc::_exit(4);
            }
        }
        let mut status = 0;
        // SAFETY: waits for the child above.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(
            libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGSYS,
            "wait status {status:#x}"
        );
    }

    /// What `statvfs`, `df` and `shutil.disk_usage` get: `ENOSYS`; the free-space map of ext4
    /// (which answers it without privileges) is refused; other ioctls pass.
    #[test]
    fn file_system_counters_fail_with_enosys() {
        let script = r#"
import fcntl, os, shutil, termios
buf = ctypes.create_string_buffer(512)
print(call(lambda: os.statvfs("/")))
print(call(lambda: os.fstatvfs(0)))
print(call(lambda: shutil.disk_usage("/")))
print(errno(libc.syscall(ctypes.c_long(@STATFS@), b"/", buf)))
print(errno(libc.syscall(ctypes.c_long(@FSTATFS@), 0, buf)))
print(errno(libc.syscall(ctypes.c_long(@QUOTACTL@), 0x800007, b"/dev/null", 0, buf)))
print(errno(libc.syscall(ctypes.c_long(@QUOTACTL_FD@), 0, 0x800007, 0, buf)))
# glibc's pathconf falls back to its defaults on ENOSYS.
print(os.pathconf("/", "PC_NAME_MAX") > 0)
fd = os.open("/proc/self/exe", os.O_RDONLY)
print(errno(libc.ioctl(fd, ctypes.c_ulong(@GETFSMAP@), buf)))
# Another ioctl passes (the kernel's own ENOTTY).
print(call(lambda: fcntl.ioctl(fd, termios.TCGETS, bytes(64))))
"#
        .replace("@STATFS@", &libc::SYS_statfs.to_string())
        .replace("@FSTATFS@", &libc::SYS_fstatfs.to_string())
        .replace("@QUOTACTL_FD@", &libc::SYS_quotactl_fd.to_string())
        .replace("@QUOTACTL@", &libc::SYS_quotactl.to_string())
        .replace("@GETFSMAP@", &DENIED_IOCTL[0].0.to_string());
        let enosys = HIDDEN_ERRNO.to_string();
        let mut expected = vec![enosys.as_str(); 7];
        let eperm = DENIED_ERRNO.to_string();
        let enotty = libc::ENOTTY.to_string();
        expected.extend(["True", eperm.as_str(), enotty.as_str()]);
        assert_eq!(filtered(&script).lines().collect::<Vec<_>>(), expected);
    }

    /// A shared futex wake fails with `EPERM`, a private one runs; threads still join (the
    /// kernel, not the filter, wakes a thread's joiner), and futex2's wake is held to the same
    /// rule, its requeue denied.
    #[test]
    fn shared_futex_wakes_fail_with_eperm_and_private_ones_and_joins_run() {
        let script = r#"
import threading
word = ctypes.c_uint32(0)
addr = ctypes.addressof(word)
FUTEX = @FUTEX@
for command in (1, 3, 4, 5, 10):
    print(errno(libc.syscall(ctypes.c_long(FUTEX), ctypes.c_void_p(addr), command, 1, None, ctypes.c_void_p(addr), 0)))
print(errno(libc.syscall(ctypes.c_long(FUTEX), ctypes.c_void_p(addr), 1 | 256, 1, None, None, 0)))
print(errno(libc.syscall(ctypes.c_long(FUTEX), ctypes.c_void_p(addr), 1 | 128, 1, None, None, 0)))
print(errno(libc.syscall(ctypes.c_long(FUTEX), ctypes.c_void_p(addr), 10 | 128, 1, None, None, 0xffffffff)))
t = threading.Thread(target=lambda: None)
t.start(); t.join()
print("joined")
# futex_wake(uaddr, mask, nr, flags): FUTEX2_SIZE_U32 is 2, FUTEX2_PRIVATE 128.
print(errno(libc.syscall(ctypes.c_long(454), ctypes.c_void_p(addr), ctypes.c_ulong(0xffffffff), 1, 2)))
print(errno(libc.syscall(ctypes.c_long(454), ctypes.c_void_p(addr), ctypes.c_ulong(0xffffffff), 1, 2 | 128)))
print(errno(libc.syscall(ctypes.c_long(456), None, 0, 1, 0)))
"#
        .replace("@FUTEX@", &libc::SYS_futex.to_string());
        let eperm = DENIED_ERRNO.to_string();
        let mut expected = vec![eperm.as_str(); 6];
        expected.extend(["ok", "ok", "joined", eperm.as_str(), "ok", eperm.as_str()]);
        assert_eq!(filtered(&script).lines().collect::<Vec<_>>(), expected);
    }

    /// io_uring is absent under the filter, as on a kernel without it: `io_uring_setup` (which
    /// works here unfiltered) and the two others fail with `ENOSYS`.
    #[test]
    fn io_uring_is_absent() {
        let script = r#"
params = ctypes.create_string_buffer(120)
print(errno(libc.syscall(ctypes.c_long(@SETUP@), 4, params)))
print(errno(libc.syscall(ctypes.c_long(@ENTER@), 0, 0, 0, 0, 0, 0)))
print(errno(libc.syscall(ctypes.c_long(@REGISTER@), 0, 0, 0, 0)))
"#
        .replace("@SETUP@", &libc::SYS_io_uring_setup.to_string())
        .replace("@ENTER@", &libc::SYS_io_uring_enter.to_string())
        .replace("@REGISTER@", &libc::SYS_io_uring_register.to_string());
        let enosys = HIDDEN_ERRNO.to_string();
        assert_eq!(
            filtered(&script).lines().collect::<Vec<_>>(),
            vec![enosys.as_str(); 3]
        );
    }

    #[test]
    fn notifications_fail_with_eperm_and_the_upper_half_of_a_command_changes_nothing() {
        let script = r#"
import fcntl
print(errno(libc.inotify_init1(0)))
print(errno(libc.syscall(ctypes.c_long(FANOTIFY), 0, 0)))
# fcntl(0, F_GETLK | 1 << 32, NULL): the kernel reads F_GETLK; so does the filter.
print(errno(libc.syscall(ctypes.c_long(FCNTL), 0, ctypes.c_long(fcntl.F_GETLK | 1 << 32), None)))
"#
        .replace("FANOTIFY", &libc::SYS_fanotify_init.to_string())
        .replace("FCNTL", &libc::SYS_fcntl.to_string());
        let eperm = DENIED_ERRNO.to_string();
        assert_eq!(
            filtered(&script).lines().collect::<Vec<_>>(),
            [eperm.as_str(); 3]
        );
    }
}
