//! Request records written to Parquet by the record thread itself, batch by batch: one
//! row group per core batch (65,536 rows), nothing crossing into Python. Written with
//! polars' streaming sink instead, the same records cost about three times the CPU (its
//! worker threads woken for every batch) and ~70 MB of memory (issue 33).

use nandlab_core::metrics::Batches;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet::errors::Result;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::io::BufWriter;
use std::sync::Arc;

/// The columns of `nandlab.records.request_schema()`: unsigned 64-bit integers, and `op`
/// as strings (dictionary-encoded; the Arrow schema stored beside them makes it an Enum).
const SCHEMA: &str = "message requests {
    REQUIRED INT64 arrival_ns (INTEGER(64, false));
    REQUIRED INT64 latency_ns (INTEGER(64, false));
    REQUIRED INT64 offset_bytes (INTEGER(64, false));
    REQUIRED INT64 size_bytes (INTEGER(64, false));
    REQUIRED BYTE_ARRAY op (STRING);
}";
/// The names of the core's operation codes 0, 1, 2.
const OP_NAMES: [&str; 3] = ["read", "write", "trim"];
/// zstd level of every column: the fastest (DTRS x32: 4.07 M records in ~32 MB).
const ZSTD_LEVEL: i32 = 1;
/// Columns that seldom repeat a value: delta-encoded, not run through a dictionary
/// (arrival times ascend; a dictionary would be abandoned after costing a hash per row).
const DELTA_COLUMNS: [&str; 3] = ["arrival_ns", "latency_ns", "offset_bytes"];

/// Writes every batch of `rx` to `file` as Parquet; `arrow_schema` is stored under the
/// `ARROW:schema` key (how polars and pyarrow learn the columns' Arrow types).
pub fn write(file: File, arrow_schema: String, rx: Batches) -> Result<()> {
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?))
        .set_key_value_metadata(Some(vec![KeyValue::new("ARROW:schema".to_string(), arrow_schema)]))
        // Three values: min/max tell a reader nothing, and cost a string compare per row.
        .set_column_statistics_enabled(ColumnPath::from("op"), EnabledStatistics::None);
    for c in DELTA_COLUMNS {
        props = props
            .set_column_dictionary_enabled(ColumnPath::from(c), false)
            .set_column_encoding(ColumnPath::from(c), Encoding::DELTA_BINARY_PACKED);
    }
    let schema = Arc::new(parse_message_type(SCHEMA)?);
    let mut w = SerializedFileWriter::new(BufWriter::with_capacity(1 << 20, file), schema, Arc::new(props.build()))?;
    let names = OP_NAMES.map(ByteArray::from);
    let mut ints: Vec<i64> = Vec::new();
    let mut ops: Vec<ByteArray> = Vec::new();
    for b in rx {
        let mut rg = w.next_row_group()?;
        for col in [&b.arrival_ns, &b.latency_ns, &b.offset_bytes, &b.size_bytes] {
            ints.clear();
            // The same 64 bits: Parquet keeps unsigned integers in INT64 (the logical type
            // says unsigned).
            ints.extend(col.iter().map(|&v| v as i64));
            let mut c = rg.next_column()?.expect("five columns");
            c.typed::<Int64Type>().write_batch(&ints, None, None)?;
            c.close()?;
        }
        ops.clear();
        ops.extend(b.op.iter().map(|&o| names[usize::from(o)].clone()));
        let mut c = rg.next_column()?.expect("five columns");
        c.typed::<ByteArrayType>().write_batch(&ops, None, None)?;
        c.close()?;
        rg.close()?;
    }
    let out = w.into_inner()?;
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    Ok(())
}
