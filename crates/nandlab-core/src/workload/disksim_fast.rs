//! The DiskSim line fast path: one pass over a plain line straight from the reader's
//! buffer — five or six blank-separated integer fields and the newline — with no line copy,
//! no field slicing and no trimming.
//!
//! It answers only for a line it can parse without doubt and gives up (`None`) on anything
//! else: a decimal or exponent time, a number of 20 or more digits, a value the general
//! parser would reject (size 0, a device past `u32`, a product that overflows), a seventh
//! field, a comment, a blank line, a line longer than [`MAX_LINE_BYTES`], or a line whose
//! newline is not in the buffer yet. The reader then reads that line the general way
//! ([`parse_line`](super::trace_line::parse_line)), which gives the same value or the error
//! naming the field, so the fast path changes no result and no message.

use super::format::RawRequest;
use super::reader::MAX_LINE_BYTES;
use crate::host::request::Op;

/// Bytes per DiskSim sector.
const SECTOR: u64 = 512;

/// The most digits a number may have here: 19 digits cannot overflow a `u64`.
const MAX_DIGITS: usize = 19;

/// A position in the buffer.
struct Scan<'a> {
    buf: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    /// A field of 1 to 19 decimal digits.
    #[inline(always)]
    fn number(&mut self) -> Option<u64> {
        let start = self.i;
        let mut v: u64 = 0;
        while let Some(&b) = self.buf.get(self.i) {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            // Wrapping: a 20th digit makes the whole field fall back below, unused.
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
            self.i += 1;
        }
        let n = self.i - start;
        (n > 0 && n <= MAX_DIGITS).then_some(v)
    }

    /// A one-byte field `0` or `1` (the separator after it is checked by [`Scan::sep`]).
    #[inline(always)]
    fn bit(&mut self) -> Option<bool> {
        let v = match self.buf.get(self.i) {
            Some(b'0') => false,
            Some(b'1') => true,
            _ => return None,
        };
        self.i += 1;
        Some(v)
    }

    /// What follows a field: `Some(true)` = blanks, then another field; `Some(false)` = the
    /// end of the line (blanks and CRs, then the newline, consumed); `None` = anything
    /// else (the field runs on, or the buffer ends first).
    #[inline(always)]
    fn sep(&mut self) -> Option<bool> {
        let start = self.i;
        while let Some(b' ' | b'\t') = self.buf.get(self.i) {
            self.i += 1;
        }
        match self.buf.get(self.i)? {
            b'\n' => {
                self.i += 1;
                Some(false)
            }
            b'\r' => {
                while let Some(b' ' | b'\t' | b'\r') = self.buf.get(self.i) {
                    self.i += 1;
                }
                if self.buf.get(self.i) == Some(&b'\n') {
                    self.i += 1;
                    Some(false)
                } else {
                    None
                }
            }
            _ => (self.i > start).then_some(true),
        }
    }

    /// A separator that must lead to another field.
    #[inline(always)]
    fn more(&mut self) -> Option<()> {
        self.sep()?.then_some(())
    }
}

