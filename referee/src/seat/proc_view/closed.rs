//! The files of `/proc` a sandboxed bot cannot read and the directories it sees empty, and the
//! bubblewrap arguments that make them so.

use std::path::Path;

/// The files of `/proc` a sandboxed bot cannot read (where the kernel has them), each with what
/// it shows: what other processes hold or do, or a count of the whole machine that another
/// bot's work moves.
pub const CLOSED_FILES: [(&str, &str); 29] = [
    (
        "locks",
        "every file lock of the machine, with its holder's pid and the file's inode",
    ),
    (
        "timer_list",
        "every pending timer, once with its owner's pid and command name",
    ),
    (
        "sched_debug",
        "every task of every CPU, with its pid and name (kernels before 5.13)",
    ),
    ("kpagecount", "the use count of every physical page"),
    ("kpageflags", "the flags of every physical page"),
    (
        "kpagecgroup",
        "the memory control group of every physical page",
    ),
    (
        "loadavg",
        "the load averages and the machine's running and total threads",
    ),
    (
        "uptime",
        "the idle time of every CPU together (libuv then takes the clock's uptime)",
    ),
    ("schedstat", "each CPU's run time, waits and switches"),
    ("interrupts", "the interrupts of each CPU, by source"),
    ("softirqs", "the soft interrupts of each CPU, by kind"),
    (
        "vmstat",
        "the memory manager's counters: pages, faults, reclaim, writeback",
    ),
    ("zoneinfo", "each memory zone's free pages and counters"),
    ("buddyinfo", "the free pages of each zone, by size"),
    (
        "pagetypeinfo",
        "the free pages of each zone, by size and kind",
    ),
    ("slabinfo", "the kernel's object caches and their use"),
    ("vmallocinfo", "the kernel's virtual allocations"),
    ("swaps", "the swap space in use"),
    ("diskstats", "each disk's reads, writes and time busy"),
    (
        "cgroups",
        "the number of control groups per hierarchy (the referee makes some per bot)",
    ),
    ("key-users", "each user's keys and their bytes"),
    ("crypto", "the use count of each kernel crypto algorithm"),
    ("sys/fs/file-nr", "the open files of the machine"),
    ("sys/fs/inode-nr", "the inodes in memory, and the free ones"),
    (
        "sys/fs/inode-state",
        "the inodes in memory, and the free ones",
    ),
    ("sys/fs/dentry-state", "the directory entries in memory"),
    (
        "sys/fs/aio-nr",
        "the asynchronous I/O contexts of the machine",
    ),
    (
        "sys/kernel/pty/nr",
        "the pseudo-terminals of the machine, in every /dev/pts",
    ),
    (
        "sys/kernel/random/entropy_avail",
        "the entropy pool, which reads drained (before 5.18)",
    ),
];

/// The directories of `/proc` a sandboxed bot sees empty (where the kernel has them), each with
/// what it shows.
pub const EMPTIED_DIRS: [(&str, &str); 5] = [
    ("pressure", "the machine's CPU, memory and I/O pressure"),
    (
        "fs",
        "each file system's statistics: ext4's free blocks per group, journal transactions",
    ),
    (
        "irq",
        "each interrupt's count of spurious and unhandled ones",
    ),
    (
        "sys/fs/quota",
        "the quota system's lookups, reads and writes",
    ),
    ("tty/driver", "each serial port's bytes sent and received"),
];

/// The bubblewrap arguments that close [`CLOSED_FILES`] and empty [`EMPTIED_DIRS`] (those this
/// kernel has).
pub fn closing_args() -> Vec<String> {
    let mut args = Vec::new();
    for (file, _) in CLOSED_FILES {
        let path = format!("/proc/{file}");
        if Path::new(&path).exists() {
            args.extend(["--ro-bind".into(), "/dev/null".into(), path]);
        }
    }
    for (dir, _) in EMPTIED_DIRS {
        let path = format!("/proc/{dir}");
        if Path::new(&path).is_dir() {
            args.extend(
                ["--size", "4096", "--tmpfs", &path, "--remount-ro", &path].map(String::from),
            );
        }
    }
    args
}
