//! What `/proc` and the kernel tell about a bot's processes and pipes, without touching them:
//! the state of every thread (to see a bot idle or waiting), which process holds a pipe, whether a
//! process is bubblewrap's, and how many bytes wait unread in a pipe.

use std::collections::BTreeMap;
use std::os::fd::RawFd;
use std::path::Path;

/// Every thread of the processes of a bot — `root`, the `members` of its control group, and
/// their descendants — by thread id: whether it is asleep (not running, not runnable, not in an
/// uninterruptible wait) and how often it has left a CPU. `None` when `root` cannot be read, or
/// the processes of any cannot be listed (no permission): then some of its threads could not be
/// seen. (Pids in `/proc` are the host's, also for a bot under bubblewrap, whose processes are
/// the children of bubblewrap's.)
pub fn threads(root: i32, members: Vec<i32>) -> Option<BTreeMap<i32, (bool, u64)>> {
    let mut pids = vec![root];
    pids.extend(members);
    // Without /proc/PID/task/TID/children (a kernel built without it), the parent of every
    // process is read instead.
    let by_parent = !Path::new(&format!("/proc/{root}/task/{root}/children")).exists();
    let parents: Vec<(i32, i32)> = if by_parent { parents() } else { Vec::new() };
    let mut threads = BTreeMap::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut i = 0;
    while let Some(&pid) = pids.get(i) {
        i += 1;
        if !seen.insert(pid) {
            continue;
        }
        let tasks = match std::fs::read_dir(format!("/proc/{pid}/task")) {
            Ok(tasks) => tasks,
            Err(e) if pid == root || e.kind() == std::io::ErrorKind::PermissionDenied => {
                return None;
            }
            // Gone meanwhile.
            Err(_) => continue,
        };
        for task in tasks.flatten() {
            let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) else {
                continue;
            };
            if let Some(state) = thread_state(&task.path()) {
                threads.insert(tid, state);
            }
            if !by_parent {
                let children = match std::fs::read_to_string(task.path().join("children")) {
                    Ok(children) => children,
                    Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => return None,
                    // The thread is gone meanwhile: it shows missing in the other look.
                    Err(_) => String::new(),
                };
                pids.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<i32>().ok()),
                );
            }
        }
        if by_parent {
            pids.extend(parents.iter().filter(|&&(_, p)| p == pid).map(|&(c, _)| c));
        }
    }
    Some(threads)
}

/// Whether process `pid` holds open the pipe whose inode is `inode`.
pub fn holds_pipe(pid: i32, inode: u64) -> bool {
    let pipe = format!("pipe:[{inode}]");
    std::fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|fds| {
        fds.flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|t| t.as_os_str() == pipe.as_str()))
    })
}

/// Whether process `pid` runs bubblewrap.
pub fn is_bubblewrap(pid: i32) -> bool {
    std::fs::read_link(format!("/proc/{pid}/exe"))
        .is_ok_and(|exe| exe.file_name().is_some_and(|n| n == "bwrap"))
}

/// How many bytes wait unread in the pipe open at `fd` (either end); `None` if it cannot be
/// asked.
pub fn unread_bytes(fd: RawFd) -> Option<usize> {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int through the pointer, to memory we own; `fd` is open for
    // the call's duration.
    let asked = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) };
    (asked == 0).then_some(n.max(0) as usize)
}

/// Whether the thread whose `/proc` directory is `dir` is asleep (neither running, nor
/// runnable, nor in an uninterruptible wait), and how many times it has left a CPU, from its
/// `status`.
fn thread_state(dir: &Path) -> Option<(bool, u64)> {
    let status = std::fs::read_to_string(dir.join("status")).ok()?;
    let mut state = None;
    let mut switches = 0;
    for line in status.lines() {
        if let Some(s) = line.strip_prefix("State:") {
            state = s.trim_start().chars().next();
        } else if let Some(n) = line
            .strip_prefix("voluntary_ctxt_switches:")
            .or_else(|| line.strip_prefix("nonvoluntary_ctxt_switches:"))
        {
            switches += n.trim().parse::<u64>().ok()?;
        }
    }
    Some((!matches!(state?, 'R' | 'D' | 'W'), switches))
}

/// Every process with its parent, from `/proc/PID/stat` (the field after the state, which
/// follows the last `)`: the command name may hold spaces and parentheses).
fn parents() -> Vec<(i32, i32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let parent = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?;
            Some((pid, parent.parse().ok()?))
        })
        .collect()
}

/// The inode of the pipe open at `fd` (0 if it cannot be read).
pub fn pipe_inode(fd: RawFd) -> u64 {
    // SAFETY: fstat fills the zeroed struct we own; `fd` is open for the call's duration.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(fd, &mut st) == 0 {
            st.st_ino
        } else {
            0
        }
    }
}
