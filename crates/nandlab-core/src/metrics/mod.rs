//! Metrics: response-time statistics, per-request records and the run summary.

pub mod latency;
pub mod records;

pub use latency::LatencyStats;
pub use records::RequestRecords;
