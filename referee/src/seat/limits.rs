//! Resource limits of a bot process: memory, CPU time, processes, file size, the quota of its
//! working directory, and the budget of its stderr.
//!
//! Memory and processes are enforced by a control group where the referee can make one
//! ([`super::cgroup`]); otherwise memory falls back to `RLIMIT_AS` (only when set explicitly:
//! an address-space limit stops Node.js and the JVM from starting, since they reserve far more
//! address space than they use) and processes to `RLIMIT_NPROC` (per user, and not enforced for
//! root). CPU time and file size are always `RLIMIT_CPU` and `RLIMIT_FSIZE`. The workdir quota
//! is the referee's own: it measures the directory ([`super::workdir_quota`]); so is the stderr
//! budget: the referee stops reading past it ([`super::stderr::budget`]).

/// Default memory limit, in MiB (enforced through a control group only).
pub const DEFAULT_MEMORY_MB: u64 = 2048;
/// Default limit on processes and threads.
pub const DEFAULT_PROCESSES: u64 = 256;
/// Default largest file a bot may write, in MiB.
pub const DEFAULT_FILE_MB: u64 = 256;
/// Default CPU quota of a bot's processes together, in percent of one core.
pub const DEFAULT_CPU_PERCENT: u64 = 100;
/// Default quota of a bot's working directory, all its files together, in MiB.
pub const DEFAULT_WORKDIR_MB: u64 = 256;
/// Default stderr the referee reads of a bot per decision, in KiB.
pub const DEFAULT_STDERR_KB: u64 = 1024;
/// Default stderr the referee reads of a bot per match, in MiB.
pub const DEFAULT_STDERR_MATCH_MB: u64 = 16;

use super::stderr::StderrBudget;

/// A bot's resource limits as configured; `None` means the default, `Some(0)` no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ResourceLimits {
    /// Memory, in MiB [default: 2048, where a control group can enforce it].
    pub memory_mb: Option<u64>,
    /// CPU seconds over the life of the process [default: none].
    pub cpu_s: Option<u64>,
    /// Processes and threads [default: 256].
    pub processes: Option<u64>,
    /// Largest file written, in MiB [default: 256]; also the size of the sandbox's `/tmp`.
    pub file_mb: Option<u64>,
    /// CPU quota of all the bot's processes together, in percent of one core [default: 100,
    /// where a control group can enforce it].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_percent: Option<u64>,
    /// What its working directory may hold, all files together, in MiB [default: 256].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workdir_mb: Option<u64>,
    /// Stderr the referee reads of the bot per decision, in KiB [default: 1024].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_kb: Option<u64>,
    /// Stderr the referee reads of the bot per match, in MiB [default: 16].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_match_mb: Option<u64>,
}

fn limit(value: Option<u64>, default: u64) -> Option<u64> {
    match value.unwrap_or(default) {
        0 => None,
        n => Some(n),
    }
}

impl ResourceLimits {
    /// The memory limit in bytes, if any.
    pub fn memory_bytes(&self) -> Option<u64> {
        limit(self.memory_mb, DEFAULT_MEMORY_MB).map(|mb| mb << 20)
    }

    /// The process limit, if any.
    pub fn processes(&self) -> Option<u64> {
        limit(self.processes, DEFAULT_PROCESSES)
    }

    /// The file-size limit in bytes, if any.
    pub fn file_bytes(&self) -> Option<u64> {
        limit(self.file_mb, DEFAULT_FILE_MB).map(|mb| mb << 20)
    }

    /// The CPU quota in percent of one core, if any.
    pub fn cpu_percent(&self) -> Option<u64> {
        limit(self.cpu_percent, DEFAULT_CPU_PERCENT)
    }

    /// The workdir quota in bytes, if any.
    pub fn workdir_bytes(&self) -> Option<u64> {
        limit(self.workdir_mb, DEFAULT_WORKDIR_MB).map(|mb| mb << 20)
    }

    /// The budget of the bot's stderr.
    pub fn stderr_budget(&self) -> StderrBudget {
        StderrBudget {
            per_decision: limit(self.stderr_kb, DEFAULT_STDERR_KB).map(|kb| kb << 10),
            per_match: limit(self.stderr_match_mb, DEFAULT_STDERR_MATCH_MB).map(|mb| mb << 20),
        }
    }

    /// The CPU-time limit in seconds, if any.
    pub fn cpu_seconds(&self) -> Option<u64> {
        limit(self.cpu_s, 0)
    }

