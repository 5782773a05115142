//! Times as people write and read them: a UTC date and time (`2026-11-29`, `2026-11-29T14:00`,
//! `2026-11-29T14:00:05Z`) or seconds since the epoch, read as milliseconds since the epoch
//! ([`parse`]); and milliseconds shown as `2026-11-29 14:00 UTC` ([`show`]). The command line
//! and the admin's page read the same forms.

/// Why a text is not a time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a time: give seconds since the epoch or a UTC time such as 2026-11-29T14:00:05Z"
)]
pub struct NotATime(pub String);

/// `text` as milliseconds since the epoch.
///
/// # Errors
/// [`NotATime`], which names the forms accepted.
pub fn parse(text: &str) -> Result<i64, NotATime> {
    let bad = || NotATime(text.to_owned());
    let trimmed = text.trim();
    if let Ok(seconds) = trimmed.parse::<i64>() {
        return seconds.checked_mul(1000).ok_or_else(bad);
    }
    let trimmed = trimmed.trim_end_matches('Z');
    let (date, clock) = trimmed
        .split_once(['T', ' '])
        .unwrap_or((trimmed, "00:00:00"));
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
    if !(1..=9999).contains(&y)
        || !(1..=12).contains(&m)
        || !(1..=31).contains(&day)
        || !(0..=23).contains(&h)
        || !(0..=59).contains(&min)
        || !(0..=60).contains(&s)
    {
        return Err(bad());
    }
    Ok(((days_from_civil(y, m, day) * 24 + h) * 60 + min) * 60_000 + s * 1000)
}

/// `ms` since the epoch as `YYYY-MM-DD HH:MM UTC`.
pub fn show(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000);
    let (days, minute_of_day) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        minute_of_day / 60,
        minute_of_day % 60
    )
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

/// The date `days` after 1970-01-01 (the inverse of [`days_from_civil`]).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

#[cfg(test)]
mod tests {
    use super::{parse, show};

    #[test]
    fn times_are_read_as_utc_milliseconds() {
        assert_eq!(parse("0").unwrap(), 0);
        assert_eq!(parse("1970-01-02").unwrap(), 86_400_000);
        assert_eq!(parse("2000-03-01T00:00:00Z").unwrap(), 951_868_800_000);
        assert_eq!(parse("2026-11-29T14:00").unwrap(), 1_795_960_800_000);
        assert_eq!(parse(" 2026-11-29 14:00 ").unwrap(), 1_795_960_800_000);
        assert!(parse("2026-13-01").is_err());
        assert!(parse("2026-11-29T24:00").is_err());
        assert!(parse("yesterday").is_err());
        assert!(parse("99999999999999999").is_err());
    }

    #[test]
    fn times_are_shown_as_they_are_read() {
        assert_eq!(show(0), "1970-01-01 00:00 UTC");
        assert_eq!(show(1_795_960_800_000), "2026-11-29 14:00 UTC");
        assert_eq!(show(951_868_800_000 - 60_000), "2000-02-29 23:59 UTC");
        for ms in [0, 86_400_000 * 365 * 30 + 123 * 60_000, 1_795_960_800_000] {
            let text = show(ms).trim_end_matches(" UTC").replace(' ', "T");
            assert_eq!(parse(&text).unwrap(), ms);
        }
    }
}
