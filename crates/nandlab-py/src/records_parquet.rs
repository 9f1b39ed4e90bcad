//! Request records written to Parquet by the record thread itself, batch by batch: one
//! row group per core batch (65,536 rows), nothing crossing into Python. Written with
//! polars' streaming sink instead, the same records cost about three times the CPU (its
//! worker threads woken for every batch) and ~70 MB of memory (issue 33).

use crate::parquet_file;
use arrow_array::types::UInt8Type;
use arrow_array::{ArrayRef, DictionaryArray, LargeStringArray, RecordBatch, UInt64Array, UInt8Array};
use arrow_buffer::ScalarBuffer;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use nandlab_core::metrics::record_stream::BATCH;
use nandlab_core::metrics::{Batches, RequestRecords};
use parquet::arrow::arrow_writer::ArrowWriterOptions;
use parquet::basic::Encoding;
use parquet::errors::Result;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::EnabledStatistics;
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::sync::Arc;

/// The names of the core's operation codes 0, 1, 2.
const OP_NAMES: [&str; 3] = ["read", "write", "trim"];
/// Columns that seldom repeat a value: delta-encoded, not run through a dictionary
/// (arrival times ascend; a dictionary would be abandoned after costing a hash per row).
const DELTA_COLUMNS: [&str; 3] = ["arrival_ns", "latency_ns", "offset_bytes"];

/// The columns of `nandlab.records.request_schema()`: unsigned 64-bit integers, and `op`
/// the core's codes as keys of a dictionary of [`OP_NAMES`] (no string made per row).
fn schema() -> SchemaRef {
    let u64s = ["arrival_ns", "latency_ns", "offset_bytes", "size_bytes"];
    let op = DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::LargeUtf8));
    let mut fields: Vec<Field> = u64s.iter().map(|&n| Field::new(n, DataType::UInt64, false)).collect();
    fields.push(Field::new("op", op, false));
    Arc::new(Schema::new(fields))
}

/// A core batch as an Arrow record batch (the vectors move, no copy); an operation code
/// outside [`OP_NAMES`] is an error.
fn record_batch(schema: &SchemaRef, names: &ArrayRef, b: RequestRecords) -> Result<RecordBatch> {
    let u64s = |v: Vec<u64>| Arc::new(UInt64Array::new(ScalarBuffer::from(v), None)) as ArrayRef;
    let op = DictionaryArray::<UInt8Type>::try_new(UInt8Array::new(ScalarBuffer::from(b.op), None), names.clone())?;
    let columns = vec![
        u64s(b.arrival_ns),
        u64s(b.latency_ns),
        u64s(b.offset_bytes),
        u64s(b.size_bytes),
        Arc::new(op) as ArrayRef,
    ];
    Ok(RecordBatch::try_new(schema.clone(), columns)?)
}

/// Writes every batch of `rx` to `file` as Parquet; `arrow_schema` is stored under the
/// `ARROW:schema` key (how polars and pyarrow learn the columns' Arrow types: polars'
/// own, which makes `op` its Enum).
pub fn write(file: File, arrow_schema: String, rx: Batches) -> Result<()> {
    let mut props = parquet_file::properties(BATCH)
        .set_key_value_metadata(Some(vec![KeyValue::new("ARROW:schema".to_string(), arrow_schema)]))
        // Three values: min/max tell a reader nothing, and cost a string compare per row.
        .set_column_statistics_enabled(ColumnPath::from("op"), EnabledStatistics::None);
    for c in DELTA_COLUMNS {
        props = props
            .set_column_dictionary_enabled(ColumnPath::from(c), false)
            .set_column_encoding(ColumnPath::from(c), Encoding::DELTA_BINARY_PACKED);
    }
    let options = ArrowWriterOptions::new()
        .with_properties(props.build())
        .with_skip_arrow_metadata(true);
    let schema = schema();
    let names: ArrayRef = Arc::new(LargeStringArray::from(OP_NAMES.to_vec()));
    let batches = rx.into_iter().map(|b| record_batch(&schema, &names, b));
    parquet_file::write(file, options, || schema.clone(), batches)
}
