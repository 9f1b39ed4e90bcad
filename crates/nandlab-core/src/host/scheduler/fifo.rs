//! First come, first served.

use super::{DeviceView, HostScheduler, Queued};
use std::collections::VecDeque;

/// First come, first served.
#[derive(Debug, Default)]
pub struct Fifo;

impl HostScheduler for Fifo {
    fn pick(&mut self, _waiting: &VecDeque<Queued>, _now_ns: u64, _device: &DeviceView<'_>) -> usize {
        0
    }

    fn reorders(&self) -> bool {
        false
    }
}
