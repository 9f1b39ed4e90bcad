//! FIFO: every background transaction is reserved when the FTL decides it, one after the
//! other, so it runs before any host transaction that becomes ready later (nandlab's
//! behaviour before the scheduler: GC and refresh hold the die for their whole job).

use super::SchedulerPolicy;
use serde::{Deserialize, Serialize};

/// Background work in the order it was decided, ahead of later host work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fifo {}

impl SchedulerPolicy for Fifo {
    fn defers_background(&self) -> bool {
        false
    }

    fn gc_urgent(&self, _free_blocks: usize) -> bool {
        true
    }
}
