//! A host I/O request as read from a trace or made by a generator.

use serde::{Deserialize, Serialize};

/// Kind of a host request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Read data.
    Read,
    /// Write data.
    Write,
    /// Discard (TRIM / UNMAP): the range holds no live data afterwards.
    Trim,
}

/// One host request. Offsets and sizes are in bytes, time in nanoseconds since the start of
/// the workload (readers rebase trace timestamps so the first request arrives at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// Arrival time in ns.
    pub arrival_ns: u64,
    /// Byte offset of the first byte.
    pub offset_bytes: u64,
    /// Length in bytes (> 0).
    pub size_bytes: u64,
    /// Read, write or trim.
    pub op: Op,
    /// Device / ASU / volume number the trace gives (0 when it has none); kept for filtering.
    pub stream: u32,
    /// The trace flags it critical (file-system metadata, seed 004): the DiskSim format's
    /// optional sixth column. Under `host.critical.source = "trace"` or `"both"` a flagged
    /// write sets the write attribute `critical` on its pages; reads ignore it.
    pub critical: bool,
}

impl Request {
    /// An unflagged request from its fields, in declaration order.
    pub fn new(arrival_ns: u64, offset_bytes: u64, size_bytes: u64, op: Op, stream: u32) -> Self {
        Request {
            arrival_ns,
            offset_bytes,
            size_bytes,
            op,
            stream,
            critical: false,
        }
    }
}
