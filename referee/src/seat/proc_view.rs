//! What a sandboxed bot sees of the machine in `/proc`: no count that another bot's work moves.
//!
//! A bot's own PID namespace hides every other process, but much of `/proc` counts the whole
//! machine: forks and context switches (`/proc/stat`), threads (`/proc/loadavg`), free memory
//! (`/proc/meminfo`, `/proc/vmstat`), open files and cached inodes (`/proc/sys/fs/file-nr`,
//! `inode-nr`), disk traffic, interrupts, pressure, a file system's free blocks per group
//! (`/proc/fs/ext4/*/mb_groups`). A bot that forks, allocates or creates files moves them, and a
//! bot in another sandbox reads them: a covert channel (docs/security.md, "Covert channels that
//! remain"). So the sandbox changes three kinds of file:
//!
//! - **closed** ([`CLOSED_FILES`]): `/dev/null` is bound over the file, which no runtime reads;
//!   reading it fails (`EACCES`, the sandbox's mounts allow no devices);
//! - **emptied** ([`EMPTIED_DIRS`]): an empty, read-only directory over the directory;
//! - **fixed** ([`FIXED_FILES`]): runtimes read `/proc/stat` (glibc counts the CPUs there when
//!   `/sys` is empty, and so Python and the JVM), `/proc/meminfo` (Node.js sizes its heap from
//!   `MemTotal`) and `/proc/cpuinfo` (the JVM reads the CPU's features, Node.js its speed). The
//!   bot gets a copy the referee makes once per run ([`FixedFiles`]), in which every figure that
//!   moves is set to a fixed value: no bot's work changes it, whenever it is read.
//!
//! The copies reach bubblewrap as `--ro-bind-data` from a memfd made for each bot start
//! (bubblewrap copies it into the sandbox and closes it, so the bot inherits no descriptor).

use std::io::{Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;
use std::sync::OnceLock;

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

/// The files of `/proc` a sandboxed bot gets as a fixed copy, each with what moves in it and
/// what the copy shows instead.
pub const FIXED_FILES: [(&str, &str); 3] = [
    (
        "stat",
        "every figure 0 (CPU times, interrupts, context switches, forks, running and blocked \
         processes) but the boot time; one line per CPU, as the machine has",
    ),
    (
        "meminfo",
        "the totals kept (memory, swap, huge pages, the commit limit); free and available \
         memory equal to the total, free swap and huge pages to theirs, every other figure 0",
    ),
    (
        "cpuinfo",
        "as read at the run's start (its only moving figure, `cpu MHz`, is the frequency then)",
    ),
];

/// The `/proc/meminfo` figures that are the machine's, not its load's, kept in the copy.
const MEMINFO_TOTALS: [&str; 7] = [
    "MemTotal",
    "SwapTotal",
    "CommitLimit",
    "VmallocTotal",
    "HugePages_Total",
    "Hugepagesize",
    "Hugetlb",
];

/// The `/proc/meminfo` figures that show their total in the copy: nothing is used.
const MEMINFO_FREE: [(&str, &str); 4] = [
    ("MemFree", "MemTotal"),
    ("MemAvailable", "MemTotal"),
    ("SwapFree", "SwapTotal"),
    ("HugePages_Free", "HugePages_Total"),
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

/// The content of each of [`FIXED_FILES`], made once per run: `None` where the machine has no
/// such file or the referee cannot read it (the bot then gets `/dev/null` there).
fn fixed_contents() -> &'static [(&'static str, Option<String>); 3] {
    static CONTENTS: OnceLock<[(&str, Option<String>); 3]> = OnceLock::new();
    CONTENTS.get_or_init(|| {
        let read = |name: &str| std::fs::read_to_string(format!("/proc/{name}")).ok();
        [
            ("stat", read("stat").map(|text| fixed_stat(&text))),
            ("meminfo", read("meminfo").map(|text| fixed_meminfo(&text))),
            ("cpuinfo", read("cpuinfo")),
        ]
    })
}

/// `/proc/stat` with every figure 0 but the boot time (`btime`).
fn fixed_stat(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        out.push_str(key);
        out.push(' ');
        if key == "btime" {
            out.push_str(rest);
        } else {
            out.push_str(&zero_numbers(rest));
        }
        out.push('\n');
    }
    out
}

/// `/proc/meminfo` with its totals kept ([`MEMINFO_TOTALS`]), the free figures equal to their
/// totals ([`MEMINFO_FREE`]), and every other figure 0.
fn fixed_meminfo(text: &str) -> String {
    let figure = |key: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("0")
            .to_string()
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let Some((key, rest)) = line.split_once(':') else {
            continue;
        };
        let value = if MEMINFO_TOTALS.contains(&key) {
            figure(key)
        } else if let Some((_, total)) = MEMINFO_FREE.iter().find(|(free, _)| *free == key) {
            figure(total)
        } else {
            "0".to_string()
        };
        let unit = if rest.trim_end().ends_with("kB") {
            " kB"
        } else {
            ""
        };
        // Right-aligned where the kernel aligns it, with a space at least.
        let width = 23usize.saturating_sub(key.len()).max(value.len() + 1);
        out.push_str(&format!("{key}:{value:>width$}{unit}\n"));
    }
    out
}

/// `text` with every run of digits (and the decimals after a point) replaced by `0`.
fn zero_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            while chars.next_if(|d| d.is_ascii_digit() || *d == '.').is_some() {}
            out.push('0');
        } else {
            out.push(c);
        }
    }
    out
}

