//! Per-request records, kept as columns so they cross into Python as arrays.

/// One column per field, one row per completed request (in completion order).
#[derive(Debug, Clone, Default)]
pub struct RequestRecords {
    /// Arrival time (ns).
    pub arrival_ns: Vec<u64>,
    /// Response time (ns).
    pub latency_ns: Vec<u64>,
    /// Byte offset.
    pub offset_bytes: Vec<u64>,
    /// Size in bytes.
    pub size_bytes: Vec<u64>,
    /// 0 read, 1 write, 2 trim.
    pub op: Vec<u8>,
}

impl RequestRecords {
    /// Appends a row.
    #[inline]
    pub fn push(&mut self, arrival_ns: u64, latency_ns: u64, offset_bytes: u64, size_bytes: u64, op: u8) {
        self.arrival_ns.push(arrival_ns);
        self.latency_ns.push(latency_ns);
        self.offset_bytes.push(offset_bytes);
        self.size_bytes.push(size_bytes);
        self.op.push(op);
    }

    /// `(arrival, latency)` of every request, in arrival order (ties by completion).
    pub fn latencies_by_arrival(&self) -> Vec<(u64, u64)> {
        let mut rows: Vec<(u64, u64)> = self
            .arrival_ns
            .iter()
            .copied()
            .zip(self.latency_ns.iter().copied())
            .collect();
        rows.sort();
        rows
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        self.op.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.op.is_empty()
    }
}