/// Parses the DiskSim line at the start of `buf` (time in units of `unit_ns` ns): the
/// request and the bytes the line takes with its newline, or `None` where the general
/// parser must decide.
#[inline]
pub fn line(buf: &[u8], unit_ns: u64) -> Option<(RawRequest, usize)> {
    let mut s = Scan { buf, i: 0 };
    let time = s.number()?;
    s.more()?;
    let device = s.number()?;
    s.more()?;
    let lba = s.number()?;
    s.more()?;
    let sectors = s.number()?;
    s.more()?;
    let op = if s.bit()? { Op::Read } else { Op::Write };
    let critical = if s.sep()? {
        let c = s.bit()?;
        if s.sep()? {
            return None;
        }
        c
    } else {
        false
    };
    if s.i as u64 > MAX_LINE_BYTES || sectors == 0 {
        return None;
    }
    let offset_bytes = lba.checked_mul(SECTOR)?;
    let size_bytes = sectors.checked_mul(SECTOR)?;
    offset_bytes.checked_add(size_bytes)?;
    let raw = RawRequest {
        time_ns: time.checked_mul(unit_ns)?,
        offset_bytes,
        size_bytes,
        op,
        stream: u32::try_from(device).ok()?,
        critical,
    };
    Some((raw, s.i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::format::TraceFormat;
    use crate::workload::parse::trim;
    use crate::workload::trace_line::parse_line;
    use proptest::prelude::*;

    fn general(line: &[u8], unit_ns: u64) -> Option<RawRequest> {
        parse_line(TraceFormat::Disksim, trim(line), unit_ns).ok()
    }

    #[test]
    fn plain_lines_and_what_they_take() {
        // 97900000 ns; LBA 287641400 × 512 B; 128 sectors × 512 B; read.
        let (r, n) = line(b"97900000 0 287641400 128 1\nnext", 1).unwrap();
        assert_eq!(n, 27);
        assert_eq!(
            r,
            RawRequest {
                time_ns: 97_900_000,
                offset_bytes: 147_272_396_800,
                size_bytes: 65_536,
                op: Op::Read,
                stream: 0,
                critical: false,
            }
        );
        // Tabs, a critical flag, CRLF; time in ms.
        let (r, n) = line(b"12\t3  8 1 0 1 \r\n", 1_000_000).unwrap();
        assert_eq!(n, 16);
        assert_eq!(
            (r.time_ns, r.stream, r.offset_bytes, r.size_bytes),
            (12_000_000, 3, 4096, 512)
        );
        assert_eq!((r.op, r.critical), (Op::Write, true));
    }

    #[test]
    fn gives_up_where_the_general_parser_decides() {
        for text in [
            &b"0 0 1 8 1"[..],                 // no newline in the buffer yet
            b"0.5 0 1 8 1\n",                  // decimal time
            b"1e3 0 1 8 1\n",                  // exponent
            b"0 0 1 0 1\n",                    // size 0
            b"0 4294967296 1 8 1\n",           // device past u32
            b"0 0 36028797018963968 8 1\n",    // LBA × 512 overflows
            b"0 0 1 8 1 1 7\n",                // a seventh field
            b"0 0 1 8 2\n",                    // bad type
            b"0 0 1 8 10\n",                   // two-byte type
            b"0 0 1 8 1 x\n",                  // bad flag
            b"# comment\n",                    //
            b"\n",                             //
            b" 0 0 1 8 1\n",                   // leading blank
            b"0 0 1 8 1\r 1\n",                // CR inside the line
            b"00000000000000000000 0 1 8 1\n", // 20 digits
            b"18446744073709551615 0 1 8 1\n", // 20 digits
            b"0 0 1 8\n",                      // too few fields
        ] {
            assert_eq!(line(text, 1), None, "{}", String::from_utf8_lossy(text));
        }
        // A line of more than MAX_LINE_BYTES (its blanks) falls back too.
        let mut long = b"0 0 1 8".to_vec();
        long.resize(MAX_LINE_BYTES as usize, b' ');
        long.extend_from_slice(b"1\n");
        assert_eq!(line(&long, 1), None);
        assert!(general(&long, 1).is_some());
    }

    fn blanks() -> impl Strategy<Value = String> {
        "[ \t]{1,3}"
    }

    fn number() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u64..1000).prop_map(|v| v.to_string()),
            any::<u64>().prop_map(|v| v.to_string()),
            (0u64..1 << 40, 0usize..4).prop_map(|(v, z)| format!("{}{v}", "0".repeat(z))),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Lines the fast path reads give the general parser's value; valid lines of at
        /// most 19-digit numbers are all read.
        #[test]
        fn valid_lines_parse_as_the_general_parser_does(
            fields in proptest::collection::vec(number(), 4),
            ty in 0u8..2,
            flag in proptest::option::of(0u8..2),
            seps in proptest::collection::vec(blanks(), 5),
            end in prop_oneof![Just(""), Just(" "), Just("\r"), Just(" \t\r")],
            unit_ns in prop_oneof![Just(1u64), Just(100), Just(1_000), Just(1_000_000), Just(1_000_000_000)],
        ) {
            let mut text = String::new();
            for (f, s) in fields.iter().zip(&seps) {
                text.push_str(f);
                text.push_str(s);
            }
            text.push_str(&ty.to_string());
            if let Some(c) = flag {
                text.push_str(&seps[4]);
                text.push_str(&c.to_string());
            }
            text.push_str(end);
            text.push('\n');
            let bytes = text.as_bytes();
            let want = general(bytes, unit_ns);
            match line(bytes, unit_ns) {
                Some((got, n)) => {
                    prop_assert_eq!(Some(got), want);
                    prop_assert_eq!(n, bytes.len());
                }
                None => {
                    // Only a value the general parser refuses, or a number of 20 digits.
                    prop_assert!(want.is_none() || fields.iter().any(|f| f.len() > MAX_DIGITS));
                }
            }
        }

        /// Any bytes: the fast path never panics, and what it reads the general parser reads
        /// the same, up to the newline it reports.
        #[test]
        fn garbage_falls_back_or_agrees(text in "[0-9 \t\r\n.x#-]{0,40}", unit_ns in 1u64..2_000_000_000) {
            let bytes = text.as_bytes();
            if let Some((got, n)) = line(bytes, unit_ns) {
                prop_assert_eq!(bytes[n - 1], b'\n');
                prop_assert!(!bytes[..n - 1].contains(&b'\n'));
                prop_assert_eq!(Some(got), general(&bytes[..n], unit_ns));
            }
        }
    }
}
