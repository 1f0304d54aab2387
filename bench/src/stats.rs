//! Medians and percentiles of timed samples.

use std::time::Duration;

/// The summary of one series of timings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// How many samples.
    pub count: usize,
    /// The median (the mean of the two middle samples when the count is even).
    pub median: Duration,
    /// The 95th percentile, by nearest rank.
    pub p95: Duration,
    /// The 99th percentile, by nearest rank.
    pub p99: Duration,
    /// The fastest sample.
    pub min: Duration,
}

impl Summary {
    /// Summarises `samples`; `None` when there are none.
    pub fn of(samples: &[Duration]) -> Option<Self> {
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        let count = sorted.len();
        let min = *sorted.first()?;
        let median = if count % 2 == 1 {
            sorted[count / 2]
        } else {
            (sorted[count / 2 - 1] + sorted[count / 2]) / 2
        };
        // Nearest rank: the smallest sample with at least that share of the samples at or below it.
        let rank = |percent: usize| sorted[(count * percent).div_ceil(100).max(1) - 1];
        Some(Self {
            count,
            median,
            p95: rank(95),
            p99: rank(99),
            min,
        })
    }
}

/// `theirs / ours`, the factor by which ours is faster (below 1: slower).
pub fn ratio(theirs: Duration, ours: Duration) -> Option<f64> {
    (!ours.is_zero()).then(|| theirs.as_secs_f64() / ours.as_secs_f64())
}

/// A duration in milliseconds, with three significant digits or more.
pub fn millis(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else if ms >= 10.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.2} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(values: &[u64]) -> Vec<Duration> {
        values.iter().map(|&v| Duration::from_millis(v)).collect()
    }

    #[test]
    fn odd_and_even_medians() {
        let odd = Summary::of(&ms(&[5, 1, 3])).unwrap();
        assert_eq!(odd.median, Duration::from_millis(3));
        assert_eq!(odd.min, Duration::from_millis(1));
        let even = Summary::of(&ms(&[4, 1, 2, 3])).unwrap();
        assert_eq!(even.median, Duration::from_micros(2500));
        assert_eq!(even.count, 4);
    }

    #[test]
    fn percentiles_are_the_nearest_rank() {
        let hundred: Vec<u64> = (1..=100).collect();
        assert_eq!(
            Summary::of(&ms(&hundred)).unwrap().p95,
            Duration::from_millis(95)
        );
        assert_eq!(
            Summary::of(&ms(&hundred)).unwrap().p99,
            Duration::from_millis(99)
        );
        let twenty: Vec<u64> = (1..=20).collect();
        assert_eq!(
            Summary::of(&ms(&twenty)).unwrap().p95,
            Duration::from_millis(19)
        );
        assert_eq!(
            Summary::of(&ms(&[7])).unwrap().p95,
            Duration::from_millis(7)
        );
    }

    #[test]
    fn no_samples_no_summary() {
        assert_eq!(Summary::of(&[]), None);
    }

    #[test]
    fn ratios_and_formatting() {
        let r = ratio(Duration::from_millis(30), Duration::from_millis(10)).unwrap();
        assert!((r - 3.0).abs() < 1e-9);
        assert_eq!(ratio(Duration::from_millis(1), Duration::ZERO), None);
        assert_eq!(millis(Duration::from_micros(412)), "0.41 ms");
        assert_eq!(millis(Duration::from_micros(12_345)), "12.3 ms");
        assert_eq!(millis(Duration::from_millis(250)), "250 ms");
    }
}
