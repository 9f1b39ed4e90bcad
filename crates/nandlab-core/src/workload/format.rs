//! The block-trace formats: names, time units, the per-line parsers and format detection.

use super::parse::{
    err, mul, parse_hex_u8, parse_size, parse_time, parse_u32, parse_u64, show, trim, FieldError, FieldResult, Fields,
    MISSING,
};
use super::reader::{long_line, MAX_LINE_BYTES};
use crate::error::{NandError, Result};
use crate::host::request::Op;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A block-trace format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum TraceFormat {
    /// Detect the format from the header / first lines (and the file extension on a tie).
    #[default]
    Auto,
    /// DiskSim / MQSim / SSDsim ASCII: `time dev lba size type [critical]` separated by
    /// blanks; time in ns, `lba` and `size` in 512 B sectors, type `1` = read, `0` = write;
    /// the optional `critical` is `1` for a request of critical data (file-system metadata,
    /// seed 004) and `0` (or absent) otherwise. Fields past the sixth are ignored.
    Disksim,
    /// MSR Cambridge CSV: `Timestamp,Hostname,Disk,Type,Offset,Size,ResponseTime`; timestamp
    /// in 100 ns ticks (Windows FILETIME), `Type` `Read`/`Write`, offset and size in bytes. A
    /// leading `index ` before the timestamp (`0 128166385295514663,hm,...`) is accepted.
    Msr,
    /// UMass / SPC CSV: `ASU,LBA,Size,Opcode,Timestamp[,...]`; LBA in 512 B sectors, size in
    /// bytes, opcode `R`/`W`, timestamp in seconds (decimal). Extra fields are ignored.
    Spc,
    /// SYSTOR'17 CSV: `Timestamp,Response,IOType,LUN,Offset,Size`; timestamp in seconds
    /// (decimal, epoch), IOType `R`/`W`, offset and size in bytes.
    Systor,
    /// libCacheSim CloudPhysics CSV: `version,time,op,size,lbn`; time in seconds, op a hex
    /// SCSI opcode (08/28/88 read, 0a/2a/8a write, 42 UNMAP = trim), size in bytes, lbn in
    /// 512 B sectors.
    Cloudphysics,
    /// Alibaba block traces (2020) CSV: `device_id,opcode,offset,length,timestamp`; opcode
    /// `R`/`W`, offset and length in bytes, timestamp in µs.
    Alibaba,
    /// Tencent CBS block traces (2018) CSV: `Timestamp,Offset,Size,IOType,VolumeID`;
    /// timestamp in seconds, offset and size in 512 B sectors, IOType `0` = read, `1` = write.
    Tencent,
}

/// Every concrete (non-`auto`) format, in detection priority order.
pub const CONCRETE_FORMATS: [TraceFormat; 7] = [
    TraceFormat::Disksim,
    TraceFormat::Msr,
    TraceFormat::Spc,
    TraceFormat::Systor,
    TraceFormat::Cloudphysics,
    TraceFormat::Alibaba,
    TraceFormat::Tencent,
];

impl TraceFormat {
    /// The name used in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Auto => "auto",
            TraceFormat::Disksim => "disksim",
            TraceFormat::Msr => "msr",
            TraceFormat::Spc => "spc",
            TraceFormat::Systor => "systor",
            TraceFormat::Cloudphysics => "cloudphysics",
            TraceFormat::Alibaba => "alibaba",
            TraceFormat::Tencent => "tencent",
        }
    }

    /// The unit the format's time field is in when no override is given.
    pub fn default_time_unit(self) -> TimeUnit {
        match self {
            TraceFormat::Auto | TraceFormat::Disksim => TimeUnit::Ns,
            TraceFormat::Msr => TimeUnit::Ticks100ns,
            TraceFormat::Spc | TraceFormat::Systor | TraceFormat::Cloudphysics | TraceFormat::Tencent => TimeUnit::S,
            TraceFormat::Alibaba => TimeUnit::Us,
        }
    }
}

impl fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TraceFormat {
    type Err = NandError;
    fn from_str(s: &str) -> Result<Self> {
        let lower = s.trim().to_ascii_lowercase();
        if lower == "auto" {
            return Ok(TraceFormat::Auto);
        }
        CONCRETE_FORMATS.into_iter().find(|f| f.name() == lower).ok_or_else(|| {
            let names: Vec<&str> = std::iter::once("auto")
                .chain(CONCRETE_FORMATS.iter().map(|f| f.name()))
                .collect();
            NandError::Invalid(format!(
                "unknown trace format `{s}`; expected one of {}",
                names.join(", ")
            ))
        })
    }
}

