//! Streaming trace readers: one reused line buffer, constant memory, times rebased so the
//! first request arrives at 0.

use super::detect::{resolve_format, sniff};
use super::disksim_fast;
use super::format::{RawRequest, TimeUnit, TraceFormat};
use super::parse::trim;
use super::trace_line::{is_header, parse_line};
use crate::error::{NandError, Result};
use crate::host::request::Request;
use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, Read};

/// The simulation clock's end (the FTL keeps signed 64-bit ns): an arrival at or past it
/// cannot be simulated (`host::time_scale` refuses a scaled arrival there too).
pub(super) const CLOCK_END_NS: u64 = 1 << 63;

/// Read-buffer size of file readers.
const BUF_BYTES: usize = 256 * 1024;

/// The longest line read (bytes): trace lines are tens of bytes, so a longer one means a
/// file that is not a trace (a binary file has no newline for gigabytes), and reading it
/// whole would take that much memory.
pub const MAX_LINE_BYTES: u64 = 64 * 1024;

/// The error for a line longer than [`MAX_LINE_BYTES`].
pub(super) fn long_line(name: &str, line_no: u64) -> NandError {
    NandError::parse(
        name,
        line_no,
        format!("line longer than {MAX_LINE_BYTES} bytes (not a trace?); lines are read up to that length"),
    )
}

/// How a trace is read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TraceOptions {
    /// Unit of the time field; `None` = the format's default.
    pub time_unit: Option<TimeUnit>,
    /// Stop after this many requests (after the stream filter).
    pub max_requests: Option<u64>,
    /// Keep only requests of this device / disk / ASU / LUN / volume number.
    pub stream: Option<u32>,
}

/// A streaming reader of one trace file (or any [`BufRead`]), yielding [`Request`]s.
///
/// Blank lines, `#` comments and one header line (a first content line that starts with a
/// letter) are skipped. Times are rebased so the first yielded request arrives at 0; a time
/// earlier than the first request's becomes 0 (times that go backwards are kept otherwise).
/// The first bad line ends the stream with an error naming `file:line` and the field; so
/// does a line longer than [`MAX_LINE_BYTES`]. A stream that ends before its first request
/// (an empty trace, or no request of the chosen `stream`) ends with an error too.
pub struct TraceReader<R> {
    name: String,
    src: R,
    buf: Vec<u8>,
    line_no: u64,
    format: TraceFormat,
    unit: TimeUnit,
    seen_content: bool,
    base_ns: Option<u64>,
    shift_ns: u64,
    limit: u64,
    emitted: u64,
    stream: Option<u32>,
    done: bool,
}

impl TraceReader<BufReader<File>> {
    /// Opens the trace file at `path` (`format` `Auto` detects it).
    pub fn open(path: &str, format: TraceFormat, opts: &TraceOptions) -> Result<Self> {
        let format = resolve_format(path, format)?;
        let file = File::open(path).map_err(|e| NandError::io(path, e))?;
        Ok(Self::from_reader(
            path,
            BufReader::with_capacity(BUF_BYTES, file),
            format,
            opts,
        ))
    }
}

impl TraceReader<Cursor<Vec<u8>>> {
    /// A reader over bytes in memory (tests, fuzzing); `format` `Auto` detects it.
    pub fn from_bytes(name: &str, bytes: Vec<u8>, format: TraceFormat, opts: &TraceOptions) -> Result<Self> {
        let format = match format {
            TraceFormat::Auto => sniff(&bytes, name)?,
            f => f,
        };
        Ok(Self::from_reader(name, Cursor::new(bytes), format, opts))
    }
}

