//! The `[host]` section: how requests are replayed and queued.

use super::interface::InterfaceConfig;
use super::suspend::SuspendConfig;
use crate::ftl::CriticalConfig;
use serde::{Deserialize, Serialize};

/// Replay mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplayMode {
    /// Open loop: requests arrive at their trace timestamps (scaled by `time_scale`).
    Open,
    /// Closed loop: `outstanding` requests (or `queue_depth` when it is 0) are outstanding;
    /// the next is issued when one completes, ignoring timestamps (`closed_loop.rs`).
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
    /// Closed-loop replay: requests kept outstanding (issued, not completed); those the
    /// device does not hold wait in the host queue. 0 = `queue_depth`. Not written out
    /// when 0, so configs without it echo as before.
    #[serde(skip_serializing_if = "is_zero")]
    pub outstanding: u32,
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

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            replay: ReplayMode::Open,
            queue_depth: 0,
            outstanding: 0,
            scheduler: "fifo".into(),
            time_scale: 1.0,
            out_of_range: OutOfRange::Error,
            critical: CriticalConfig::default(),
            interface: InterfaceConfig::default(),
            suspend: SuspendConfig::default(),
        }
    }
}
