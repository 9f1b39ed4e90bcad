//! Host requests: how many of each kind, their response times and throughput.

use serde::Serialize;

/// Requests served, by kind.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RequestCounts {
    pub count: u64,
    pub reads: u64,
    pub writes: u64,
    pub trims: u64,
}

/// Response times and throughput of one kind of request over the run's span. The mean,
/// percentiles and maximum are `null` when no request of the kind completed: a statistic
/// over nothing is undefined, and 0 would read as "instant".
#[derive(Debug, Clone, Copy, Serialize)]
pub struct LatencySummary {
    pub count: u64,
    pub bytes: u64,
    pub mean_ns: Option<f64>,
    pub p50_ns: Option<u64>,
    pub p99_ns: Option<u64>,
    pub p999_ns: Option<u64>,
    pub max_ns: Option<u64>,
    pub iops: f64,
    pub bandwidth_mb_s: f64,
}

/// One flow's requests (`workload.flows`).
#[derive(Debug, Clone, Serialize)]
pub struct FlowSummary {
    /// Its index in `workload.flows`.
    pub id: usize,
    pub requests: RequestCounts,
    pub read: LatencySummary,
    pub write: LatencySummary,
    pub all: LatencySummary,
}
