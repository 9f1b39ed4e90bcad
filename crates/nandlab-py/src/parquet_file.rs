//! nandlab's Parquet files (request records, the timeline) written one way: Arrow record
//! batches through the `parquet` crate's `ArrowWriter` as the run hands them over, zstd
//! level 1, the file synced once complete.

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_writer::ArrowWriterOptions;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::Result;
use parquet::file::properties::{WriterProperties, WriterPropertiesBuilder};
use std::fs::File;

/// zstd level 1 for every column (the fastest: DTRS ×32's 4.07 M records in ~35 MB) and
/// at most `rows` rows a row group (bounds the writer's memory whatever the run's length).
pub fn properties(rows: usize) -> WriterPropertiesBuilder {
    WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1).expect("zstd level 1 exists")))
        .set_max_row_group_row_count(Some(rows))
}

/// Writes every batch to `file`, then syncs it; the first batch's schema is the file's
/// (`empty()` that of a file given no batch). The first `Err` ends the file unfinished.
pub fn write(
    file: File,
    options: ArrowWriterOptions,
    empty: impl FnOnce() -> SchemaRef,
    batches: impl IntoIterator<Item = Result<RecordBatch>>,
) -> Result<()> {
    let mut batches = batches.into_iter().peekable();
    let schema = match batches.peek() {
        Some(Ok(b)) => b.schema(),
        Some(Err(_)) => return batches.next().expect("peeked").map(drop),
        None => empty(),
    };
    let mut w = ArrowWriter::try_new_with_options(file, schema, options)?;
    for b in batches {
        w.write(&b?)?;
    }
    w.into_inner()?.sync_all()?;
    Ok(())
}
