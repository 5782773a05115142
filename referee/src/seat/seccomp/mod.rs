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

mod numbers;
mod programs;
mod refusals;
#[cfg(test)]
mod tests;

pub use programs::{BotFilter, FilterError};
pub use refusals::{
    ABSENT_CALLS, DENIED_CALLS, DENIED_ERRNO, DENIED_FCNTL, DENIED_IOCTL, DENIED_SHARED_FUTEX,
    HIDDEN_CALLS, HIDDEN_ERRNO, NO_OP_CALLS, refusal_note,
};
