//! Response-time statistics with exact mean and max and HDR-histogram percentiles
//! (3 significant digits), in constant memory whatever the trace length.

use super::summary::LatencySummary;
use hdrhistogram::Histogram;

/// Longest latency the percentiles resolve (1 hour); longer ones count as 1 hour there
/// (the exact maximum is kept separately).
const MAX_TRACKED_NS: u64 = 3_600_000_000_000;

/// Latency statistics of one class of requests.
#[derive(Debug, Clone)]
pub struct LatencyStats {
    hist: Histogram<u64>,
    count: u64,
    sum_ns: u128,
    max_ns: u64,
    bytes: u64,
}

impl Default for LatencyStats {
    fn default() -> Self {
        LatencyStats {
            hist: Histogram::new_with_bounds(1, MAX_TRACKED_NS, 3).expect("valid bounds"),
            count: 0,
            sum_ns: 0,
            max_ns: 0,
            bytes: 0,
        }
    }
}

impl LatencyStats {
    /// Records one request of `bytes` bytes that took `latency_ns`.
    #[inline]
    pub fn record(&mut self, latency_ns: u64, bytes: u64) {
        self.hist.saturating_record(latency_ns);
        self.count += 1;
        self.sum_ns += u128::from(latency_ns);
        self.max_ns = self.max_ns.max(latency_ns);
        self.bytes += bytes;
    }

    /// Adds every request of `other`.
    pub fn merge(&mut self, other: &LatencyStats) {
        self.hist.add(&other.hist).expect("histograms of equal precision merge");
        self.count += other.count;
        self.sum_ns += other.sum_ns;
        self.max_ns = self.max_ns.max(other.max_ns);
        self.bytes += other.bytes;
    }

    /// Requests recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Mean latency in ns (0 when empty).
    pub fn mean_ns(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum_ns as f64 / self.count as f64
        }
    }

    /// Latency at quantile `q` (0..1), in ns. The histogram answers with the top of the
    /// bucket holding the quantile, which can lie above every recorded value; no quantile
    /// exceeds the exact maximum.
    pub fn quantile_ns(&self, q: f64) -> u64 {
        if self.count == 0 {
            0
        } else {
            self.hist.value_at_quantile(q).min(self.max_ns)
        }
    }

    /// Latency at quantile `q` of the requests recorded since `earlier` (a copy of these
    /// statistics taken before; `None` when none since). Exact up to the histogram's
    /// 3 significant digits, like [`Self::quantile_ns`].
    pub fn quantile_since_ns(&self, earlier: &LatencyStats, q: f64) -> Option<u64> {
        if self.count <= earlier.count {
            return None;
        }
        let mut since = self.hist.clone();
        since
            .subtract(&earlier.hist)
            .expect("an earlier copy holds no more than now");
        Some(since.value_at_quantile(q).min(self.max_ns))
    }

    /// Summary over a run that lasted `span_ns`.
    pub fn summary(&self, span_ns: u64) -> LatencySummary {
        let secs = span_ns.max(1) as f64 / 1e9;
        let some = |v| (self.count > 0).then_some(v);
        LatencySummary {
            count: self.count,
            bytes: self.bytes,
            mean_ns: (self.count > 0).then(|| self.mean_ns()),
            p50_ns: some(self.quantile_ns(0.5)),
            p99_ns: some(self.quantile_ns(0.99)),
            p999_ns: some(self.quantile_ns(0.999)),
            max_ns: some(self.max_ns),
            iops: self.count as f64 / secs,
            bandwidth_mb_s: self.bytes as f64 / 1e6 / secs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_max_and_percentiles() {
        let mut s = LatencyStats::default();
        for v in 1..=1000u64 {
            s.record(v * 1000, 4096);
        }
        assert_eq!(s.count(), 1000);
        assert!((s.mean_ns() - 500_500.0).abs() < 1e-9);
        // 3 significant digits: p50 = 500 µs, p99 = 990 µs within 0.1 %.
        assert!((s.quantile_ns(0.5) as f64 - 500_000.0).abs() <= 500.0);
        assert!((s.quantile_ns(0.99) as f64 - 990_000.0).abs() <= 990.0);
        let j = s.summary(1_000_000_000);
        assert_eq!(j.max_ns, Some(1_000_000));
        assert_eq!(j.iops, 1000.0);
    }

    #[test]
    fn quantile_of_the_requests_since_a_copy() {
        // 100 requests of 1 ms, then 100 of 2 ms .. 101 ms: the p50 of the second set
        // alone is its 50th value, 51 ms (whole run: 1 ms).
        let mut s = LatencyStats::default();
        for _ in 0..100 {
            s.record(1_000_000, 4096);
        }
        let mark = s.clone();
        assert_eq!(s.quantile_since_ns(&mark, 0.5), None);
        for v in 2..=101u64 {
            s.record(v * 1_000_000, 4096);
        }
        let p50 = s.quantile_since_ns(&mark, 0.5).unwrap() as f64;
        assert!((p50 - 51e6).abs() <= 51e3, "{p50}");
        // The whole run's p50 is 1 ms, within the histogram's 3 significant digits (the
        // top of 1 ms's bucket is 1,000,447 ns).
        assert!((s.quantile_ns(0.5) as f64 - 1e6).abs() <= 1e3);
    }

    #[test]
    fn no_quantile_above_the_maximum() {
        // 1,000,001 ns sits in a bucket 512 ns wide (3 significant digits at 2^19..2^20
        // ns): its top is 1,000,447 ns, which is not a latency any request had.
        let mut s = LatencyStats::default();
        s.record(1_000_001, 4096);
        assert_eq!(s.quantile_ns(0.5), 1_000_001);
        assert_eq!(s.quantile_ns(0.999), 1_000_001);
    }

    #[test]
    fn statistics_over_no_request_are_null() {
        let j = LatencyStats::default().summary(1_000);
        assert_eq!(
            (j.mean_ns, j.p50_ns, j.p99_ns, j.p999_ns, j.max_ns),
            (None, None, None, None, None)
        );
        assert_eq!((j.count, j.iops), (0, 0.0));
    }
}
