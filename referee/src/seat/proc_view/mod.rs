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

mod closed;
mod fixed_files;
mod fixed_text;

pub use closed::{CLOSED_FILES, EMPTIED_DIRS, closing_args};
pub use fixed_files::{FIXED_FILES, FixedFiles};