impl<R: BufRead> TraceReader<R> {
    /// A reader over `src`, named `name` in errors. `format` must be a concrete format (an
    /// `Auto` here reads as DiskSim ASCII; use [`TraceReader::open`] to detect).
    pub fn from_reader(name: &str, src: R, format: TraceFormat, opts: &TraceOptions) -> Self {
        let format = if format == TraceFormat::Auto {
            TraceFormat::Disksim
        } else {
            format
        };
        TraceReader {
            name: name.to_string(),
            src,
            buf: Vec::with_capacity(256),
            line_no: 0,
            format,
            unit: opts.time_unit.unwrap_or_else(|| format.default_time_unit()),
            seen_content: false,
            base_ns: None,
            shift_ns: 0,
            limit: opts.max_requests.unwrap_or(u64::MAX),
            emitted: 0,
            stream: opts.stream,
            done: false,
        }
    }

    /// Adds `shift_ns` to every arrival (used to lay copies of a trace back to back).
    pub fn with_shift(mut self, shift_ns: u64) -> Self {
        self.shift_ns = shift_ns;
        self
    }

    /// The (resolved) format being read.
    pub fn format(&self) -> TraceFormat {
        self.format
    }

    /// The unit of the time field.
    pub fn time_unit(&self) -> TimeUnit {
        self.unit
    }

    /// Lines read so far (1-based number of the last line read).
    pub fn line(&self) -> u64 {
        self.line_no
    }

    /// The trace time (ns, absolute) that arrival 0 corresponds to, once known.
    pub fn base_ns(&self) -> Option<u64> {
        self.base_ns
    }

    fn no_requests(&self) -> NandError {
        NandError::Invalid(match self.stream {
            Some(s) => format!("{}: no requests of stream {s} (workload.stream)", self.name),
            None => format!("{}: the trace has no requests", self.name),
        })
    }
}

impl<R: BufRead> TraceReader<R> {
    /// The next content line's request, time not yet rebased; `None` at the end of the
    /// input. A plain DiskSim line past the first content line is read in place from the
    /// input's buffer ([`disksim_fast`]); any other line is copied out and parsed field by
    /// field, with the same value or the error naming the field.
    #[inline]
    fn next_raw(&mut self, unit_ns: u64) -> Option<Result<RawRequest>> {
        if self.seen_content && self.format == TraceFormat::Disksim {
            // A read error here is met again, and reported, by `read_until` below.
            if let Ok(buf) = self.src.fill_buf() {
                if let Some((raw, n)) = disksim_fast::line(buf, unit_ns) {
                    self.src.consume(n);
                    self.line_no += 1;
                    return Some(Ok(raw));
                }
            }
        }
        loop {
            self.buf.clear();
            match self
                .src
                .by_ref()
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut self.buf)
            {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => return Some(Err(NandError::io(&self.name, e))),
            }
            self.line_no += 1;
            if self.buf.len() as u64 > MAX_LINE_BYTES {
                return Some(Err(long_line(&self.name, self.line_no)));
            }
            let mut line = trim(&self.buf);
            if self.line_no == 1 {
                if let Some(rest) = line.strip_prefix(b"\xEF\xBB\xBF".as_slice()) {
                    line = trim(rest);
                }
            }
            if line.is_empty() || line[0] == b'#' {
                continue;
            }
            if !self.seen_content {
                self.seen_content = true;
                if is_header(line) {
                    continue;
                }
            }
            return Some(
                parse_line(self.format, line, unit_ns).map_err(|e| NandError::parse(&self.name, self.line_no, e)),
            );
        }
    }
}

impl<R: BufRead> Iterator for TraceReader<R> {
    type Item = Result<Request>;

