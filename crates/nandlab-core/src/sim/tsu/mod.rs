//! The transaction scheduling unit between the FTL and the flash back end: the flash work
//! the FTL decides on its own (page moves and erases for GC, wear leveling, read refresh and
//! hot pages) becomes transactions queued per die, which a policy orders against host
//! transactions (`[scheduler] policy = "fifo" | "priority"`, one file each in
//! `flash/scheduler/`).
//!
//! Host transactions are reserved on their resources when they become ready, in event
//! order (`flash/backend.rs`), except that under host reads first a host program whose
//! die is busy waits in the die's queue, so reads arriving meanwhile go first ([`host`]);
//! a background transaction is either reserved at once too (FIFO, or urgent GC) or waits
//! in its die's queue for a moment when no host work holds the die or waits for it
//! ([`queue`]). The FTL's state changes when it decides the work (mapping, free
//! pool), not when the flash work ends; the queue counts the erases still to run so that
//! GC's urgency sees the erased free blocks. Read refresh's moves may turn urgent after a
//! bound of host reads on their die ([`refresh`]).

mod host;
mod queue;
mod refresh;
mod steps;

pub(super) use queue::{HostProgram, Queue, Txn};
pub(super) use refresh::RefreshClock;
