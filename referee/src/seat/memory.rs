//! How much memory a bot process held at most: the largest peak resident set (`VmHWM`) among the
//! bot's process and its descendants, read from `/proc` while they run, and its control group's
//! peak where the referee made one (every process of the bot, as the memory limit counts it).

use serde::Serialize;

/// The most memory a bot held, measured both ways where both can be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PeakMemory {
    /// The peak resident set (`VmHWM`) of its largest process, in bytes: what the bot itself
    /// used, shared libraries included.
    pub largest_process_bytes: Option<u64>,
    /// Its control group's peak, in bytes: all its processes together, page cache included, as
    /// its memory limit counts them (pages another process touched first are not counted).
    pub control_group_bytes: Option<u64>,
}

/// The largest `VmHWM` among `root` and its descendants now running, in bytes; `None` when none
/// can be read.
pub fn largest_process_peak(root: u32) -> Option<u64> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .ok()?
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| Some((pid, parent_of(pid)?)))
        .collect();
    let mut tree = vec![root];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(
            parents
                .iter()
                .filter(|&&(_, p)| p == parent)
                .map(|&(pid, _)| pid),
        );
        i += 1;
    }
    tree.into_iter().filter_map(peak_resident).max()
}

/// The parent of `pid`, from `/proc/PID/stat` (the field after the state, which follows the
/// last `)`: the command name may hold spaces and parentheses).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// `VmHWM` of `pid` in bytes.
fn peak_resident(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_is_found_under_its_parent() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let own = largest_process_peak(std::process::id()).unwrap();
        assert!(own > 0);
        assert!(peak_resident(child.id()).unwrap() > 0);
        assert_eq!(parent_of(child.id()), Some(std::process::id()));
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(largest_process_peak(u32::MAX), None);
    }
}