    fn next(&mut self) -> Option<Result<Request>> {
        if self.done || self.emitted >= self.limit {
            return None;
        }
        let unit_ns = self.unit.ns();
        loop {
            let raw = match self.next_raw(unit_ns) {
                Some(Ok(raw)) => raw,
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(e));
                }
                None => {
                    self.done = true;
                    return (self.emitted == 0).then(|| Err(self.no_requests()));
                }
            };
            if let Some(s) = self.stream {
                if raw.stream != s {
                    continue;
                }
            }
            let base = *self.base_ns.get_or_insert(raw.time_ns);
            let arrival_ns = match raw.time_ns.saturating_sub(base).checked_add(self.shift_ns) {
                Some(t) if t < CLOCK_END_NS => t,
                _ => {
                    self.done = true;
                    return Some(Err(NandError::parse(
                        &self.name,
                        self.line_no,
                        "arrival time past the end of the clock (2^63 ns after the first request, about 292 years)",
                    )));
                }
            };
            self.emitted += 1;
            return Some(Ok(Request {
                arrival_ns,
                offset_bytes: raw.offset_bytes,
                size_bytes: raw.size_bytes,
                op: raw.op,
                stream: raw.stream,
                critical: raw.critical,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::request::Op;

    fn read(name: &str, text: &str, format: TraceFormat, opts: TraceOptions) -> Vec<Result<Request>> {
        TraceReader::from_bytes(name, text.as_bytes().to_vec(), format, &opts)
            .unwrap()
            .collect()
    }

    fn r(arrival_ns: u64, offset_bytes: u64, size_bytes: u64, op: Op, stream: u32) -> Request {
        Request::new(arrival_ns, offset_bytes, size_bytes, op, stream)
    }

    #[test]
    fn rebases_skips_comments_blank_and_header() {
        let text = "# a comment\n\n  \nversion,time,op,size,lbn\r\n1,100,28,4096,8\r\n1,101,2a,512,0\n1,99,42,1024,16";
        let got: Vec<Request> = read("cp.csv", text, TraceFormat::Auto, TraceOptions::default())
            .into_iter()
            .map(|x| x.unwrap())
            .collect();
        assert_eq!(
            got,
            vec![
                r(0, 4096, 4096, Op::Read, 0),
                r(1_000_000_000, 0, 512, Op::Write, 0),
                // Goes back in time before the first request: clamped to 0.
                r(0, 8192, 1024, Op::Trim, 0),
            ]
        );
    }

    #[test]
    fn an_arrival_past_the_end_of_the_clock_is_refused_at_its_line() {
        // 2^63 − 1 ns after the first request is the clock's last instant; 2^63 and
        // 2^64 − 1 (the largest time a line can hold) are past it.
        let last = "0 0 0 1 1\n9223372036854775807 0 8 1 1\n";
        let got = read("t.trace", last, TraceFormat::Disksim, TraceOptions::default());
        assert_eq!(got[1].as_ref().unwrap().arrival_ns, (1 << 63) - 1);
        for t in ["9223372036854775808", "18446744073709551615"] {
            let text = format!("0 0 0 1 1\n{t} 0 8 1 1\n");
            let got = read("t.trace", &text, TraceFormat::Disksim, TraceOptions::default());
            assert_eq!(got.len(), 2, "{t}");
            assert_eq!(
                got[1].as_ref().unwrap_err().to_string(),
                "t.trace:2: arrival time past the end of the clock (2^63 ns after the first request, about 292 years)"
            );
        }
        // Rebased: a trace that starts late is measured from its first request.
        let text = "18446744073709551614 0 0 1 1\n18446744073709551615 0 8 1 1\n";
        let got = read("t.trace", text, TraceFormat::Disksim, TraceOptions::default());
        assert_eq!(got[1].as_ref().unwrap().arrival_ns, 1);
    }

    #[test]
    fn time_unit_override_and_limits() {
        let text = "10 0 0 1 1\n12.5 1 8 1 0\n20 0 16 2 1\n30 1 24 2 1\n";
        let opts = TraceOptions {
            time_unit: Some(TimeUnit::Ms),
            ..Default::default()
        };
        let got: Vec<u64> = read("t.trace", text, TraceFormat::Disksim, opts)
            .into_iter()
            .map(|x| x.unwrap().arrival_ns)
            .collect();
        assert_eq!(got, vec![0, 2_500_000, 10_000_000, 20_000_000]);
        let opts = TraceOptions {
            max_requests: Some(2),
            ..Default::default()
        };
        assert_eq!(read("t.trace", text, TraceFormat::Disksim, opts).len(), 2);
        // Stream filter: device 1 only, rebased to its own first request (12.5 ns → 12 ns, the
        // fraction of a ns is truncated, → arrival 0; 30 ns → 18).
        let opts = TraceOptions {
            stream: Some(1),
            ..Default::default()
        };
        let got: Vec<Request> = read("t.trace", text, TraceFormat::Disksim, opts)
            .into_iter()
            .map(|x| x.unwrap())
            .collect();
        assert_eq!(
            got,
            vec![r(0, 4096, 512, Op::Write, 1), r(18, 12288, 1024, Op::Read, 1)]
        );
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let cases: &[(TraceFormat, &str, &str)] = &[
            (TraceFormat::Disksim, "0 0 1 8 1\n# c\n5 0 1 8\n", "field `type`"),
            (TraceFormat::Disksim, "0 0 1 8 1\n\n5 0 x 8 1\n", "field `lba`"),
            (TraceFormat::Disksim, "0 0 1 8 1\n\n5 0 1 -8 1\n", "negative"),
            (TraceFormat::Disksim, "0 0 1 8 1\n\n5 0 1 8 3\n", "field `type`"),
            (
                TraceFormat::Msr,
                "1,h,0,Read,0,512,1\n\n2,h,0,Flush,0,512,1\n",
                "field `Type`",
            ),
            (
                TraceFormat::Msr,
                "1,h,0,Read,0,512,1\n\n2,h,0,Read,0,-512,1\n",
                "field `Size`",
            ),
            (TraceFormat::Spc, "0,1,512,R,0.5\n\n0,1,0,R,0.6\n", "field `Size`"),
            (
                TraceFormat::Spc,
                "0,1,512,R,0.5\n\n0,1,512,R,abc\n",
                "field `Timestamp`",
            ),
            (
                TraceFormat::Systor,
                "1.0,0,R,0,0,512\n\n1.1,0,Q,0,0,512\n",
                "field `IOType`",
            ),
            (TraceFormat::Systor, "1.0,0,R,0,0,512\n\n1.1,0,R,0\n", "field `Offset`"),
            (
                TraceFormat::Cloudphysics,
                "1,1,28,512,0\n\n1,2,ff,512,0\n",
                "field `op`",
            ),
            (TraceFormat::Cloudphysics, "1,1,28,512,0\n\n1,2,28,512\n", "field `lbn`"),
            (
                TraceFormat::Alibaba,
                "0,R,0,512,1\n\n0,R,0,512,-1\n",
                "field `timestamp`",
            ),
            (TraceFormat::Tencent, "1,0,1,0,0\n\n2,0,1,5,0\n", "field `IOType`"),
        ];
        for (fmt, text, want) in cases {
            let got = read("bad-trace.txt", text, *fmt, TraceOptions::default());
            assert_eq!(got.len(), 2, "{fmt}: {got:?}");
            assert!(got[0].is_ok());
            let e = got[1].as_ref().unwrap_err().to_string();
            assert!(e.starts_with("bad-trace.txt:3: "), "{fmt}: {e}");
            assert!(e.contains(want), "{fmt}: {e}");
            assert_eq!(e.lines().count(), 1);
        }
    }

    #[test]
    fn only_the_first_content_line_may_be_a_header() {
        let got = read("t", "a b c\nd e f\n", TraceFormat::Disksim, TraceOptions::default());
        assert_eq!(got.len(), 1);
        assert!(got[0]
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("t:2: field `time`"));
    }

    #[test]
    fn a_trace_without_requests_is_an_error() {
        for text in ["", "# only a comment\n\n", "time dev lba size type\n"] {
            let got = read("e.trace", text, TraceFormat::Disksim, TraceOptions::default());
            assert_eq!(got.len(), 1, "{text:?}");
            assert_eq!(
                got[0].as_ref().unwrap_err().to_string(),
                "e.trace: the trace has no requests"
            );
        }
        let opts = TraceOptions {
            stream: Some(7),
            ..Default::default()
        };
        let got = read("e.trace", "0 0 0 1 1\n", TraceFormat::Disksim, opts);
        assert_eq!(
            got[0].as_ref().unwrap_err().to_string(),
            "e.trace: no requests of stream 7 (workload.stream)"
        );
    }

    #[test]
    fn a_line_longer_than_the_cap_is_an_error_after_reading_only_the_cap() {
        // One good line, then MAX_LINE_BYTES + 1 NUL bytes with no newline: the error names
        // line 2 and the reader has taken MAX_LINE_BYTES + 1 bytes of it, not the rest.
        let mut bytes = b"0 0 0 1 1\n".to_vec();
        bytes.resize(bytes.len() + 3 * MAX_LINE_BYTES as usize, 0);
        let mut rd = TraceReader::from_bytes("z.trace", bytes, TraceFormat::Disksim, &TraceOptions::default()).unwrap();
        assert!(rd.next().unwrap().is_ok());
        let e = rd.next().unwrap().unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "z.trace:2: line longer than {MAX_LINE_BYTES} bytes (not a trace?); lines are read up to that length"
            )
        );
        assert_eq!(rd.src.position(), 10 + MAX_LINE_BYTES + 1);
        assert!(rd.next().is_none());
        // A line of exactly the cap is read.
        let mut line = b"0 0 0 1 1".to_vec();
        line.resize(MAX_LINE_BYTES as usize - 1, b' ');
        line.push(b'\n');
        let got: Vec<_> = TraceReader::from_bytes("ok.trace", line, TraceFormat::Disksim, &TraceOptions::default())
            .unwrap()
            .collect();
        assert_eq!(got.len(), 1);
        assert!(got[0].is_ok());
    }

    /// Everything a reader yields — values, errors, their line numbers — as strings.
    fn read_with_capacity(text: &[u8], capacity: usize, opts: &TraceOptions) -> Vec<String> {
        let src = std::io::BufReader::with_capacity(capacity, Cursor::new(text.to_vec()));
        TraceReader::from_reader("p.trace", src, TraceFormat::Disksim, opts)
            .map(|r| match r {
                Ok(q) => format!("{q:?}"),
                Err(e) => e.to_string(),
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 500, ..Default::default() })]

        /// A one-byte buffer never holds a whole line, so it reads every line the general
        /// way: any buffer size gives the same stream, plain lines (read in place) mixed
        /// with comments, blank, CRLF, decimal, long and bad lines.
        #[test]
        fn the_in_place_path_reads_as_the_general_one(
            lines in proptest::collection::vec(
                proptest::prop_oneof![
                    "[0-9]{1,6} [0-9] [0-9]{1,9} [0-9]{1,4} [01]( [01])?",
                    "[0-9]{1,3}(\\.[0-9]{0,3})?[ \t]{1,2}[0-9]{1,2} [0-9]{1,4}\t[0-9]{1,3} [01]\r?",
                    "[0-9 \t\r.x#-]{0,24}",
                ],
                1..30,
            ),
            capacity in 2usize..96,
            unit in proptest::prop_oneof![proptest::prelude::Just(None), proptest::prelude::Just(Some(TimeUnit::Ms))],
        ) {
            let text = lines.join("\n").into_bytes();
            let opts = TraceOptions { time_unit: unit, ..Default::default() };
            let want = read_with_capacity(&text, 1, &opts);
            proptest::prop_assert_eq!(&read_with_capacity(&text, capacity, &opts), &want);
            proptest::prop_assert_eq!(&read_with_capacity(&text, BUF_BYTES, &opts), &want);
        }
    }
}
