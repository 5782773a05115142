//! A compact, mergeable histogram of decision times, so that percentiles over a whole tournament
//! can be computed from the per-match records (and across shards).
//!
//! Buckets are logarithmic, eight per doubling (about 9% wide): bucket 0 holds 0–1 µs, bucket
//! `k ≥ 1` holds `[2^((k-1)/8), 2^(k/8))` µs. Stored sparse, as `[bucket, count]` pairs.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Decision times, bucketed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Vec<(u16, u64)>", into = "Vec<(u16, u64)>")]
pub struct TimeHistogram(BTreeMap<u16, u64>);

impl From<Vec<(u16, u64)>> for TimeHistogram {
    fn from(pairs: Vec<(u16, u64)>) -> Self {
        let mut h = TimeHistogram::default();
        for (b, n) in pairs {
            // Saturating: the pairs may come from a file (a bucket given twice).
            let count = h.0.entry(b).or_default();
            *count = count.saturating_add(n);
        }
        h
    }
}

impl From<TimeHistogram> for Vec<(u16, u64)> {
    fn from(h: TimeHistogram) -> Self {
        h.0.into_iter().collect()
    }
}

fn bucket(micros: f64) -> u16 {
    if micros < 1.0 {
        0
    } else {
        (micros.log2() * 8.0).floor() as u16 + 1
    }
}

fn upper_bound(bucket: u16) -> f64 {
    2f64.powf(f64::from(bucket) / 8.0)
}

impl TimeHistogram {
    /// Records one decision that took `ms` milliseconds.
    pub fn record(&mut self, ms: f64) {
        *self.0.entry(bucket(ms * 1000.0)).or_default() += 1;
    }

    /// Adds every decision of `other`.
    pub fn merge(&mut self, other: &TimeHistogram) {
        for (&b, &n) in &other.0 {
            *self.0.entry(b).or_default() += n;
        }
    }

    /// Number of decisions recorded.
    pub fn count(&self) -> u64 {
        self.0.values().fold(0, |sum, &n| sum.saturating_add(n))
    }

    /// The `q`-quantile (0 to 1) in milliseconds, as the upper bound of its bucket (so within
    /// about 9% above the true value); `None` when empty.
    pub fn quantile_ms(&self, q: f64) -> Option<f64> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let target = ((q * total as f64).ceil() as u64).clamp(1, total);
        let mut seen = 0;
        for (&b, &n) in &self.0 {
            seen += n;
            if seen >= target {
                return Some(upper_bound(b) / 1000.0);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_within_a_bucket_of_the_truth_and_merge_adds_up() {
        let mut a = TimeHistogram::default();
        for i in 1..=100 {
            a.record(f64::from(i) / 10.0); // 0.1 ms .. 10 ms
        }
        let p99 = a.quantile_ms(0.99).unwrap();
        assert!((9.9..=9.9 * 1.1).contains(&p99), "{p99}");
        let p50 = a.quantile_ms(0.5).unwrap();
        assert!((5.0..=5.0 * 1.1).contains(&p50), "{p50}");
        let mut b = TimeHistogram::default();
        b.record(100.0);
        b.merge(&a);
        assert_eq!(b.count(), 101);
        assert!(b.quantile_ms(1.0).unwrap() >= 100.0);
        assert_eq!(TimeHistogram::default().quantile_ms(0.5), None);
    }
}
