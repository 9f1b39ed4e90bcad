//! Host-queue schedulers: when the device can accept another request, the scheduler picks
//! which waiting request goes next. Techniques that reorder requests (e.g. seed 004's
//! request feedback) add an implementation here and a name in [`by_name`].

use super::request::Request;
use crate::error::{NandError, Result};
use crate::flash::block::WriteAttrs;
use crate::ftl::{Ftl, NextWrite};

/// A request waiting in the host queue.
#[derive(Debug, Clone, Copy)]
pub struct Queued {
    /// Index of the request in arrival order.
    pub id: u64,
    /// The request.
    pub req: Request,
}

/// What a scheduler may see of the device when it picks (read-only; computed only when
/// asked, so schedulers that ignore it cost nothing).
pub struct DeviceView<'a> {
    ftl: &'a Ftl,
}

impl<'a> DeviceView<'a> {
    /// A view of `ftl`.
    pub fn new(ftl: &'a Ftl) -> Self {
        DeviceView { ftl }
    }

    /// Where the next host page written with `attrs` will be programmed (plane, page type,
    /// whether placement takes that page for it), e.g. to hold a critical write back while
    /// the next free page is an LSB page (seed 004's request feedback) and send another
    /// waiting write to take it.
    pub fn next_write(&self, attrs: WriteAttrs) -> NextWrite {
        self.ftl.next_host_write(attrs)
    }
}

/// Picks the next request to dispatch.
pub trait HostScheduler: Send {
    /// Index into `waiting` (never empty) of the request to dispatch now.
    fn pick(&mut self, waiting: &std::collections::VecDeque<Queued>, now_ns: u64, device: &DeviceView<'_>) -> usize;

    /// Whether it may pick another request than the oldest (then a replay that never lets
    /// requests wait, open loop with `queue_depth = 0`, would silently bypass it).
    fn reorders(&self) -> bool {
        true
    }
}

/// First come, first served.
#[derive(Debug, Default)]
pub struct Fifo;

impl HostScheduler for Fifo {
    fn pick(&mut self, _waiting: &std::collections::VecDeque<Queued>, _now_ns: u64, _device: &DeviceView<'_>) -> usize {
        0
    }

    fn reorders(&self) -> bool {
        false
    }
}

/// Reads before writes, each in arrival order (a common host-side priority policy).
#[derive(Debug, Default)]
pub struct ReadFirst;

impl HostScheduler for ReadFirst {
    fn pick(&mut self, waiting: &std::collections::VecDeque<Queued>, _now_ns: u64, _device: &DeviceView<'_>) -> usize {
        waiting.iter().position(|q| q.req.op == super::Op::Read).unwrap_or(0)
    }
}

/// The scheduler called `name` in the config.
pub fn by_name(name: &str) -> Result<Box<dyn HostScheduler>> {
    match name {
        "fifo" => Ok(Box::new(Fifo)),
        "read_first" => Ok(Box::new(ReadFirst)),
        other => Err(NandError::config(
            "host.scheduler",
            format!("unknown scheduler `{other}` (expected `fifo` or `read_first`)"),
        )),
    }
}
