//! What the filter refuses and how each refusal fails: the calls, commands and requests by
//! name, the errors they get, and the note that explains a refusal to a bot's author.

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
pub(super) const FUTEX_PRIVATE_FLAG: u32 = 128;

/// `FUTEX_CLOCK_REALTIME`: which clock a wait's timeout is on, beside any command.
pub(super) const FUTEX_CLOCK_REALTIME: u32 = 256;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
