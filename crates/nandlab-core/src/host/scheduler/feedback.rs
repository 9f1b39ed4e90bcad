//! Seed 004's request feedback (Algorithm 1, Fig. 7): when the oldest waiting request is a
//! critical write and placement would not take the next free page for it (an LSB page under
//! `[ftl.placement] policy = "msb_critical"`), the critical write is held and the oldest
//! waiting non-critical write goes first, into that page; the critical write is offered
//! again at the next pick. With no non-critical write waiting the critical write goes, and
//! placement skips to the next MSB page. Otherwise first come, first served. A request is
//! classified by its first page (the sim writes a request's pages one after another).

use super::{DeviceView, HostScheduler, Queued};
use crate::host::Op;
use crate::metrics::summary::SchedulerSummary;
use std::collections::VecDeque;

/// Holds critical writes off pages placement refuses them, serving non-critical writes there.
#[derive(Debug, Default)]
pub struct Feedback {
    /// Request feedback operations: non-critical writes sent ahead of a held critical write.
    feedbacks: u64,
    /// Critical writes sent with no non-critical write waiting (placement skips pages).
    unfed: u64,
}

impl HostScheduler for Feedback {
    fn pick(&mut self, waiting: &VecDeque<Queued>, _now_ns: u64, device: &DeviceView<'_>) -> usize {
        let head = &waiting[0].req;
        if head.op != Op::Write {
            return 0;
        }
        if !device.write_attrs(head).critical() || device.next_write(head).accepted {
            return 0;
        }
        let plain = waiting
            .iter()
            .position(|q| q.req.op == Op::Write && !device.write_attrs(&q.req).critical());
        match plain {
            Some(i) => {
                self.feedbacks += 1;
                i
            }
            None => {
                self.unfed += 1;
                0
            }
        }
    }

    fn summary(&self) -> Option<SchedulerSummary> {
        Some(SchedulerSummary {
            feedbacks: self.feedbacks,
            critical_writes_unfed: self.unfed,
        })
    }
}