/// The unit of a trace's time field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUnit {
    /// Nanoseconds.
    Ns,
    /// Microseconds.
    Us,
    /// Milliseconds (classic DiskSim traces).
    Ms,
    /// Seconds.
    S,
    /// 100 ns ticks (Windows FILETIME, MSR Cambridge).
    Ticks100ns,
}

impl TimeUnit {
    /// Nanoseconds per unit.
    pub fn ns(self) -> u64 {
        match self {
            TimeUnit::Ns => 1,
            TimeUnit::Us => 1_000,
            TimeUnit::Ms => 1_000_000,
            TimeUnit::S => 1_000_000_000,
            TimeUnit::Ticks100ns => 100,
        }
    }

    /// The name used in configs.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "us",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
            TimeUnit::Ticks100ns => "ticks100ns",
        }
    }
}

impl fmt::Display for TimeUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TimeUnit {
    type Err = NandError;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ns" => Ok(TimeUnit::Ns),
            "us" | "µs" => Ok(TimeUnit::Us),
            "ms" => Ok(TimeUnit::Ms),
            "s" => Ok(TimeUnit::S),
            "ticks100ns" => Ok(TimeUnit::Ticks100ns),
            _ => Err(NandError::Invalid(format!(
                "unknown time unit `{s}`; expected one of ns, us, ms, s, ticks100ns"
            ))),
        }
    }
}

/// One parsed trace line, time not yet rebased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawRequest {
    /// Trace time in ns (absolute, as the trace gives it).
    pub time_ns: u64,
    /// Byte offset.
    pub offset_bytes: u64,
    /// Length in bytes (> 0).
    pub size_bytes: u64,
    /// Operation.
    pub op: Op,
    /// Device / disk / ASU / LUN / volume number (0 when the format has none).
    pub stream: u32,
    /// The line's critical flag (the DiskSim format's optional sixth column; false in every
    /// other format).
    pub critical: bool,
}

const SECTOR: u64 = 512;

#[inline]
fn rw(s: &[u8], field: &'static str) -> FieldResult<Op> {
    match s {
        b"R" | b"r" => Ok(Op::Read),
        b"W" | b"w" => Ok(Op::Write),
        _ if s.eq_ignore_ascii_case(b"read") => Ok(Op::Read),
        _ if s.eq_ignore_ascii_case(b"write") => Ok(Op::Write),
        _ => Err(err(
            field,
            format!("unknown operation `{}` (expected R/W or Read/Write)", show(s)),
        )),
    }
}

#[inline]
fn finish(time_ns: u64, offset_bytes: u64, size_bytes: u64, op: Op, stream: u32) -> FieldResult<RawRequest> {
    if offset_bytes.checked_add(size_bytes).is_none() {
        return Err(err("size", "offset + size overflows 64 bits"));
    }
    Ok(RawRequest {
        time_ns,
        offset_bytes,
        size_bytes,
        op,
        stream,
        critical: false,
    })
}

