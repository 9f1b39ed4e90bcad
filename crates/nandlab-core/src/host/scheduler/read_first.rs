//! Reads before writes, each in arrival order (a common host-side priority policy).

use super::{DeviceView, HostScheduler, Queued};
use crate::host::Op;
use std::collections::VecDeque;

/// Reads before writes, each in arrival order.
#[derive(Debug, Default)]
pub struct ReadFirst;

impl HostScheduler for ReadFirst {
    fn pick(&mut self, waiting: &VecDeque<Queued>, _now_ns: u64, _device: &DeviceView<'_>) -> usize {
        waiting.iter().position(|q| q.req.op == Op::Read).unwrap_or(0)
    }
}
