//! The CPU time the whole machine has spent busy, from `/proc/stat`: the bots of a sandboxed
//! tournament run in namespaces of their own and are not all in the referee's own usage.

/// Why the machine's CPU time could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProcStatError {
    /// `/proc/stat` could not be read.
    #[error("cannot read /proc/stat")]
    Read(#[source] std::io::Error),
    /// It has no `cpu` line (the whole machine's).
    #[error("/proc/stat has no `cpu` line")]
    NoCpuLine,
    /// Its `cpu` line lacks a field, or has one that is not a count.
    #[error("/proc/stat: the `cpu` line's {0} field is missing or not a number")]
    Field(&'static str),
    /// The length of a clock tick is unknown (`sysconf(_SC_CLK_TCK)`).
    #[error("the length of a clock tick is unknown (sysconf(_SC_CLK_TCK))")]
    ClockTicks,
}

/// The fields of `/proc/stat`'s `cpu` line that count busy time, by position (after `cpu`):
/// user, nice, system, (idle, iowait,) irq, softirq, steal. `guest` and `guest_nice`, which
/// follow, are already counted in user and nice.
const BUSY_FIELDS: [(usize, &str); 6] = [
    (0, "user"),
    (1, "nice"),
    (2, "system"),
    (5, "irq"),
    (6, "softirq"),
    (7, "steal"),
];

/// The clock ticks every CPU of the machine has spent busy since boot, summed, from the text of
/// `/proc/stat`: its `cpu` line's user, nice, system, irq, softirq and steal.
///
/// # Errors
/// [`ProcStatError::NoCpuLine`] or [`ProcStatError::Field`] for a text without them.
pub fn busy_ticks(stat: &str) -> Result<u64, ProcStatError> {
    let line = stat
        .lines()
        .find_map(|l| l.strip_prefix("cpu "))
        .ok_or(ProcStatError::NoCpuLine)?;
    let fields: Vec<&str> = line.split_whitespace().collect();
    BUSY_FIELDS.iter().try_fold(0u64, |sum, &(i, name)| {
        let ticks = fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .ok_or(ProcStatError::Field(name))?;
        Ok(sum.saturating_add(ticks))
    })
}

/// The machine's CPU time, read from `/proc/stat`.
pub(super) struct CpuClock {
    ticks_per_second: f64,
}

impl CpuClock {
    pub(super) fn new() -> Result<Self, ProcStatError> {
        // SAFETY: sysconf with a constant name; no memory is involved.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if ticks <= 0 {
            return Err(ProcStatError::ClockTicks);
        }
        let clock = CpuClock {
            ticks_per_second: ticks as f64,
        };
        clock.now()?;
        Ok(clock)
    }

    /// Busy ticks so far.
    pub(super) fn now(&self) -> Result<u64, ProcStatError> {
        let stat = std::fs::read_to_string("/proc/stat").map_err(ProcStatError::Read)?;
        busy_ticks(&stat)
    }

    /// CPU seconds since `before` (a [`CpuClock::now`]).
    pub(super) fn since(&self, before: u64) -> Result<f64, ProcStatError> {
        Ok(self.now()?.saturating_sub(before) as f64 / self.ticks_per_second)
    }
}

#[cfg(test)]
mod tests {
    use super::{ProcStatError, busy_ticks};

    /// A `/proc/stat` of two CPUs, as Linux 6 writes it.
    const STAT: &str = "\
cpu  4307454 79217 2326019 1739218 55099 0 22907 51510 0 0
cpu0 2119919 39347 1152458 931436 14545 0 8248 25194 0 0
cpu1 2187535 39870 1173561 807782 40554 0 14659 26316 0 0
intr 1 2 3
ctxt 987654321
btime 1700000000
processes 123456
procs_running 2
procs_blocked 0
softirq 1 2 3
";

    #[test]
    fn busy_ticks_sum_the_machine_lines_busy_fields_and_not_idle_or_iowait() {
        let busy = 4307454 + 79217 + 2326019 + 22907 + 51510; // irq is 0
        assert_eq!(busy_ticks(STAT).unwrap(), busy);
        // Only the whole machine's line counts, wherever it is; a CPU's own line is not it.
        let moved = STAT.lines().rev().collect::<Vec<_>>().join("\n");
        assert_eq!(busy_ticks(&moved).unwrap(), busy);
        // A kernel before steal (2.6.11) is refused rather than read short.
        assert!(matches!(
            busy_ticks("cpu  1 2 3 4 5 6 7\n"),
            Err(ProcStatError::Field("steal"))
        ));
        assert!(matches!(
            busy_ticks("cpu  1 x 3 4 5 6 7 8\n"),
            Err(ProcStatError::Field("nice"))
        ));
        assert!(matches!(
            busy_ticks("cpu0 1 2 3 4 5 6 7 8\n"),
            Err(ProcStatError::NoCpuLine)
        ));
        assert!(matches!(busy_ticks(""), Err(ProcStatError::NoCpuLine)));
    }

    #[test]
    fn this_machines_proc_stat_is_read() {
        let stat = std::fs::read_to_string("/proc/stat").unwrap();
        assert!(busy_ticks(&stat).unwrap() > 0);
    }
}