/// Parses one content line (not blank, not a comment, not a header) of `format`, whose time
/// field is in units of `unit_ns` ns. `format` must not be `Auto`.
#[inline]
pub fn parse_line(format: TraceFormat, line: &[u8], unit_ns: u64) -> FieldResult<RawRequest> {
    match format {
        TraceFormat::Disksim => {
            let mut f = Fields::blank(line);
            let t = parse_time(f.need("time")?, unit_ns, "time")?;
            let dev = parse_u32(f.need("device")?, "device")?;
            let lba = parse_u64(f.need("lba")?, "lba")?;
            let sectors = parse_size(f.need("size")?, "size")?;
            let ty = f.need("type")?;
            let op = match ty {
                b"1" => Op::Read,
                b"0" => Op::Write,
                _ => {
                    return Err(err(
                        "type",
                        format!("expected 1 (read) or 0 (write), got `{}`", show(ty)),
                    ))
                }
            };
            let critical = match f.next() {
                None | Some(b"0") => false,
                Some(b"1") => true,
                Some(other) => {
                    return Err(err(
                        "critical",
                        format!("expected 1 (critical) or 0, got `{}`", show(other)),
                    ))
                }
            };
            let raw = finish(t, mul(lba, SECTOR, "lba")?, mul(sectors, SECTOR, "size")?, op, dev)?;
            Ok(RawRequest { critical, ..raw })
        }
        TraceFormat::Msr => {
            let mut f = Fields::csv(line);
            let mut ts = f.need("Timestamp")?;
            // The `index Timestamp` variant: keep the last blank-separated token.
            if let Some(i) = ts.iter().rposition(|&b| b == b' ' || b == b'\t') {
                ts = &ts[i + 1..];
            }
            let t = parse_time(ts, unit_ns, "Timestamp")?;
            f.need("Hostname")?;
            let disk = parse_u32(f.need("DiskNumber")?, "DiskNumber")?;
            let op = rw(f.need("Type")?, "Type")?;
            let offset = parse_u64(f.need("Offset")?, "Offset")?;
            let size = parse_size(f.need("Size")?, "Size")?;
            finish(t, offset, size, op, disk)
        }
        TraceFormat::Spc => {
            let mut f = Fields::csv(line);
            let asu = parse_u32(f.need("ASU")?, "ASU")?;
            let lba = parse_u64(f.need("LBA")?, "LBA")?;
            let size = parse_size(f.need("Size")?, "Size")?;
            let op = rw(f.need("Opcode")?, "Opcode")?;
            let t = parse_time(f.need("Timestamp")?, unit_ns, "Timestamp")?;
            finish(t, mul(lba, SECTOR, "LBA")?, size, op, asu)
        }
        TraceFormat::Systor => {
            let mut f = Fields::csv(line);
            let t = parse_time(f.need("Timestamp")?, unit_ns, "Timestamp")?;
            f.need("Response")?;
            let op = rw(f.need("IOType")?, "IOType")?;
            let lun = parse_u32(f.need("LUN")?, "LUN")?;
            let offset = parse_u64(f.need("Offset")?, "Offset")?;
            let size = parse_size(f.need("Size")?, "Size")?;
            finish(t, offset, size, op, lun)
        }
        TraceFormat::Cloudphysics => {
            let mut f = Fields::csv(line);
            parse_u64(f.need("version")?, "version")?;
            let t = parse_time(f.need("time")?, unit_ns, "time")?;
            let op_field = f.need("op")?;
            let op = match parse_hex_u8(op_field, "op")? {
                0x08 | 0x28 | 0x88 => Op::Read,
                0x0a | 0x2a | 0x8a => Op::Write,
                0x42 => Op::Trim,
                _ => {
                    return Err(err(
                        "op",
                        format!(
                            "unsupported SCSI opcode `{}` (expected 08/28/88 read, 0a/2a/8a write, 42 unmap)",
                            show(op_field)
                        ),
                    ))
                }
            };
            let size = parse_size(f.need("size")?, "size")?;
            let lbn = parse_u64(f.need("lbn")?, "lbn")?;
            finish(t, mul(lbn, SECTOR, "lbn")?, size, op, 0)
        }
        TraceFormat::Alibaba => {
            let mut f = Fields::csv(line);
            let dev = parse_u32(f.need("device_id")?, "device_id")?;
            let op = rw(f.need("opcode")?, "opcode")?;
            let offset = parse_u64(f.need("offset")?, "offset")?;
            let size = parse_size(f.need("length")?, "length")?;
            let t = parse_time(f.need("timestamp")?, unit_ns, "timestamp")?;
            finish(t, offset, size, op, dev)
        }
        TraceFormat::Tencent => {
            let mut f = Fields::csv(line);
            let t = parse_time(f.need("Timestamp")?, unit_ns, "Timestamp")?;
            let offset = parse_u64(f.need("Offset")?, "Offset")?;
            let sectors = parse_size(f.need("Size")?, "Size")?;
            let ty = f.need("IOType")?;
            let op = match ty {
                b"0" => Op::Read,
                b"1" => Op::Write,
                _ => {
                    return Err(err(
                        "IOType",
                        format!("expected 0 (read) or 1 (write), got `{}`", show(ty)),
                    ))
                }
            };
            let vol = parse_u32(f.need("VolumeID")?, "VolumeID")?;
            finish(
                t,
                mul(offset, SECTOR, "Offset")?,
                mul(sectors, SECTOR, "Size")?,
                op,
                vol,
            )
        }
        TraceFormat::Auto => Err(err("format", "internal: parse_line called with format auto")),
    }
}

