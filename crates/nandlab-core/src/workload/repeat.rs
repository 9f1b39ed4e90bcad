//! A trace replayed several times back to back (`workload.repeat`), parsed once when its
//! requests fit in [`KEEP_REQUESTS`].

use super::detect::resolve_format;
use super::format::TraceFormat;
use super::reader::{TraceOptions, TraceReader, CLOCK_END_NS};
use crate::error::{NandError, Result};
use crate::host::request::Request;
use std::fs::File;
use std::io::BufReader;

/// The most requests of the first copy kept in memory for the next copies: 2^18 requests
/// of 32 bytes, 8 MiB — the reader thread's own batches hold 16,384 requests, and the
/// benchmark traces have 127,043 (DTRS) and 24,783 (wsrch). A longer trace is re-read for
/// each copy, so memory stays bounded whatever the trace's length.
pub const KEEP_REQUESTS: usize = 1 << 18;

/// A trace file replayed `copies` times back to back; copy k is shifted by k × (the trace's
/// duration + its mean inter-arrival gap).
///
/// The first copy is read from the file; when it has at most [`KEEP_REQUESTS`] requests
/// they are kept and the next copies are those requests shifted, without parsing the file
/// again. Otherwise, or when a copy's shift could put an arrival past the end of the clock
/// (2^63 ns; the file then names the line), the file is re-read for the copy. Either way the requests are the same.
pub struct RepeatedTrace {
    path: String,
    format: TraceFormat,
    opts: TraceOptions,
    copies: u64,
    copy: u64,
    cur: TraceReader<BufReader<File>>,
    count: u64,
    last_ns: u64,
    max_ns: u64,
    period_ns: u64,
    /// The first copy's requests while they fit in `keep_max`; `None` once they do not.
    kept: Option<Vec<Request>>,
    keep_max: usize,
    /// The current copy comes from `kept` (at `pos`, shifted by `shift_ns`), not the file.
    from_memory: bool,
    pos: usize,
    shift_ns: u64,
    done: bool,
}

impl RepeatedTrace {
    /// Opens `path` to be replayed `copies` (≥ 1) times.
    pub fn open(path: &str, format: TraceFormat, opts: &TraceOptions, copies: u64) -> Result<Self> {
        let format = resolve_format(path, format)?;
        let cur = TraceReader::open(path, format, opts)?;
        let copies = copies.max(1);
        Ok(RepeatedTrace {
            path: path.to_string(),
            format,
            opts: *opts,
            copies,
            copy: 0,
            cur,
            count: 0,
            last_ns: 0,
            max_ns: 0,
            period_ns: 0,
            kept: (copies > 1).then(Vec::new),
            keep_max: KEEP_REQUESTS,
            from_memory: false,
            pos: 0,
            shift_ns: 0,
            done: false,
        })
    }

    /// The shift between copies once the first copy has been read (duration + mean gap).
    pub fn period_ns(&self) -> Option<u64> {
        (self.copy > 0).then_some(self.period_ns)
    }

    /// Notes a request of the first copy.
    fn first_copy(&mut self, r: &Request) {
        self.count += 1;
        self.last_ns = r.arrival_ns;
        self.max_ns = self.max_ns.max(r.arrival_ns);
        if let Some(kept) = &mut self.kept {
            if kept.len() < self.keep_max {
                kept.push(*r);
            } else {
                self.kept = None;
            }
        }
    }

    /// Starts the next copy; `Err` ends the stream with that error, `Ok(false)` ends it.
    fn next_copy(&mut self) -> Result<bool> {
        // The first copy has requests: a trace without any ends in an error.
        if self.copy == 0 {
            let mean_gap = if self.count > 1 {
                self.last_ns / (self.count - 1)
            } else {
                0
            };
            self.period_ns = self.max_ns.saturating_add(mean_gap);
        }
        self.copy += 1;
        if self.copy >= self.copies {
            return Ok(false);
        }
        let shift = self.period_ns.checked_mul(self.copy).ok_or_else(|| {
            NandError::Invalid(format!(
                "{}: repeating the trace {} times overflows 64 bits of ns",
                self.path, self.copies
            ))
        })?;
        // Every kept arrival is at most `max_ns`, so the shifted ones stay on the clock.
        self.from_memory = self.kept.is_some() && self.max_ns.checked_add(shift).is_some_and(|t| t < CLOCK_END_NS);
        if self.from_memory {
            self.pos = 0;
            self.shift_ns = shift;
        } else {
            self.cur = TraceReader::open(&self.path, self.format, &self.opts)?.with_shift(shift);
        }
        Ok(true)
    }
}

