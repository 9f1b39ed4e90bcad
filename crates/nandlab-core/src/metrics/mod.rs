//! Metrics: response-time statistics, per-request records and the run summary.

pub mod latency;
pub mod record_stream;
pub mod records;
pub mod reliability;
pub mod summary;
pub mod timeline;

pub use latency::LatencyStats;
pub use record_stream::{Batches, Consumer, RecordSink};
pub use records::{Recorder, RequestRecords, Row};
pub use reliability::ReliabilityStats;
pub use summary::Summary;
pub use timeline::{Timeline, TimelineColumns, TimelineSink};