/// The fixed copies of `/proc` for one bot start, each in a memfd of its own that bubblewrap
/// reads (from its start: the descriptor is fresh) and closes.
#[derive(Debug, Default)]
pub struct FixedFiles {
    files: Vec<(OwnedFd, &'static str)>,
}

impl FixedFiles {
    /// The run's copies, in fresh memfds (close-on-exec in the referee; the bot's child keeps
    /// them open across its exec, [`FixedFiles::descriptors`]).
    ///
    /// # Errors
    /// When a memfd cannot be made or written (out of descriptors or memory).
    pub fn for_start() -> std::io::Result<FixedFiles> {
        let mut files = Vec::new();
        for (name, content) in fixed_contents() {
            if let Some(content) = content {
                files.push((memfd(name, content)?, *name));
            }
        }
        Ok(FixedFiles { files })
    }

    /// The bubblewrap arguments that bind each copy read-only over its file, and `/dev/null`
    /// over a fixed file the referee could not copy.
    pub fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for (name, content) in fixed_contents() {
            let path = format!("/proc/{name}");
            match self.files.iter().find(|(_, n)| n == name) {
                Some((fd, _)) => args.extend([
                    "--perms".into(),
                    "0444".into(),
                    "--ro-bind-data".into(),
                    fd.as_raw_fd().to_string(),
                    path,
                ]),
                None if content.is_none() && Path::new(&path).exists() => {
                    args.extend(["--ro-bind".into(), "/dev/null".into(), path]);
                }
                None => {}
            }
        }
        args
    }

    /// The descriptors the bot's child must keep open across its exec (bubblewrap reads them).
    pub fn descriptors(&self) -> Vec<RawFd> {
        self.files.iter().map(|(fd, _)| fd.as_raw_fd()).collect()
    }
}

/// A close-on-exec memfd holding `content`, read from its start.
fn memfd(name: &str, content: &str) -> std::io::Result<OwnedFd> {
    let name = std::ffi::CString::new(format!("referee-proc-{name}")).expect("no NUL");
    // SAFETY: memfd_create takes a NUL-terminated name and returns a new descriptor or -1.
    let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fd is a new descriptor that nothing else owns.
    let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    file.write_all(content.as_bytes())?;
    file.rewind()?;
    Ok(file.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  186905 0 22178 60284 4592 0 144 176 0 0
cpu0 92905 0 11140 32854 161 0 11 85 0 0
cpu1 94000 0 11038 27430 4431 0 133 91 0 0
intr 1234567 12 0 0 99
ctxt 1607365
btime 1795869647
processes 42415
procs_running 10
procs_blocked 0
softirq 999 1 2 3 4 5 6 7 8 9 10
";

    #[test]
    fn the_fixed_stat_keeps_the_cpus_and_the_boot_time_only() {
        assert_eq!(
            fixed_stat(STAT),
            "cpu  0 0 0 0 0 0 0 0 0 0
cpu0 0 0 0 0 0 0 0 0 0 0
cpu1 0 0 0 0 0 0 0 0 0 0
intr 0 0 0 0 0
ctxt 0
btime 1795869647
processes 0
procs_running 0
procs_blocked 0
softirq 0 0 0 0 0 0 0 0 0 0 0
"
        );
    }

    #[test]
    fn the_fixed_meminfo_shows_the_totals_and_nothing_used() {
        let meminfo = "MemTotal:       24684084 kB
MemFree:        14558284 kB
MemAvailable:   21342668 kB
Dirty:              1234 kB
SwapTotal:             0 kB
SwapFree:              0 kB
HugePages_Total:       0
HugePages_Free:        0
Hugepagesize:       2048 kB
DirectMap2M:    25165824 kB
";
        let fixed = fixed_meminfo(meminfo);
        let figures: Vec<(&str, &str)> = fixed
            .lines()
            .map(|l| {
                let (key, rest) = l.split_once(':').unwrap();
                (key, rest.split_whitespace().next().unwrap())
            })
            .collect();
        assert_eq!(
            figures,
            [
                ("MemTotal", "24684084"),
                ("MemFree", "24684084"),
                ("MemAvailable", "24684084"),
                ("Dirty", "0"),
                ("SwapTotal", "0"),
                ("SwapFree", "0"),
                ("HugePages_Total", "0"),
                ("HugePages_Free", "0"),
                ("Hugepagesize", "2048"),
                ("DirectMap2M", "0"),
            ]
        );
        // The units stay where a parser (libuv's sscanf "%lu kB") looks for them.
        assert!(fixed.starts_with("MemTotal:"), "{fixed}");
        assert!(
            fixed.lines().next().unwrap().ends_with("24684084 kB"),
            "{fixed}"
        );
        assert!(fixed.contains("HugePages_Free:"), "{fixed}");
        assert!(!fixed.lines().nth(7).unwrap().ends_with("kB"), "{fixed}");
    }

    #[test]
    fn a_start_gets_fresh_copies_read_from_their_start() {
        use std::io::Read;
        for _ in 0..2 {
            let fixed = FixedFiles::for_start().unwrap();
            assert_eq!(fixed.descriptors().len(), 3, "{fixed:?}");
            for (fd, name) in &fixed.files {
                let mut text = String::new();
                let mut file = std::fs::File::from(fd.try_clone().unwrap());
                file.read_to_string(&mut text).unwrap();
                assert!(!text.is_empty(), "{name}");
            }
            // Read to their ends above: the next start's copies are fresh.
        }
        let meminfo = &fixed_contents()[1].1;
        assert!(meminfo.as_deref().unwrap().starts_with("MemTotal:"));
    }
}
