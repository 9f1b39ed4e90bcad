//! One line of a block trace: the per-format parsers, and what counts as a header.

use super::format::{RawRequest, TraceFormat};
use super::parse::{err, mul, parse_hex_u8, parse_size, parse_time, parse_u32, parse_u64, show, FieldResult, Fields};
use crate::host::request::Op;

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
}
