//! Detecting a trace's format from its first lines (a header, or the formats that parse
//! every sampled line), with the closest format's error when none does.

use super::format::{TraceFormat, CONCRETE_FORMATS};
use super::parse::{trim, FieldError, MISSING};
use super::reader::{long_line, MAX_LINE_BYTES};
use super::trace_line::{is_header, parse_line};
use crate::error::{NandError, Result};

/// The fields of `format` in order, as its errors name them: how far into a line a
/// format got before failing (a tie-break of [`sniff`]).
fn field_order(format: TraceFormat) -> &'static [&'static str] {
    match format {
        TraceFormat::Disksim => &["time", "device", "lba", "size", "type", "critical"],
        TraceFormat::Msr => &["Timestamp", "Hostname", "DiskNumber", "Type", "Offset", "Size"],
        TraceFormat::Spc => &["ASU", "LBA", "Size", "Opcode", "Timestamp"],
        TraceFormat::Systor => &["Timestamp", "Response", "IOType", "LUN", "Offset", "Size"],
        TraceFormat::Cloudphysics => &["version", "time", "op", "size", "lbn"],
        TraceFormat::Alibaba => &["device_id", "opcode", "offset", "length", "timestamp"],
        TraceFormat::Tencent => &["Timestamp", "Offset", "Size", "IOType", "VolumeID"],
        TraceFormat::Auto => &[],
    }
}

/// 1 + the position of the field `err` names in `format`; 0 when it names none, or when
/// the line ran out of fields (its shape is not the format's).
fn fields_reached(format: TraceFormat, err: &FieldError) -> usize {
    if err.msg == MISSING {
        return 0;
    }
    field_order(format)
        .iter()
        .position(|f| *f == err.field)
        .map_or(0, |i| i + 1)
}

fn from_header(header: &[u8]) -> Option<TraceFormat> {
    let h: Vec<u8> = header
        .iter()
        .filter(|b| !b.is_ascii_whitespace() && **b != b'"')
        .map(u8::to_ascii_lowercase)
        .collect();
    let starts = |p: &[u8]| h.starts_with(p);
    let has = |p: &[u8]| h.windows(p.len()).any(|w| w == p);
    if starts(b"version,time,op,size,lbn") {
        Some(TraceFormat::Cloudphysics)
    } else if has(b"iotype") && has(b"lun") {
        Some(TraceFormat::Systor)
    } else if has(b"iotype") && has(b"volume") {
        Some(TraceFormat::Tencent)
    } else if starts(b"asu,") {
        Some(TraceFormat::Spc)
    } else if has(b"hostname") {
        Some(TraceFormat::Msr)
    } else if starts(b"device_id,opcode") {
        Some(TraceFormat::Alibaba)
    } else {
        None
    }
}

fn ext_hint(path: &str) -> Option<TraceFormat> {
    let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "spc" => Some(TraceFormat::Spc),
        "trace" | "ascii" | "disksim" | "txt" => Some(TraceFormat::Disksim),
        _ => None,
    }
}

/// Detects the format of a trace from its first bytes (`sample`, up to a few tens of KiB)
/// and its name. A header line decides at once; otherwise the formats that parse every
/// sampled line are candidates, the extension breaks a tie, then [`CONCRETE_FORMATS`] order.
///
/// When no format parses every sampled line, the error is the parse error of the closest
/// format (the one that parses the most lines before its first failure, then the one that
/// gets furthest into the failing line), naming `name`
/// and the line, so a bad line among the first ones reads as it would with that format.
pub fn sniff(sample: &[u8], name: &str) -> Result<TraceFormat> {
    // (1-based line number, content) of up to 32 content lines.
    let mut lines: Vec<(u64, &[u8])> = Vec::new();
    let complete = match sample.iter().rposition(|&b| b == b'\n') {
        // When the sample was cut mid-line, drop the partial last line.
        Some(i) if sample.len() >= SNIFF_BYTES => &sample[..i],
        _ => sample,
    };
    if complete.len() as u64 > MAX_LINE_BYTES && !complete.contains(&b'\n') {
        return Err(long_line(name, 1));
    }
    let mut first = true;
    for (i, raw) in complete.split(|&b| b == b'\n').enumerate() {
        let mut line = trim(raw);
        if first {
            if let Some(rest) = line.strip_prefix(b"\xEF\xBB\xBF".as_slice()) {
                line = trim(rest);
            }
        }
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        if first {
            first = false;
            if is_header(line) {
                if let Some(f) = from_header(line) {
                    return Ok(f);
                }
                continue;
            }
        }
        lines.push((i as u64 + 1, line));
        if lines.len() >= 32 {
            break;
        }
    }
    if lines.is_empty() {
        return ext_hint(name).ok_or_else(|| {
            NandError::Invalid(if sample.len() < SNIFF_BYTES {
                format!("{name}: the trace has no requests")
            } else {
                format!("{name}: no request in the first {SNIFF_BYTES} bytes; name the format to read it")
            })
        });
    }
    let hint = ext_hint(name);
    let mut ok: Vec<TraceFormat> = Vec::new();
    let mut closest: Option<Failure> = None;
    for f in CONCRETE_FORMATS {
        let unit = f.default_time_unit().ns();
        let failed = lines
            .iter()
            .enumerate()
            .find_map(|(k, (no, l))| parse_line(f, l, unit).err().map(|err| (k, *no, err)));
        let Some((parsed, line, err)) = failed else {
            ok.push(f);
            continue;
        };
        // More lines parsed wins; on a tie, the format that got further into the failing
        // line (a malformed MSR line fails MSR at its bad field, DiskSim at its first), then
        // the extension's format, then priority order.
        let reached = fields_reached(f, &err);
        let better = closest.as_ref().is_none_or(|c| {
            (parsed, reached) > (c.parsed, c.reached)
                || ((parsed, reached) == (c.parsed, c.reached) && Some(f) == hint && Some(c.format) != hint)
        });
        if better {
            closest = Some(Failure {
                format: f,
                parsed,
                reached,
                line,
                err,
            });
        }
    }
    if let Some(&f) = ok.iter().find(|&&f| Some(f) == hint).or(ok.first()) {
        return Ok(f);
    }
    let c = closest.expect("a format that does not parse every line failed on one");
    Err(NandError::parse(
        name,
        c.line,
        format!(
            "{} (format auto: read as {}, the closest match; name the format to read it as another)",
            c.err, c.format
        ),
    ))
}

