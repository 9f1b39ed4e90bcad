//! Per-request records streamed out while the run goes: rows gather into column batches
//! that cross to a consumer thread through a bounded channel, so memory stays bounded
//! whatever the trace length and writing stays off the replay's critical path. The
//! consumer is a CSV writer here, or any function of the batches (the Python binding hands
//! them to polars, which writes Parquet).

use super::records::{RequestRecords, Row};
use crate::error::{NandError, Result};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::{self, JoinHandle};

/// Rows per batch (2 MiB of columns): a batch is one hand-over, so few and large.
pub const BATCH: usize = 1 << 16;
/// Batches in flight to the consumer (bounds memory at ~10 MB).
const AHEAD: usize = 4;
/// The header line: the columns of `nandlab.api.REQUEST_SCHEMA`.
const HEADER: &str = "arrival_ns,latency_ns,offset_bytes,size_bytes,op\n";
const OP_NAMES: [&str; 3] = ["read", "write", "trim"];

/// The batches a consumer receives, in arrival order; the channel closes after the last.
pub type Batches = Receiver<RequestRecords>;

/// Consumes every batch on the stream's thread; an `Err` (a message) ends the stream and
/// is reported by [`RecordStream::finish`].
pub type Consumer = Box<dyn FnOnce(Batches) -> std::result::Result<(), String> + Send>;

/// Where streamed records go.
pub enum RecordSink {
    /// A CSV file at this path (created at once).
    Csv(String),
    /// A consumer; `name` (e.g. the file it writes) prefixes its errors.
    Batches {
        /// Names the destination in errors.
        name: String,
        /// Runs on the stream's thread.
        consume: Consumer,
    },
}

/// A record stream being written.
pub struct RecordStream {
    name: String,
    batch: RequestRecords,
    tx: Option<SyncSender<RequestRecords>>,
    writer: Option<JoinHandle<std::result::Result<(), String>>>,
}

impl RecordStream {
    /// Opens `sink` and starts its thread.
    pub fn open(sink: RecordSink) -> Result<Self> {
        match sink {
            RecordSink::Csv(path) => {
                let file =
                    File::create(&path).map_err(|e| NandError::io(&path, format!("cannot write records: {e}")))?;
                Self::spawn(path, Box::new(move |rx| write_csv(file, rx).map_err(|e| e.to_string())))
            }
            RecordSink::Batches { name, consume } => Self::spawn(name, consume),
        }
    }

    fn spawn(name: String, consume: Consumer) -> Result<Self> {
        let (tx, rx) = sync_channel::<RequestRecords>(AHEAD);
        let writer = thread::Builder::new()
            .name("nandlab-records".into())
            .spawn(move || consume(rx))
            .map_err(|e| NandError::Invalid(format!("cannot start the record writer thread: {e}")))?;
        Ok(RecordStream {
            name,
            batch: RequestRecords::with_capacity(BATCH),
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
        let batch = std::mem::replace(&mut self.batch, RequestRecords::with_capacity(BATCH));
        // A consumer that stopped on an error has hung up; `finish` reports its error.
        if let Some(tx) = &self.tx {
            let _ = tx.send(batch);
        }
    }

    /// Hands over what is left and waits for the consumer; its error names the sink.
    pub fn finish(mut self) -> Result<()> {
        if !self.batch.is_empty() {
            self.send();
        }
        self.tx = None;
        let joined = self.writer.take().expect("finished once").join();
        match joined {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(NandError::io(&self.name, format!("cannot write records: {e}"))),
            Err(_) => Err(NandError::io(&self.name, "the record writer stopped")),
        }
    }
}

/// A run that fails drops its stream unfinished: the writer is still waited for (its
/// channel closed first), so it cannot write into an output folder the caller is removing.
impl Drop for RecordStream {
    fn drop(&mut self) {
        self.tx = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// Writes every batch of `rx` to `file` as CSV lines after the header, then syncs it.
fn write_csv(file: File, rx: Batches) -> std::io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(HEADER.as_bytes())?;
    let mut num = itoa::Buffer::new();
    for b in rx {
        for i in 0..b.len() {
            for v in [b.arrival_ns[i], b.latency_ns[i], b.offset_bytes[i], b.size_bytes[i]] {
                out.write_all(num.format(v).as_bytes())?;
                out.write_all(b",")?;
            }
            out.write_all(OP_NAMES[usize::from(b.op[i])].as_bytes())?;
            out.write_all(b"\n")?;
        }
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}
