//! Per-request records streamed to a CSV file while the run goes: rows cross to a writer
//! thread in batches through a bounded channel, so memory stays bounded whatever the trace
//! length and formatting stays off the replay's critical path.

use super::records::Row;
use crate::error::{NandError, Result};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::{self, JoinHandle};

/// Rows per batch.
const BATCH: usize = 1 << 14;
/// Batches in flight to the writer (bounds memory at ~2 MB).
const AHEAD: usize = 4;
/// The header line: the columns of `nandlab.api.REQUEST_SCHEMA`.
const HEADER: &str = "arrival_ns,latency_ns,offset_bytes,size_bytes,op\n";
const OP_NAMES: [&str; 3] = ["read", "write", "trim"];

/// A CSV file being written.
pub struct RecordStream {
    path: String,
    batch: Vec<Row>,
    tx: Option<SyncSender<Vec<Row>>>,
    writer: Option<JoinHandle<std::io::Result<()>>>,
}

impl RecordStream {
    /// Creates `path` and starts its writer.
    pub fn create(path: &str) -> Result<Self> {
        let file = File::create(path).map_err(|e| NandError::io(path, format!("cannot write records: {e}")))?;
        let (tx, rx) = sync_channel::<Vec<Row>>(AHEAD);
        let writer = thread::Builder::new()
            .name("nandlab-records".into())
            .spawn(move || {
                let mut out = BufWriter::with_capacity(1 << 20, file);
                out.write_all(HEADER.as_bytes())?;
                let mut num = itoa::Buffer::new();
                for batch in rx {
                    for r in batch {
                        for v in [r.arrival_ns, r.latency_ns, r.offset_bytes, r.size_bytes] {
                            out.write_all(num.format(v).as_bytes())?;
                            out.write_all(b",")?;
                        }
                        out.write_all(OP_NAMES[usize::from(r.op)].as_bytes())?;
                        out.write_all(b"\n")?;
                    }
                }
                out.into_inner().map_err(|e| e.into_error())?.sync_all()
            })
            .map_err(|e| NandError::Invalid(format!("cannot start the record writer thread: {e}")))?;
        Ok(RecordStream {
            path: path.to_string(),
            batch: Vec::with_capacity(BATCH),
            tx: Some(tx),
            writer: Some(writer),
        })
    }

    /// Appends a row.
    #[inline]
    pub fn push(&mut self, row: Row) {
        self.batch.push(row);
        if self.batch.len() == BATCH {
            self.send();
        }
    }

    fn send(&mut self) {
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
        // A writer that stopped on an I/O error has hung up; `finish` reports its error.
        if let Some(tx) = &self.tx {
            let _ = tx.send(batch);
        }
    }

    /// Writes what is left and closes the file; an I/O error names the file.
    pub fn finish(mut self) -> Result<()> {
        self.send();
        self.tx = None;
        let joined = self.writer.take().expect("finished once").join();
        match joined {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(NandError::io(&self.path, format!("cannot write records: {e}"))),
            Err(_) => Err(NandError::io(&self.path, "the record writer stopped")),
        }
    }
}
