//! Metrics: response-time statistics, per-request records and the run summary.

pub mod latency;
pub mod records;
pub mod reliability;

pub use latency::LatencyStats;
pub use records::RequestRecords;
pub use reliability::ReliabilityStats;
