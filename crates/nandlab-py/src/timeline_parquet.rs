//! `timeline.parquet` written by Rust on a thread of its own, batch by batch as the run
//! hands them over: no Python in the way. Importing polars alone costs ~650 M instructions
//! (6 % of a DTRS ×10 run that otherwise never imports it: `--requests-out none`), NumPy
//! another ~234 M; the Python writer's frames and polars' encoding ~3,700 more a row
//! (`benchmarks/README.md`, "The timeline's cost when on").

use crate::arrow::{column_field, timeline_array};
use crate::parquet_file;
use arrow_array::RecordBatch;
use arrow_schema::{Field, Schema};
use nandlab_core::metrics::timeline::{TimelineSink, COLUMNS};
use nandlab_core::metrics::TimelineColumns;
use parquet::arrow::arrow_writer::ArrowWriterOptions;
use parquet::file::properties::EnabledStatistics;
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

/// Writes every batch from `rx` to `path` (no column statistics: a timeline is read whole,
/// not filtered by row group, and they cost ~650 instructions a row in polars' writer); a
/// run that gave no row gets a file with no row and the base columns ([`COLUMNS`]).
fn write(path: &std::path::Path, rx: Receiver<TimelineColumns>) -> Result<(), String> {
    let file = File::create(path).map_err(|e| e.to_string())?;
    let props = parquet_file::properties(ROW_GROUP_ROWS)
        .set_statistics_enabled(EnabledStatistics::None)
        .build();
    let base = || {
        let fields: Vec<Field> = COLUMNS.iter().map(|&(name, float)| column_field(name, float)).collect();
        Arc::new(Schema::new(fields))
    };
    let batches = rx.into_iter().map(|b| Ok(RecordBatch::from(timeline_array(b))));
    parquet_file::write(file, ArrowWriterOptions::new().with_properties(props), base, batches)
        .map_err(|e| e.to_string())
}
