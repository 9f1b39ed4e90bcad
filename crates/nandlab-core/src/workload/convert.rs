//! Trace conversion (`nandlab trace convert`): any readable format to DiskSim ASCII (what
//! MQSim and SSDsim read) or MSR Cambridge CSV.

use super::detect::resolve_format;
use super::format::TraceFormat;
use super::reader::{TraceOptions, TraceReader};
use crate::error::{NandError, Result};
use crate::host::request::{Op, Request};
use serde::Serialize;
use std::io::{BufWriter, Write};

/// What a conversion did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ConvertReport {
    /// Format the source was read as.
    pub src_format: TraceFormat,
    /// Format written.
    pub dst_format: TraceFormat,
    /// Requests written.
    pub written: u64,
    /// Trim requests left out because the destination format cannot express them.
    pub skipped_trims: u64,
}

/// The format `convert` writes for `dst_format` (`auto` picks by the destination's extension:
/// `.csv` → msr; `.trace`, `.ascii`, `.disksim`, `.txt` → disksim).
pub fn output_format(dst: &str, dst_format: TraceFormat) -> Result<TraceFormat> {
    match dst_format {
        TraceFormat::Disksim | TraceFormat::Msr => Ok(dst_format),
        TraceFormat::Auto => {
            let ext = std::path::Path::new(dst)
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase)
                .unwrap_or_default();
            match ext.as_str() {
                "csv" => Ok(TraceFormat::Msr),
                "trace" | "ascii" | "disksim" | "txt" => Ok(TraceFormat::Disksim),
                _ => Err(NandError::Invalid(format!(
                    "{dst}: cannot tell the output format from the extension; name it disksim or msr"
                ))),
            }
        }
        other => Err(NandError::Invalid(format!(
            "cannot write traces in format `{other}`; convert writes disksim or msr"
        ))),
    }
}

/// Writes one request as a line of `format` (`disksim` or `msr`). Returns false (writing
/// nothing) for a trim, which neither format can express.
///
/// - disksim: `arrival_ns stream lba sectors type`; `lba = offset / 512` (rounded down) and
///   `sectors` covers every byte of the request (rounded up), type 1 = read, 0 = write; a
///   request flagged critical gets a sixth field `1`.
/// - msr: `ticks,nandlab,stream,Read|Write,offset,size,0` with `ticks = arrival_ns / 100`
///   (rounded down), offset and size in bytes, response time 0.
pub fn write_request(w: &mut impl Write, format: TraceFormat, r: &Request) -> std::io::Result<bool> {
    if r.op == Op::Trim {
        return Ok(false);
    }
    match format {
        TraceFormat::Msr => {
            let ty = if r.op == Op::Read { "Read" } else { "Write" };
            writeln!(
                w,
                "{},nandlab,{},{},{},{},0",
                r.arrival_ns / 100,
                r.stream,
                ty,
                r.offset_bytes,
                r.size_bytes
            )?;
        }
        _ => {
            let lba = r.offset_bytes / 512;
            let end = r.offset_bytes + r.size_bytes;
            let sectors = end.div_ceil(512) - lba;
            let ty = if r.op == Op::Read { 1 } else { 0 };
            write!(w, "{} {} {} {} {}", r.arrival_ns, r.stream, lba, sectors, ty)?;
            writeln!(w, "{}", if r.critical { " 1" } else { "" })?;
        }
    }
    Ok(true)
}

/// Converts `src` (read as `src_format`, `auto` detects) into `dst` in `dst_format`
/// (`disksim` or `msr`; `auto` picks by extension). The output is written to a temporary
/// file beside `dst` and renamed into place, so `dst` is never left half-written. Returns
/// the number of requests written (trims are left out: see [`convert_report`]).
pub fn convert(src: &str, src_format: TraceFormat, dst: &str, dst_format: TraceFormat) -> Result<u64> {
    Ok(convert_report(src, src_format, dst, dst_format)?.written)
}

