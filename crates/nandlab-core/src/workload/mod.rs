//! Workloads: streaming trace readers and synthetic generators. Every source yields
//! [`Request`]s in arrival order with times rebased to start at 0, and reports bad input as
//! a [`NandError`](crate::NandError) naming the file and line.

use crate::error::{NandError, Result};
pub use crate::host::request::{Op, Request};
use serde::{Deserialize, Serialize};

/// A stream of requests.
pub type RequestStream = Box<dyn Iterator<Item = Result<Request>> + Send>;

/// What the simulator tells a workload about the device.
#[derive(Debug, Clone, Copy)]
pub struct WorkloadContext {
    /// Logical (user-visible) capacity in bytes.
    pub logical_bytes: u64,
    /// Run seed.
    pub seed: u64,
}

/// The `[workload]` section of a config.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct WorkloadConfig {}

/// Opens the request stream a config describes.
pub fn open(_cfg: &WorkloadConfig, _ctx: &WorkloadContext) -> Result<RequestStream> {
    Err(NandError::Invalid("workload readers are not built yet".into()))
}
