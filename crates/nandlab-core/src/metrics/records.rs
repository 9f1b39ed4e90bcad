//! Per-request records, kept as columns so they cross into Python as arrays, or streamed
//! out in column batches (a CSV file, or a consumer such as the binding's Parquet writer).
//! Either way rows come out in arrival order: requests
//! complete out of order, so a row waits until every request that arrived before it is done.

use super::record_stream::{RecordSink, RecordStream};
use crate::error::Result;
use std::collections::VecDeque;

/// One request's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// Arrival time (ns).
    pub arrival_ns: u64,
    /// Response time (ns).
    pub latency_ns: u64,
    /// Byte offset.
    pub offset_bytes: u64,
    /// Size in bytes.
    pub size_bytes: u64,
    /// 0 read, 1 write, 2 trim.
    pub op: u8,
}

/// One column per field, one row per request (in arrival order).
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
    /// Empty columns with room for `rows` rows.
    pub fn with_capacity(rows: usize) -> Self {
        RequestRecords {
            arrival_ns: Vec::with_capacity(rows),
            latency_ns: Vec::with_capacity(rows),
            offset_bytes: Vec::with_capacity(rows),
            size_bytes: Vec::with_capacity(rows),
            op: Vec::with_capacity(rows),
        }
    }

    /// Appends a row.
    #[inline]
    pub fn push(&mut self, r: Row) {
        self.arrival_ns.push(r.arrival_ns);
        self.latency_ns.push(r.latency_ns);
        self.offset_bytes.push(r.offset_bytes);
        self.size_bytes.push(r.size_bytes);
        self.op.push(r.op);
    }

    /// `(arrival, latency)` of every request, in arrival order (ties: first done first).
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

enum Sink {
    Columns(RequestRecords),
    Stream(RecordStream),
}

/// Puts rows in arrival order and hands them to their sink.
pub struct Recorder {
    /// Arrival index of `waiting[0]`.
    next: u64,
    /// Rows of requests from `next` on; `None`: not done yet.
    waiting: VecDeque<Option<Row>>,
    sink: Sink,
}

impl Recorder {
    /// Rows kept in memory as columns.
    pub fn in_memory() -> Self {
        Self::with(Sink::Columns(RequestRecords::default()))
    }

    /// Rows streamed to `sink` in batches.
    pub fn streaming(sink: RecordSink) -> Result<Self> {
        Ok(Self::with(Sink::Stream(RecordStream::open(sink)?)))
    }

    fn with(sink: Sink) -> Self {
        Recorder {
            next: 0,
            waiting: VecDeque::new(),
            sink,
        }
    }

    /// The record of the request that arrived `index`-th (from 0), once it is done.
    #[inline]
    pub fn push(&mut self, index: u64, row: Row) {
        let i = (index - self.next) as usize;
        if i >= self.waiting.len() {
            self.waiting.resize(i + 1, None);
        }
        self.waiting[i] = Some(row);
        while let Some(Some(r)) = self.waiting.front() {
            let r = *r;
            self.waiting.pop_front();
            self.next += 1;
            match &mut self.sink {
                Sink::Columns(c) => c.push(r),
                Sink::Stream(s) => s.push(r),
            }
        }
    }

    /// Ends recording: the columns (in memory), or `None` once the stream is complete.
    pub fn finish(self) -> Result<Option<RequestRecords>> {
        match self.sink {
            Sink::Columns(c) => Ok(Some(c)),
            Sink::Stream(s) => s.finish().map(|()| None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(arrival_ns: u64) -> Row {
        Row {
            arrival_ns,
            latency_ns: 1,
            offset_bytes: 0,
            size_bytes: 512,
            op: 0,
        }
    }

    #[test]
    fn rows_come_out_in_arrival_order_whatever_the_completion_order() {
        let mut r = Recorder::in_memory();
        for i in [2, 0, 3, 1, 4] {
            r.push(i, row(10 * i));
        }
        let c = r.finish().unwrap().unwrap();
        assert_eq!(c.arrival_ns, vec![0, 10, 20, 30, 40]);
    }

    #[test]
    fn a_csv_stream_writes_the_header_and_one_line_per_row() {
        let dir = std::env::temp_dir().join(format!("nandlab-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.csv");
        let mut r = Recorder::streaming(RecordSink::Csv(path.to_str().unwrap().into())).unwrap();
        r.push(1, Row { op: 1, ..row(7) });
        r.push(0, row(5));
        assert!(r.finish().unwrap().is_none());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "arrival_ns,latency_ns,offset_bytes,size_bytes,op\n5,1,0,512,read\n7,1,0,512,write\n"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_consumer_gets_every_row_in_arrival_order_in_full_batches() {
        use super::super::record_stream::BATCH;
        use std::sync::mpsc::channel;
        let (seen_tx, seen_rx) = channel();
        let consume = Box::new(move |rx: super::super::Batches| {
            for b in rx {
                seen_tx.send((b.len(), b.arrival_ns)).unwrap();
            }
            Ok(())
        });
        let mut r = Recorder::streaming(RecordSink::Batches {
            name: "sink".into(),
            consume,
        })
        .unwrap();
        let n = BATCH as u64 + 3;
        // Each pair of requests completes in swapped order.
        for i in (0..n).step_by(2) {
            if i + 1 < n {
                r.push(i + 1, row(i + 1));
            }
            r.push(i, row(i));
        }
        assert!(r.finish().unwrap().is_none());
        let batches: Vec<(usize, Vec<u64>)> = seen_rx.iter().collect();
        assert_eq!(batches.iter().map(|b| b.0).collect::<Vec<_>>(), [BATCH, 3]);
        let all: Vec<u64> = batches.into_iter().flat_map(|b| b.1).collect();
        assert_eq!(all, (0..n).collect::<Vec<_>>());
    }

    #[test]
    fn a_consumer_error_names_the_sink() {
        let consume = Box::new(|_rx: super::super::Batches| Err("disk full".to_string()));
        let mut r = Recorder::streaming(RecordSink::Batches {
            name: "out/requests.parquet".into(),
            consume,
        })
        .unwrap();
        for i in 0..3 * 65_536 {
            r.push(i, row(i));
        }
        let err = r.finish().err().unwrap().to_string();
        assert!(
            err.contains("out/requests.parquet") && err.contains("disk full"),
            "{err}"
        );
    }

    #[test]
    fn an_unwritable_path_names_the_file() {
        let err = Recorder::streaming(RecordSink::Csv("/nonexistent-dir/r.csv".into()))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("/nonexistent-dir/r.csv"), "{err}");
    }
}
