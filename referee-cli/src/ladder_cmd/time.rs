//! A time on the command line: seconds since the epoch, or a UTC date and time
//! (`2026-11-29`, `2026-11-29T14:00`, `2026-11-29T14:00:05Z`), as milliseconds since the epoch.

use crate::Failure;

/// `text` as milliseconds since the epoch.
///
/// # Errors
/// A usage failure naming the forms accepted.
pub fn parse(text: &str) -> Result<i64, Failure> {
    let bad = || {
        Failure::usage(format!(
            "{text:?} is not a time: give seconds since the epoch or a UTC time such as 2026-11-29T14:00:05Z"
        ))
    };
    if let Ok(seconds) = text.parse::<i64>() {
        return seconds.checked_mul(1000).ok_or_else(bad);
    }
    let text = text.trim_end_matches('Z');
    let (date, clock) = text.split_once(['T', ' ']).unwrap_or((text, "00:00:00"));
    let numbers = |part: &str, sep: char| -> Option<Vec<i64>> {
        part.split(sep).map(|n| n.parse().ok()).collect()
    };
    let d = numbers(date, '-')
        .filter(|d| d.len() == 3)
        .ok_or_else(bad)?;
    let c = numbers(clock, ':')
        .filter(|c| (2..=3).contains(&c.len()))
        .ok_or_else(bad)?;
    let (y, m, day) = (d[0], d[1], d[2]);
    let (h, min, s) = (c[0], c[1], c.get(2).copied().unwrap_or(0));
    if !(1..=12).contains(&m) || !(1..=31).contains(&day) || h > 23 || min > 59 || s > 60 {
        return Err(bad());
    }
    Ok(((days_from_civil(y, m, day) * 24 + h) * 60 + min) * 60_000 + s * 1000)
}

/// Days from 1970-01-01 to the proleptic Gregorian date `y-m-d` (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn times_are_read_as_utc_milliseconds() {
        assert_eq!(parse("0").unwrap(), 0);
        assert_eq!(parse("1970-01-02").unwrap(), 86_400_000);
        assert_eq!(parse("2000-03-01T00:00:00Z").unwrap(), 951_868_800_000);
        assert_eq!(parse("2026-11-29T14:00").unwrap(), 1_795_960_800_000);
        assert!(parse("2026-13-01").is_err());
        assert!(parse("yesterday").is_err());
    }
}