/// [`convert`], reporting also the formats and the trims left out.
pub fn convert_report(src: &str, src_format: TraceFormat, dst: &str, dst_format: TraceFormat) -> Result<ConvertReport> {
    let dst_format = output_format(dst, dst_format)?;
    let src_format = resolve_format(src, src_format)?;
    let reader = TraceReader::open(src, src_format, &TraceOptions::default())?;
    let path = std::path::Path::new(dst);
    if path.is_dir() {
        return Err(NandError::Invalid(format!(
            "{dst}: is a directory, not a file to write"
        )));
    }
    // Only a regular file is replaced by renaming a temp file over it: a device or a FIFO
    // (`/dev/null`, a named pipe) is written in place, and a symlink's target is replaced,
    // keeping the link.
    if path.exists() && !path.is_file() {
        let (written, skipped_trims) = write_all(reader, src, dst, dst_format)?;
        return Ok(ConvertReport {
            src_format,
            dst_format,
            written,
            skipped_trims,
        });
    }
    let dst_owned;
    let dst = if path.is_symlink() {
        dst_owned = std::fs::canonicalize(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .to_string_lossy()
            .into_owned();
        dst_owned.as_str()
    } else {
        dst
    };
    let tmp = format!("{dst}.tmp-{}", std::process::id());
    let result = write_all(reader, src, &tmp, dst_format);
    match result {
        Ok((written, skipped_trims)) => {
            std::fs::rename(&tmp, dst).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                NandError::io(dst, e)
            })?;
            Ok(ConvertReport {
                src_format,
                dst_format,
                written,
                skipped_trims,
            })
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Writes `reader`'s requests (from trace `src`) into `tmp`. A request flagged critical is an
/// error for msr, which has no column for the flag.
fn write_all(
    reader: impl Iterator<Item = Result<Request>>,
    src: &str,
    tmp: &str,
    format: TraceFormat,
) -> Result<(u64, u64)> {
    let file = std::fs::File::create(tmp).map_err(|e| NandError::io(tmp, e))?;
    let mut w = BufWriter::with_capacity(256 * 1024, file);
    let (mut written, mut skipped) = (0u64, 0u64);
    for r in reader {
        let r = r?;
        if r.critical && format == TraceFormat::Msr {
            return Err(NandError::Invalid(format!(
                "{src}: request {} is flagged critical, which msr cannot carry; convert to disksim",
                written + skipped + 1
            )));
        }
        if write_request(&mut w, format, &r).map_err(|e| NandError::io(tmp, e))? {
            written += 1;
        } else {
            skipped += 1;
        }
    }
    let file = w.into_inner().map_err(|e| NandError::io(tmp, e.error()))?;
    // A device or FIFO written in place cannot be synced (EINVAL).
    if file.metadata().is_ok_and(|m| m.is_file()) {
        file.sync_all().map_err(|e| NandError::io(tmp, e))?;
    }
    Ok((written, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(format: TraceFormat, r: Request) -> String {
        let mut out = Vec::new();
        write_request(&mut out, format, &r).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn writes_lines() {
        let r = Request::new(1234, 1000, 100, Op::Read, 3);
        // Bytes 1000..1100 lie in sector 1 only (512..1024) and sector 2 (1024..1536): 2 sectors.
        assert_eq!(line(TraceFormat::Disksim, r), "1234 3 1 2 1\n");
        assert_eq!(line(TraceFormat::Msr, r), "12,nandlab,3,Read,1000,100,0\n");
        let w = Request {
            op: Op::Write,
            offset_bytes: 4096,
            size_bytes: 4097,
            ..r
        };
        assert_eq!(line(TraceFormat::Disksim, w), "1234 3 8 9 0\n");
        assert_eq!(line(TraceFormat::Msr, w), "12,nandlab,3,Write,4096,4097,0\n");
        assert_eq!(line(TraceFormat::Msr, Request { op: Op::Trim, ..r }), "");
        let flagged = Request { critical: true, ..w };
        assert_eq!(line(TraceFormat::Disksim, flagged), "1234 3 8 9 0 1\n");
    }

    #[test]
    fn output_format_rules() {
        assert_eq!(output_format("a.csv", TraceFormat::Auto).unwrap(), TraceFormat::Msr);
        assert_eq!(
            output_format("a.trace", TraceFormat::Auto).unwrap(),
            TraceFormat::Disksim
        );
        assert!(output_format("a.bin", TraceFormat::Auto).is_err());
        assert!(output_format("a.csv", TraceFormat::Spc)
            .unwrap_err()
            .to_string()
            .contains("spc"));
    }
}
