//! Host-queue schedulers: when the device can accept another request, the scheduler picks
//! which waiting request goes next, seeing the waiting queue and a read-only view of where
//! the next write will land. One file per scheduler; `host.scheduler` names it.

mod feedback;
mod fifo;
mod read_first;

pub use feedback::Feedback;
pub use fifo::Fifo;
pub use read_first::ReadFirst;

use super::request::Request;
use crate::error::{NandError, Result};
use crate::flash::block::WriteAttrs;
use crate::ftl::CriticalConfig;
use crate::ftl::{Ftl, NextWrite};
use crate::metrics::summary::SchedulerSummary;
use std::collections::VecDeque;

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
    critical: &'a CriticalConfig,
}

impl<'a> DeviceView<'a> {
    /// A view of `ftl`, whose writes `critical` classifies.
    pub fn new(ftl: &'a Ftl, critical: &'a CriticalConfig) -> Self {
        DeviceView { ftl, critical }
    }

    /// Where the first page of write `req`, dispatched next, will be programmed (plane,
    /// page type, whether placement takes that page for it).
    pub fn next_write(&self, req: &Request) -> NextWrite {
        self.ftl.next_host_write(self.first_lpn(req), self.write_attrs(req))
    }

    /// The attributes the first page of write `req` is programmed with.
    pub fn write_attrs(&self, req: &Request) -> WriteAttrs {
        WriteAttrs::new(req.stream, self.critical.classifies(self.first_lpn(req), req.critical))
    }

    /// The first logical page of `req`, wrapped into the logical space as the simulator
    /// writes it.
    fn first_lpn(&self, req: &Request) -> u64 {
        let page_bytes = u64::from(self.ftl.geometry().cfg.page_size_bytes);
        (req.offset_bytes / page_bytes) % self.ftl.logical_pages()
    }
}

/// Picks the next request to dispatch.
pub trait HostScheduler: Send {
    /// Index into `waiting` (never empty) of the request to dispatch now.
    fn pick(&mut self, waiting: &VecDeque<Queued>, now_ns: u64, device: &DeviceView<'_>) -> usize;

    /// Whether it may pick another request than the oldest (then a replay that never lets
    /// requests wait, open loop with `queue_depth = 0`, would silently bypass it).
    fn reorders(&self) -> bool {
        true
    }

    /// Its counters for the run summary (`None`: it keeps none).
    fn summary(&self) -> Option<SchedulerSummary> {
        None
    }
}

/// The scheduler called `name` in the config.
pub fn by_name(name: &str) -> Result<Box<dyn HostScheduler>> {
    match name {
        "fifo" => Ok(Box::new(Fifo)),
        "read_first" => Ok(Box::new(ReadFirst)),
        "feedback" => Ok(Box::<Feedback>::default()),
        other => Err(NandError::config(
            "host.scheduler",
            format!("unknown scheduler `{other}` (expected `fifo`, `read_first` or `feedback`)"),
        )),
    }
}