    /// Each limit by its config key: as set (`None`: the default; `Some(0)`: none) and its
    /// default (`None`: no limit).
    pub fn by_key(&self) -> [(&'static str, Option<u64>, Option<u64>); 8] {
        [
            ("memory_mb", self.memory_mb, Some(DEFAULT_MEMORY_MB)),
            ("cpu_s", self.cpu_s, None),
            ("processes", self.processes, Some(DEFAULT_PROCESSES)),
            ("file_mb", self.file_mb, Some(DEFAULT_FILE_MB)),
            ("cpu_percent", self.cpu_percent, Some(DEFAULT_CPU_PERCENT)),
            ("workdir_mb", self.workdir_mb, Some(DEFAULT_WORKDIR_MB)),
            ("stderr_kb", self.stderr_kb, Some(DEFAULT_STDERR_KB)),
            (
                "stderr_match_mb",
                self.stderr_match_mb,
                Some(DEFAULT_STDERR_MATCH_MB),
            ),
        ]
    }

    /// The limits set looser than their defaults — none at all (`0`), or above the default —
    /// by key: `(key, value, default)`.
    pub fn loosened(&self) -> Vec<(&'static str, u64, u64)> {
        self.by_key()
            .into_iter()
            .filter_map(|(key, set, default)| match (set, default) {
                (Some(value), Some(default)) if value == 0 || value > default => {
                    Some((key, value, default))
                }
                _ => None,
            })
            .collect()
    }

    /// The `setrlimit` calls for a process, given whether a control group enforces memory and
    /// processes.
    pub fn rlimits(&self, in_cgroup: bool) -> Vec<(RlimitResource, u64)> {
        let mut out = Vec::new();
        if let Some(s) = self.cpu_seconds() {
            out.push((libc::RLIMIT_CPU, s));
        }
        if let Some(b) = self.file_bytes() {
            out.push((libc::RLIMIT_FSIZE, b));
        }
        if !in_cgroup {
            if let (Some(b), Some(_)) = (self.memory_bytes(), self.memory_mb) {
                out.push((libc::RLIMIT_AS, b));
            }
            if let Some(n) = self.processes {
                if n > 0 {
                    out.push((libc::RLIMIT_NPROC, n));
                }
            }
        }
        out
    }
}

/// A resource number for `setrlimit`.
pub type RlimitResource = libc::__rlimit_resource_t;

/// Sets each limit (soft and hard) on the calling process. For use between fork and exec:
/// it only calls `setrlimit`, which is async-signal-safe.
pub fn apply(limits: &[(RlimitResource, u64)]) -> std::io::Result<()> {
    for &(resource, value) in limits {
        // The CPU limit's hard value is a second later, so that the bot first gets SIGXCPU (which
        // names the cause in its exit status) and SIGKILL only if it ignores that.
        let hard = if resource == libc::RLIMIT_CPU {
            value + 1
        } else {
            value
        };
        let rl = libc::rlimit {
            rlim_cur: value,
            rlim_max: hard,
        };
        // SAFETY: setrlimit reads the struct we pass and nothing else.
        if unsafe { libc::setrlimit(resource, &rl) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_off_or_above_its_default_is_looser_and_one_below_it_is_not() {
        let limits = ResourceLimits {
            memory_mb: Some(0),
            cpu_s: Some(0),
            processes: Some(10),
            file_mb: Some(DEFAULT_FILE_MB + 1),
            stderr_kb: Some(0),
            stderr_match_mb: Some(1),
            ..ResourceLimits::default()
        };
        assert_eq!(
            limits.loosened(),
            [
                ("memory_mb", 0, DEFAULT_MEMORY_MB),
                ("file_mb", DEFAULT_FILE_MB + 1, DEFAULT_FILE_MB),
                ("stderr_kb", 0, DEFAULT_STDERR_KB)
            ]
        );
        assert!(ResourceLimits::default().loosened().is_empty());
    }

    #[test]
    fn address_space_and_nproc_limits_only_when_asked_and_no_cgroup() {
        let defaults = ResourceLimits::default();
        assert_eq!(defaults.memory_bytes(), Some(2048 << 20));
        let r = defaults.rlimits(false);
        assert!(r.iter().all(|(res, _)| *res != libc::RLIMIT_AS));
        assert!(r.contains(&(libc::RLIMIT_FSIZE, 256 << 20)));
        let explicit = ResourceLimits {
            memory_mb: Some(512),
            processes: Some(32),
            cpu_s: Some(5),
            file_mb: Some(0),
            cpu_percent: None,
            workdir_mb: Some(0),
            stderr_kb: Some(64),
            stderr_match_mb: Some(0),
        };
        let r = explicit.rlimits(false);
        assert!(r.contains(&(libc::RLIMIT_AS, 512 << 20)));
        assert!(r.contains(&(libc::RLIMIT_NPROC, 32)));
        assert!(r.contains(&(libc::RLIMIT_CPU, 5)));
        assert!(r.iter().all(|(res, _)| *res != libc::RLIMIT_FSIZE));
        assert_eq!(explicit.rlimits(true).len(), 1);
        assert_eq!(defaults.workdir_bytes(), Some(256 << 20));
        assert_eq!(explicit.workdir_bytes(), None);
        assert_eq!(
            defaults.stderr_budget(),
            StderrBudget {
                per_decision: Some(1 << 20),
                per_match: Some(16 << 20)
            }
        );
        assert_eq!(
            explicit.stderr_budget(),
            StderrBudget {
                per_decision: Some(64 << 10),
                per_match: None
            }
        );
    }
}