/// Whether a content line is a header: its first character is a letter (or a quote), and
/// its first field is not a number spelt in letters (`inf`, `infinity`, `nan`), which is a
/// bad time to be named, not a header to skip.
#[inline]
pub fn is_header(line: &[u8]) -> bool {
    let first = line
        .split(|&b| b == b',' || b.is_ascii_whitespace())
        .next()
        .unwrap_or_default();
    let number = [b"inf".as_slice(), b"infinity", b"nan"]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w));
    matches!(line.first(), Some(b) if b.is_ascii_alphabetic() || *b == b'"') && !number
}

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

    fn p(f: TraceFormat, line: &str) -> FieldResult<RawRequest> {
        parse_line(f, line.as_bytes(), f.default_time_unit().ns())
    }

    fn req(time_ns: u64, offset_bytes: u64, size_bytes: u64, op: Op, stream: u32) -> RawRequest {
        RawRequest {
            time_ns,
            offset_bytes,
            size_bytes,
            op,
            stream,
            critical: false,
        }
    }

    #[test]
    fn disksim_lines() {
        // 512 B sectors: lba 280605840 → 143,670,190,080 B; 2 sectors → 1024 B.
        assert_eq!(
            p(TraceFormat::Disksim, "0 0 280605840 2 1"),
            Ok(req(0, 143_670_190_080, 1024, Op::Read, 0))
        );
        assert_eq!(
            p(TraceFormat::Disksim, "938513000 4 264719034 16 0"),
            Ok(req(938_513_000, 135_536_145_408, 8192, Op::Write, 4))
        );
        // Tabs, several blanks, CR and fields past the sixth are fine.
        assert_eq!(
            p(TraceFormat::Disksim, "5\t1  2 3 1 0 99\r"),
            Ok(req(5, 1024, 1536, Op::Read, 1))
        );
        // The sixth field flags the request critical.
        assert_eq!(
            p(TraceFormat::Disksim, "5 1 2 3 0 1"),
            Ok(RawRequest {
                critical: true,
                ..req(5, 1024, 1536, Op::Write, 1)
            })
        );
        assert_eq!(p(TraceFormat::Disksim, "5 1 2 3 0 99").unwrap_err().field, "critical");
        // Millisecond DiskSim traces with a unit override.
        assert_eq!(
            parse_line(TraceFormat::Disksim, b"1.5 0 0 8 1", 1_000_000),
            Ok(req(1_500_000, 0, 4096, Op::Read, 0))
        );
        let e = p(TraceFormat::Disksim, "0 0 1 2").unwrap_err();
        assert_eq!(e.field, "type");
        assert_eq!(p(TraceFormat::Disksim, "0 0 1 0 1").unwrap_err().field, "size");
        assert_eq!(p(TraceFormat::Disksim, "0 0 1 -4 1").unwrap_err().field, "size");
        assert_eq!(p(TraceFormat::Disksim, "0 0 x 4 1").unwrap_err().field, "lba");
        assert_eq!(p(TraceFormat::Disksim, "0 0 1 4 2").unwrap_err().field, "type");
        assert_eq!(
            p(TraceFormat::Disksim, "0 0 36028797018963968 4 1").unwrap_err().field,
            "lba"
        );
    }

    #[test]
    fn msr_lines() {
        let t = 128_166_385_295_514_663u64 * 100;
        let want = req(t, 9_056_014_336, 2048, Op::Write, 0);
        assert_eq!(
            p(TraceFormat::Msr, "128166385295514663,hm,0,Write,9056014336,2048,2833"),
            Ok(want)
        );
        assert_eq!(
            p(TraceFormat::Msr, "0 128166385295514663,hm,0,Write,9056014336,2048,2833"),
            Ok(want)
        );
        assert_eq!(
            p(TraceFormat::Msr, "128166386564253362,hm,3,Read,11926593536,32768,6013"),
            Ok(req(128_166_386_564_253_362 * 100, 11_926_593_536, 32768, Op::Read, 3))
        );
        assert_eq!(p(TraceFormat::Msr, "1,hm,0,Erase,0,512,1").unwrap_err().field, "Type");
        assert_eq!(p(TraceFormat::Msr, "1,hm,0,Read,0").unwrap_err().field, "Size");
        assert_eq!(p(TraceFormat::Msr, "1,hm,0,Read,-5,512,1").unwrap_err().field, "Offset");
    }

    #[test]
    fn spc_lines() {
        // 20941264 sectors × 512 = 10,721,927,168 B; 0.551706 s = 551,706,000 ns.
        assert_eq!(
            p(TraceFormat::Spc, "0,20941264,8192,W,0.551706"),
            Ok(req(551_706_000, 10_721_927_168, 8192, Op::Write, 0))
        );
        assert_eq!(
            p(TraceFormat::Spc, "2, 3, 4096, r, 1.000001, x, y"),
            Ok(req(1_000_001_000, 1536, 4096, Op::Read, 2))
        );
        assert_eq!(p(TraceFormat::Spc, "0,1,4096,X,0.1").unwrap_err().field, "Opcode");
        assert_eq!(p(TraceFormat::Spc, "0,1,4096,R").unwrap_err().field, "Timestamp");
    }

    #[test]
    fn systor_lines() {
        assert_eq!(
            p(TraceFormat::Systor, "1487304000.000123,0.000228,W,4,3941027840,4096"),
            Ok(req(1_487_304_000_000_123_000, 3_941_027_840, 4096, Op::Write, 4))
        );
        // An empty response field is fine: it is not used.
        assert_eq!(
            p(TraceFormat::Systor, "1.5,,R,0,512,512"),
            Ok(req(1_500_000_000, 512, 512, Op::Read, 0))
        );
        assert_eq!(p(TraceFormat::Systor, "1.5,,R,0,512,0").unwrap_err().field, "Size");
    }

    #[test]
    fn cloudphysics_lines() {
        // lbn 42932745 × 512 = 21,981,565,440 B; time 5633898 s.
        assert_eq!(
            p(TraceFormat::Cloudphysics, "1,5633898,2a,512,42932745"),
            Ok(req(5_633_898_000_000_000, 21_981_565_440, 512, Op::Write, 0))
        );
        assert_eq!(
            p(TraceFormat::Cloudphysics, "1,7,28,7680,2"),
            Ok(req(7_000_000_000, 1024, 7680, Op::Read, 0))
        );
        assert_eq!(p(TraceFormat::Cloudphysics, "1,7,88,512,2").unwrap().op, Op::Read);
        assert_eq!(p(TraceFormat::Cloudphysics, "1,7,0A,512,2").unwrap().op, Op::Write);
        assert_eq!(p(TraceFormat::Cloudphysics, "1,7,42,4096,2").unwrap().op, Op::Trim);
        assert_eq!(p(TraceFormat::Cloudphysics, "1,7,35,512,2").unwrap_err().field, "op");
    }

    #[test]
    fn alibaba_and_tencent_lines() {
        assert_eq!(
            p(TraceFormat::Alibaba, "7,R,126703644672,4096,1577808000000123"),
            Ok(req(1_577_808_000_000_123_000, 126_703_644_672, 4096, Op::Read, 7))
        );
        assert_eq!(
            p(TraceFormat::Tencent, "1538323200,2048,16,1,1063"),
            Ok(req(1_538_323_200_000_000_000, 1_048_576, 8192, Op::Write, 1063))
        );
        assert_eq!(
            p(TraceFormat::Tencent, "1538323200,2048,16,2,1063").unwrap_err().field,
            "IOType"
        );
    }

    #[test]
    fn names_round_trip() {
        for f in CONCRETE_FORMATS {
            assert_eq!(f.name().parse::<TraceFormat>().unwrap(), f);
            let json = serde_json::to_string(&f).unwrap();
            assert_eq!(json, format!("\"{}\"", f.name()));
        }
        assert!("csv".parse::<TraceFormat>().is_err());
        for u in [
            TimeUnit::Ns,
            TimeUnit::Us,
            TimeUnit::Ms,
            TimeUnit::S,
            TimeUnit::Ticks100ns,
        ] {
            assert_eq!(u.name().parse::<TimeUnit>().unwrap(), u);
            assert_eq!(serde_json::to_string(&u).unwrap(), format!("\"{}\"", u.name()));
        }
    }

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
