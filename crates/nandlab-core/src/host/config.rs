//! The `[host]` section: how requests are replayed and queued.

use super::interface::InterfaceConfig;
use super::suspend::SuspendConfig;
use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// Replay mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplayMode {
    /// Open loop: requests arrive at their trace timestamps (scaled by `time_scale`).
    Open,
    /// Closed loop: `queue_depth` requests are outstanding; the next is issued when one
    /// completes, ignoring timestamps.
    Closed,
}

/// What to do with a request past the end of the logical space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutOfRange {
    /// Stop with an error naming the request.
    Error,
    /// Wrap the address modulo the logical capacity (what MQSim does).
    Wrap,
}

/// The `[host]` section of a config.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HostConfig {
    /// Open- or closed-loop replay.
    pub replay: ReplayMode,
    /// Requests the device accepts at once (NCQ depth); the rest wait in the host queue,
    /// where the scheduler picks the next. 0 = unlimited (open loop only).
    pub queue_depth: u32,
    /// Host queue scheduler: `fifo` (others are added by technique issues).
    pub scheduler: String,
    /// Multiplies trace inter-arrival times (0.5 = replay twice as fast).
    pub time_scale: f64,
    /// Requests past the logical capacity.
    pub out_of_range: OutOfRange,
    /// Which writes are critical (`[host.critical]`).
    pub critical: CriticalConfig,
    /// Interface link timing (`[host.interface]`).
    pub interface: InterfaceConfig,
    /// Program/erase suspension for reads (`[host.suspend]`).
    pub suspend: SuspendConfig,
}

/// `[host.critical]`: the classifier that marks writes critical (a write attribute that
/// placement sees and the page keeps).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct CriticalConfig {
    /// Inclusive logical-page ranges `[first, last]` whose writes are critical.
    pub lpn_ranges: Vec<[u64; 2]>,
}

impl CriticalConfig {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<()> {
        for (i, &[first, last]) in self.lpn_ranges.iter().enumerate() {
            if first > last {
                return Err(NandError::config(
                    format!("host.critical.lpn_ranges[{i}]"),
                    format!("first page {first} is past last page {last}"),
                ));
            }
        }
        Ok(())
    }

    /// Whether a write of logical page `lpn` is critical.
    #[inline]
    pub fn contains(&self, lpn: u64) -> bool {
        self.lpn_ranges
            .iter()
            .any(|&[first, last]| (first..=last).contains(&lpn))
    }
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            replay: ReplayMode::Open,
            queue_depth: 0,
            scheduler: "fifo".into(),
            time_scale: 1.0,
            out_of_range: OutOfRange::Error,
            critical: CriticalConfig::default(),
            interface: InterfaceConfig::default(),
            suspend: SuspendConfig::default(),
        }
    }
}
