//! The text of the fixed copies of `/proc/stat` and `/proc/meminfo`: every figure that moves
//! with the machine's load set to a fixed value.

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

/// `/proc/stat` with every figure 0 but the boot time (`btime`).
pub(super) fn fixed_stat(text: &str) -> String {
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
pub(super) fn fixed_meminfo(text: &str) -> String {
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
}
