//! `timeline.parquet` written by Rust on a thread of its own, batch by batch as the run
//! hands them over: no Python in the way. Importing polars alone costs ~650 M instructions
//! (6 % of a DTRS ×10 run that otherwise never imports it: `--requests-out none`), NumPy
//! another ~234 M; the Python writer's frames and polars' encoding ~3,700 more a row
//! (`benchmarks/README.md`, "The timeline's cost when on").

use crate::arrow::{column_field, timeline_array};
use arrow_array::RecordBatch;
use arrow_schema::{Field, Schema};
use nandlab_core::metrics::timeline::{TimelineSink, COLUMNS};
use nandlab_core::metrics::TimelineColumns;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use std::fs::File;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Batches queued for the writer before the simulation waits for it.
const AHEAD: usize = 4;

/// Rows per row group: four batches of the core's, so the writer's memory stays bounded
/// whatever the run's length.
const ROW_GROUP_ROWS: usize = 4 * nandlab_core::metrics::timeline::BATCH_WINDOWS;

/// A timeline being written to a Parquet file.
pub struct ParquetTimeline {
    path: PathBuf,
    writer: JoinHandle<Result<(), String>>,
}

impl ParquetTimeline {
    /// Starts the writer of `path`; returns it and the sink that feeds it (for
    /// `Simulator::stream_timeline_to`). The file is complete once the sink is dropped
    /// (the run ended) and [`ParquetTimeline::finish`] returned.
    pub fn start(path: PathBuf) -> (Self, TimelineSink) {
        let (tx, rx) = sync_channel::<TimelineColumns>(AHEAD);
        let dst = path.clone();
        let writer = std::thread::Builder::new()
            .name("nandlab-timeline".to_string())
            .spawn(move || write(&dst, rx))
            .expect("a thread for the timeline's writer");
        let sink: TimelineSink =
            Box::new(move |batch| tx.send(batch).map_err(|_| "the timeline's writer stopped".to_string()));
        (ParquetTimeline { path, writer }, sink)
    }

    /// Waits for the file to be complete; `Err` names the file and what failed.
    pub fn finish(self) -> Result<(), String> {
        let done = self
            .writer
            .join()
            .unwrap_or_else(|_| Err("the writer panicked".to_string()));
        done.map_err(|e| format!("{}: cannot write the timeline: {e}", self.path.display()))
    }
}

/// zstd level 1 (as the Python writer before it: the same size for little CPU), no column
/// statistics (a timeline is read whole, not filtered by row group: they cost ~650
/// instructions a row in polars' writer).
fn properties() -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1).expect("zstd level 1 exists")))
        .set_statistics_enabled(EnabledStatistics::None)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .build()
}

/// Writes every batch from `rx` to `path`; a run that gave no row gets a file with no row
/// and the base columns ([`COLUMNS`]).
fn write(path: &std::path::Path, rx: Receiver<TimelineColumns>) -> Result<(), String> {
    let file = File::create(path).map_err(|e| e.to_string())?;
    let mut out: Option<ArrowWriter<File>> = None;
    let mut file = Some(file);
    let err = |e: parquet::errors::ParquetError| e.to_string();
    for batch in rx {
        let batch = RecordBatch::from(timeline_array(batch));
        let w = match out.as_mut() {
            Some(w) => w,
            None => {
                let f = file.take().expect("the file, until the writer has it");
                out.insert(ArrowWriter::try_new(f, batch.schema(), Some(properties())).map_err(err)?)
            }
        };
        w.write(&batch).map_err(err)?;
    }
    let w = match out {
        Some(w) => w,
        None => {
            let fields: Vec<Field> = COLUMNS.iter().map(|&(name, float)| column_field(name, float)).collect();
            let f = file.take().expect("no writer took the file");
            ArrowWriter::try_new(f, Arc::new(Schema::new(fields)), Some(properties())).map_err(err)?
        }
    };
    w.close().map(drop).map_err(err)
}