impl Iterator for RepeatedTrace {
    type Item = Result<Request>;

    fn next(&mut self) -> Option<Result<Request>> {
        loop {
            if self.done {
                return None;
            }
            if self.from_memory {
                if let Some(r) = self.kept.as_ref().and_then(|k| k.get(self.pos)) {
                    self.pos += 1;
                    return Some(Ok(Request {
                        arrival_ns: r.arrival_ns + self.shift_ns,
                        ..*r
                    }));
                }
            } else {
                match self.cur.next() {
                    Some(Ok(r)) => {
                        if self.copy == 0 {
                            self.first_copy(&r);
                        }
                        return Some(Ok(r));
                    }
                    Some(Err(e)) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                    None => {}
                }
            }
            match self.next_copy() {
                Ok(true) => {}
                Ok(false) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory for one test's trace.
    fn dir(test: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("nandlab-wl-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn arrivals(rep: RepeatedTrace) -> Vec<u64> {
        rep.map(|x| x.unwrap().arrival_ns).collect()
    }

    #[test]
    fn repeat_shifts_copies_by_duration_plus_mean_gap() {
        let dir = dir("repeat");
        let path = dir.join("r.trace");
        // Arrivals 0, 10, 40 ns: duration 40, mean gap 40 / 2 = 20 → period 60 ns.
        std::fs::write(&path, "100 0 0 1 1\n110 0 1 1 0\n140 0 2 1 1\n").unwrap();
        let p = path.to_str().unwrap();
        let rep = RepeatedTrace::open(p, TraceFormat::Auto, &TraceOptions::default(), 3).unwrap();
        assert_eq!(arrivals(rep), vec![0, 10, 40, 60, 70, 100, 120, 130, 160]);
        let opts = TraceOptions {
            max_requests: Some(2),
            ..Default::default()
        };
        // Two requests per copy: 0, 10 → duration 10, gap 10, period 20.
        let rep = RepeatedTrace::open(p, TraceFormat::Disksim, &opts, 2).unwrap();
        assert_eq!(arrivals(rep), vec![0, 10, 20, 30]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_file_is_parsed_once_when_its_requests_fit() {
        let dir = dir("repeat-once");
        let path = dir.join("r.trace");
        let p = path.to_str().unwrap();
        for keep_max in [3, 2] {
            std::fs::write(&path, "100 0 0 1 1\n110 0 1 1 0\n140 0 2 1 1\n").unwrap();
            let mut rep = RepeatedTrace::open(p, TraceFormat::Disksim, &TraceOptions::default(), 3).unwrap();
            rep.keep_max = keep_max;
            let first: Vec<Request> = rep.by_ref().take(3).map(|r| r.unwrap()).collect();
            // The file changes once the first copy is read: kept requests do not see it, a
            // re-read (three requests do not fit in two) does.
            std::fs::write(&path, "0 0 5 1 1\n1 0 6 1 1\n").unwrap();
            let rest: Vec<Request> = rep.map(|r| r.unwrap()).collect();
            if keep_max == 3 {
                let want: Vec<Request> = [60, 120]
                    .iter()
                    .flat_map(|&s| {
                        first.iter().map(move |r| Request {
                            arrival_ns: r.arrival_ns + s,
                            ..*r
                        })
                    })
                    .collect();
                assert_eq!(rest, want);
            } else {
                let got: Vec<(u64, u64)> = rest.iter().map(|r| (r.arrival_ns, r.offset_bytes)).collect();
                assert_eq!(got, vec![(60, 2560), (61, 3072), (120, 2560), (121, 3072)]);
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_shift_past_the_clock_is_read_from_the_file_and_named_there() {
        let dir = dir("repeat-overflow");
        let path = dir.join("o.trace");
        // Arrivals 0 and 5e18 ns: the period is 5e18 + 5e18 (the mean gap) = 1e19 ns, past
        // the clock's end (2^63 ≈ 9.22e18 ns), so the second copy's first arrival is refused
        // at line 1 of the file.
        std::fs::write(&path, "0 0 0 1 1\n5000000000000000000 0 1 1 1\n").unwrap();
        let p = path.to_str().unwrap();
        let got: Vec<Result<Request>> = RepeatedTrace::open(p, TraceFormat::Disksim, &TraceOptions::default(), 2)
            .unwrap()
            .collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[1].as_ref().unwrap().arrival_ns, 5_000_000_000_000_000_000);
        assert_eq!(
            got[2].as_ref().unwrap_err().to_string(),
            format!("{p}:1: arrival time past the end of the clock (2^63 ns after the first request, about 292 years)")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