/// How far a format got through the sampled lines before failing.
struct Failure {
    format: TraceFormat,
    /// Lines it parsed before the failing one.
    parsed: usize,
    /// How far into the failing line it got ([`fields_reached`]).
    reached: usize,
    /// 1-based number of the failing line.
    line: u64,
    err: FieldError,
}

/// How many bytes [`detect_format`] reads (more than the longest line).
pub const SNIFF_BYTES: usize = 2 * MAX_LINE_BYTES as usize;

/// Detects the format of the trace file at `path` (see [`sniff`]).
pub fn detect_format(path: &str) -> Result<TraceFormat> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(|e| NandError::io(path, e))?;
    let mut buf = vec![0u8; SNIFF_BYTES];
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(NandError::io(path, e)),
        }
    }
    buf.truncate(n);
    sniff(&buf, path)
}

/// `format`, or the detected format of `path` when `format` is `Auto`.
pub fn resolve_format(path: &str, format: TraceFormat) -> Result<TraceFormat> {
    match format {
        TraceFormat::Auto => detect_format(path),
        f => Ok(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_formats() {
        assert_eq!(
            sniff(b"0 0 303567 7 0\n0 1 55590 6 0\n", "x").ok(),
            Some(TraceFormat::Disksim)
        );
        assert_eq!(
            sniff(b"0 128166385295514663,hm,0,Write,9056014336,2048,2833\n", "x.csv").ok(),
            Some(TraceFormat::Msr)
        );
        assert_eq!(
            sniff(b"version,time,op,size,lbn\n1,5,28,512,1\n", "x.csv").ok(),
            Some(TraceFormat::Cloudphysics)
        );
        assert_eq!(sniff(b"1,5,2a,512,1\n", "x.csv").ok(), Some(TraceFormat::Cloudphysics));
        assert_eq!(sniff(b"0,20941264,8192,W,0.551706\n", "x").ok(), Some(TraceFormat::Spc));
        assert_eq!(
            sniff(b"Timestamp,Response,IOType,LUN,Offset,Size\n", "x").ok(),
            Some(TraceFormat::Systor)
        );
        assert_eq!(sniff(b"1.5,0.1,R,0,512,512\n", "x").ok(), Some(TraceFormat::Systor));
        assert_eq!(
            sniff(b"7,R,126703644672,4096,1577808000000123\n", "x").ok(),
            Some(TraceFormat::Alibaba)
        );
        assert_eq!(
            sniff(b"1538323200,2048,16,1,1063\n", "x").ok(),
            Some(TraceFormat::Tencent)
        );
        assert_eq!(sniff(b"# only a comment\n", "t.spc").ok(), Some(TraceFormat::Spc));
        // No format reads the lines: the closest one's error, with the line. Line 1 is a
        // header (it starts with a letter); every format fails on line 2 at once, so the
        // first in priority order (disksim) reports it.
        let e = sniff(b"garbage here\nmore garbage\n", "x").unwrap_err().to_string();
        assert!(e.starts_with("x:2: field `time`: "), "{e}");
        assert!(e.contains("read as disksim, the closest"), "{e}");
        // Two good MSR lines, then a bad one: MSR parses the most lines, so its error
        // names line 3 and the field.
        let text = b"1,hm,0,Read,0,512,1\n2,hm,0,Write,512,512,1\n3,hm,0,Flush,0,512,1\n";
        let e = sniff(text, "t.csv").unwrap_err().to_string();
        assert!(e.starts_with("t.csv:3: field `Type`: "), "{e}");
        assert!(e.contains("read as msr"), "{e}");
        assert_eq!(e.lines().count(), 1);
        // One malformed MSR line and no extension: every format fails on line 1, and MSR
        // gets furthest into it (to `Type`), so its error is the one given, not DiskSim's.
        let e = sniff(b"128166385295514663,hm,0,Wrte,9056014336,2048,2833\n", "x")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x:1: field `Type`: "), "{e}");
        assert!(e.contains("read as msr"), "{e}");
        // A first line whose time is `inf` or `nan` is a bad time, not a header to skip.
        for t in ["inf", "NaN", "Infinity"] {
            let text = format!("{t} 0 0 8 1\n1 0 8 8 1\n");
            let e = sniff(text.as_bytes(), "t.trace").unwrap_err().to_string();
            assert!(
                e.starts_with(&format!(
                    "t.trace:1: field `time`: expected a non-negative number, got `{t}`"
                )),
                "{e}"
            );
            assert!(!is_header(t.as_bytes()));
        }
        assert!(is_header(b"Timestamp,Hostname,DiskNumber"));
        assert!(is_header(b"info about this trace"));
        // A first line longer than the cap (a file of NUL bytes) is named as such.
        let e = sniff(&vec![0u8; SNIFF_BYTES], "z").unwrap_err().to_string();
        assert!(e.starts_with("z:1: line longer than 65536 bytes"), "{e}");
        // An empty file has no requests.
        let e = sniff(b"", "empty").unwrap_err().to_string();
        assert_eq!(e, "empty: the trace has no requests");
    }
}
