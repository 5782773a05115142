//! How many failed sign-ins an address may make: at most [`MAX_FAILURES`] in any
//! [`WINDOW`]; past that, its sign-ins are refused until the oldest failure leaves the window.
//! Kept in memory (a restart forgets it), bounded in size.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed sign-ins an address may make in [`WINDOW`].
pub const MAX_FAILURES: usize = 10;

/// The window the failures are counted in.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Addresses remembered at most; past that, those whose failures have all left the window are
/// forgotten, then the rest if it must be.
const MAX_ADDRESSES: usize = 100_000;

/// What the failures are counted by: an IPv4 address (one mapped in IPv6 too), or an IPv6
/// address's /64 (a host has a whole /64 to itself).
fn key(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let mut segments = v6.segments();
            segments[4..].fill(0);
            IpAddr::V6(segments.into())
        }
        v4 => v4,
    }
}

/// The failed sign-ins of each address, in the last [`WINDOW`].
#[derive(Debug, Default)]
pub struct SignInLimit {
    failures: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl SignInLimit {
    /// `Ok` when `from` may try to sign in at `now`; else how long until it may.
    pub fn check(&self, from: IpAddr, now: Instant) -> Result<(), Duration> {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let Some(times) = failures.get_mut(&key(from)) else {
            return Ok(());
        };
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            times.pop_front();
        }
        match times.front() {
            Some(oldest) if times.len() >= MAX_FAILURES => {
                Err(WINDOW.saturating_sub(now.duration_since(*oldest)))
            }
            _ => Ok(()),
        }
    }

    /// Counts a failed sign-in of `from` at `now`.
    pub fn failed(&self, from: IpAddr, now: Instant) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.len() >= MAX_ADDRESSES {
            failures.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.duration_since(*t) < WINDOW)
            });
        }
        if failures.len() >= MAX_ADDRESSES {
            // The tenth whose last failure is oldest go: the others keep their count.
            let mut last: Vec<Instant> = failures
                .values()
                .filter_map(|t| t.back().copied())
                .collect();
            last.sort_unstable();
            let cut = last[last.len() / 10];
            failures.retain(|_, times| times.back().is_some_and(|t| *t > cut));
        }
        let times = failures.entry(key(from)).or_default();
        times.push_back(now);
        while times.len() > MAX_FAILURES {
            times.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_failures_until_the_window_passes() {
        let limit = SignInLimit::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t0 = Instant::now();
        for i in 0..MAX_FAILURES {
            assert_eq!(limit.check(a, t0), Ok(()), "failure {i}");
            limit.failed(a, t0 + Duration::from_secs(i as u64));
        }
        let now = t0 + Duration::from_secs(60);
        assert_eq!(limit.check(a, now), Err(WINDOW - Duration::from_secs(60)));
        // Another address is not held back.
        assert_eq!(limit.check(b, now), Ok(()));
        // The addresses of one IPv6 /64 count together; an IPv4 address mapped in IPv6 is it.
        let (c, d): (IpAddr, IpAddr) = (
            "2001:db8::1".parse().unwrap(),
            "2001:db8::ffff".parse().unwrap(),
        );
        for _ in 0..MAX_FAILURES {
            limit.failed(c, now);
        }
        assert!(limit.check(d, now).is_err());
        assert!(
            limit
                .check("::ffff:10.0.0.1".parse().unwrap(), now)
                .is_err()
        );
        // Once the first failure leaves the window, one more try.
        let later = t0 + WINDOW;
        assert_eq!(limit.check(a, later), Ok(()));
        limit.failed(a, later);
        assert!(limit.check(a, later).is_err());
    }
}
