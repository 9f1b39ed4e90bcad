//! Trace statistics (`nandlab trace info`).

use super::detect::resolve_format;
use super::format::{TimeUnit, TraceFormat};
use super::reader::{TraceOptions, TraceReader};
use crate::error::Result;
use crate::host::request::{Op, Request};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

/// Page size the footprint is counted in (bytes).
pub const FOOTPRINT_PAGE_BYTES: u64 = 4096;

/// Requests spanning more pages than this go to an interval list instead of the page set,
/// so one huge request cannot make the statistics loop for ever.
const SET_MAX_PAGES: u64 = 1024;

/// One power-of-two bucket of the request-size histogram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SizeBucket {
    /// Smallest size in the bucket (bytes, a power of two).
    pub min_bytes: u64,
    /// Largest size in the bucket (bytes, `2 * min_bytes - 1`).
    pub max_bytes: u64,
    /// Requests whose size lies in `[min_bytes, max_bytes]`.
    pub count: u64,
}

/// What `trace info` reports about a trace (or any request stream).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceInfo {
    /// The trace file ("" for a stream that is not a file).
    pub path: String,
    /// Format the trace was read as (detected when `auto` was asked for).
    pub format: TraceFormat,
    /// Unit of the trace's time field.
    pub time_unit: TimeUnit,
    /// Requests read.
    pub requests: u64,
    /// Read requests.
    pub reads: u64,
    /// Write requests.
    pub writes: u64,
    /// Trim (discard) requests.
    pub trims: u64,
    /// Write requests the trace flags critical (the DiskSim format's sixth column), which
    /// `host.critical.source = "trace"` or `"both"` marks critical.
    pub critical_writes: u64,
    /// reads / requests (by count; 0 for an empty trace).
    pub read_ratio: f64,
    /// Bytes read.
    pub read_bytes: u64,
    /// Bytes written.
    pub write_bytes: u64,
    /// Bytes trimmed.
    pub trim_bytes: u64,
    /// Bytes of all requests (read + write + trim).
    pub total_bytes: u64,
    /// read_bytes / (read_bytes + write_bytes) (0 when both are 0).
    pub read_bytes_ratio: f64,
    /// Mean request size in bytes.
    pub mean_size_bytes: f64,
    /// Request sizes in power-of-two buckets (bytes); empty buckets left out.
    pub size_histogram: Vec<SizeBucket>,
    /// Distinct 4 KiB pages touched by any request.
    pub footprint_pages: u64,
    /// `footprint_pages × 4096` bytes.
    pub footprint_bytes: u64,
    /// Distinct 4 KiB pages read.
    pub read_footprint_pages: u64,
    /// Seed 003 Table III's "Rpt. addr. ratio", "the ratio of repeated read address space
    /// to all read address space": distinct 4 KiB pages read more than once / distinct
    /// 4 KiB pages read (0 when nothing is read).
    pub repeated_address_ratio: f64,
    /// Largest `offset + size` of any request (bytes).
    pub max_offset_end_bytes: u64,
    /// Latest arrival minus earliest arrival (ns).
    pub duration_ns: u64,
    /// Mean gap between consecutive arrivals: (last − first arrival) / (requests − 1), in ns.
    pub mean_interarrival_ns: f64,
    /// Distinct stream (device / disk / ASU / LUN / volume) numbers seen.
    pub streams: u64,
    /// Requests that arrive earlier than the request before them.
    pub backwards_arrivals: u64,
}

/// Accumulates [`TraceInfo`] over a request stream.
#[derive(Debug)]
pub struct TraceStats {
    requests: u64,
    counts: [u64; 3],
    critical_writes: u64,
    bytes: [u64; 3],
    hist: [u64; 64],
    pages: FxHashSet<u64>,
    big: Vec<(u64, u64)>,
    /// Pages read by requests below `SET_MAX_PAGES` pages: whether read more than once.
    read_pages: FxHashMap<u64, bool>,
    /// Page ranges of the larger reads.
    big_reads: Vec<(u64, u64)>,
    max_end: u64,
    first_ns: u64,
    last_ns: u64,
    min_ns: u64,
    max_ns: u64,
    streams: FxHashSet<u32>,
    backwards: u64,
}

fn op_index(op: Op) -> usize {
    match op {
        Op::Read => 0,
        Op::Write => 1,
        Op::Trim => 2,
    }
}

impl Default for TraceStats {
    fn default() -> Self {
        TraceStats {
            requests: 0,
            counts: [0; 3],
            critical_writes: 0,
            bytes: [0; 3],
            hist: [0; 64],
            pages: FxHashSet::default(),
            big: Vec::new(),
            read_pages: FxHashMap::default(),
            big_reads: Vec::new(),
            max_end: 0,
            first_ns: 0,
            last_ns: 0,
            min_ns: 0,
            max_ns: 0,
            streams: FxHashSet::default(),
            backwards: 0,
        }
    }
}

impl TraceStats {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one request.
    pub fn add(&mut self, r: &Request) {
        let i = op_index(r.op);
        if self.requests == 0 {
            self.first_ns = r.arrival_ns;
            self.min_ns = r.arrival_ns;
            self.max_ns = r.arrival_ns;
        } else if r.arrival_ns < self.last_ns {
            self.backwards += 1;
        }
        self.min_ns = self.min_ns.min(r.arrival_ns);
        self.max_ns = self.max_ns.max(r.arrival_ns);
        self.last_ns = r.arrival_ns;
        self.requests += 1;
        self.counts[i] += 1;
        self.critical_writes += u64::from(r.critical && r.op == Op::Write);
        self.bytes[i] = self.bytes[i].saturating_add(r.size_bytes);
        if r.size_bytes > 0 {
            self.hist[63 - r.size_bytes.leading_zeros() as usize] += 1;
            let end = r.offset_bytes.saturating_add(r.size_bytes);
            self.max_end = self.max_end.max(end);
            let first = r.offset_bytes / FOOTPRINT_PAGE_BYTES;
            let last = (end - 1) / FOOTPRINT_PAGE_BYTES;
            let read = r.op == Op::Read;
            if last - first < SET_MAX_PAGES {
                for p in first..=last {
                    self.pages.insert(p);
                    if read {
                        self.read_pages
                            .entry(p)
                            .and_modify(|again| *again = true)
                            .or_insert(false);
                    }
                }
            } else {
                self.big.push((first, last));
                if read {
                    self.big_reads.push((first, last));
                }
            }
        }
        self.streams.insert(r.stream);
    }

    /// Distinct 4 KiB pages touched so far.
    pub fn footprint_pages(&self) -> u64 {
        // Merge the large requests' page ranges, then add the set's pages outside them.
        let mut big = self.big.clone();
        big.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(big.len());
        for (a, b) in big {
            match merged.last_mut() {
                Some((_, e)) if a <= e.saturating_add(1) => *e = (*e).max(b),
                _ => merged.push((a, b)),
            }
        }
        let mut total: u64 = merged.iter().map(|(a, b)| b - a + 1).sum();
        for &p in &self.pages {
            let i = merged.partition_point(|&(a, _)| a <= p);
            let covered = i > 0 && merged[i - 1].1 >= p;
            if !covered {
                total += 1;
            }
        }
        total
    }

    /// `(distinct pages read, distinct pages read more than once)`.
    pub fn read_repeats(&self) -> (u64, u64) {
        // Pieces `[start, end)` of the large reads' union, each with how many reads cover it.
        let mut edges: Vec<(u64, i64)> = self
            .big_reads
            .iter()
            .flat_map(|&(a, b)| [(a, 1), (b + 1, -1)])
            .collect();
        edges.sort_unstable();
        let mut pieces: Vec<(u64, u64, i64)> = Vec::new();
        let mut depth = 0;
        for w in edges.windows(2) {
            depth += w[0].1;
            if depth > 0 && w[1].0 > w[0].0 {
                pieces.push((w[0].0, w[1].0, depth));
            }
        }
        let (mut distinct, mut repeated) = (0, 0);
        for &(a, b, d) in &pieces {
            distinct += b - a;
            if d > 1 {
                repeated += b - a;
            }
        }
        for (&p, &again) in &self.read_pages {
            let i = pieces.partition_point(|&(a, _, _)| a <= p);
            match (i > 0).then(|| pieces[i - 1]).filter(|&(_, b, _)| p < b) {
                // Read once by a large read and again here.
                Some((_, _, 1)) => repeated += 1,
                Some(_) => {}
                None => {
                    distinct += 1;
                    repeated += u64::from(again);
                }
            }
        }
        (distinct, repeated)
    }

    /// The statistics so far.
    pub fn finish(&self, path: &str, format: TraceFormat, time_unit: TimeUnit) -> TraceInfo {
        let n = self.requests;
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let total = self.bytes.iter().fold(0u64, |s, &b| s.saturating_add(b));
        let footprint_pages = self.footprint_pages();
        let (read_pages, repeated_pages) = self.read_repeats();
        let size_histogram = (0..64)
            .filter(|&k| self.hist[k] > 0)
            .map(|k| SizeBucket {
                min_bytes: 1u64 << k,
                max_bytes: if k == 63 { u64::MAX } else { (1u64 << (k + 1)) - 1 },
                count: self.hist[k],
            })
            .collect();
        TraceInfo {
            path: path.to_string(),
            format,
            time_unit,
            requests: n,
            reads: self.counts[0],
            writes: self.counts[1],
            trims: self.counts[2],
            critical_writes: self.critical_writes,
            read_ratio: ratio(self.counts[0], n),
            read_bytes: self.bytes[0],
            write_bytes: self.bytes[1],
            trim_bytes: self.bytes[2],
            total_bytes: total,
            read_bytes_ratio: ratio(self.bytes[0], self.bytes[0].saturating_add(self.bytes[1])),
            mean_size_bytes: ratio(total, n),
            size_histogram,
            footprint_pages,
            footprint_bytes: footprint_pages.saturating_mul(FOOTPRINT_PAGE_BYTES),
            read_footprint_pages: read_pages,
            repeated_address_ratio: ratio(repeated_pages, read_pages),
            max_offset_end_bytes: self.max_end,
            duration_ns: self.max_ns - self.min_ns,
            mean_interarrival_ns: if n > 1 {
                (self.last_ns as f64 - self.first_ns as f64) / (n - 1) as f64
            } else {
                0.0
            },
            streams: self.streams.len() as u64,
            backwards_arrivals: self.backwards,
        }
    }
}

/// Reads the whole trace at `path` and summarises it. `format` `Auto` detects the format;
/// `time_unit` overrides the format's time unit.
pub fn trace_info(path: &str, format: TraceFormat, time_unit: Option<TimeUnit>) -> Result<TraceInfo> {
    let format = resolve_format(path, format)?;
    let opts = TraceOptions {
        time_unit,
        ..Default::default()
    };
    let reader = TraceReader::open(path, format, &opts)?;
    let unit = reader.time_unit();
    let mut stats = TraceStats::new();
    for r in reader {
        stats.add(&r?);
    }
    Ok(stats.finish(path, format, unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(arrival_ns: u64, offset_bytes: u64, size_bytes: u64, op: Op, stream: u32) -> Request {
        Request::new(arrival_ns, offset_bytes, size_bytes, op, stream)
    }

    #[test]
    fn hand_computed_small_stream() {
        let reqs = [
            r(0, 0, 4096, Op::Read, 0),                 // page 0
            r(10, 4096, 8192, Op::Write, 1),            // pages 1, 2
            r(5, 1000, 512, Op::Read, 0),               // page 0 again; goes back in time
            r(40, 8192, 100, Op::Trim, 3),              // page 2 again
            r(30, 1 << 30, 8 << 20, Op::Read, 0),       // 2048 pages from page 262144 (interval path)
            r(31, (1 << 30) + 4096, 512, Op::Write, 0), // inside the big one
        ];
        let mut s = TraceStats::new();
        for (k, q) in reqs.iter().enumerate() {
            // Flag the first read and the first write: only the write counts.
            s.add(&Request { critical: k < 2, ..*q });
        }
        let i = s.finish("", TraceFormat::Disksim, TimeUnit::Ns);
        assert_eq!((i.requests, i.reads, i.writes, i.trims), (6, 3, 2, 1));
        assert_eq!(i.critical_writes, 1);
        assert_eq!(i.read_ratio, 0.5);
        assert_eq!(i.read_bytes, 4096 + 512 + (8 << 20));
        assert_eq!(i.write_bytes, 8192 + 512);
        assert_eq!(i.trim_bytes, 100);
        assert_eq!(i.total_bytes, 4096 + 8192 + 512 + 100 + (8 << 20) + 512);
        assert_eq!(i.footprint_pages, 3 + 2048);
        assert_eq!(i.footprint_bytes, (3 + 2048) * 4096);
        assert_eq!(i.max_offset_end_bytes, (1 << 30) + (8 << 20));
        assert_eq!(i.duration_ns, 40);
        // (last − first) / (n − 1) = (31 − 0) / 5.
        assert_eq!(i.mean_interarrival_ns, 6.2);
        assert_eq!(i.streams, 3);
        assert_eq!(i.backwards_arrivals, 2); // 10 → 5 and 40 → 30
        let hist: Vec<(u64, u64)> = i.size_histogram.iter().map(|b| (b.min_bytes, b.count)).collect();
        assert_eq!(hist, vec![(64, 1), (512, 2), (4096, 1), (8192, 1), (8 << 20, 1)]);
        assert_eq!(i.size_histogram[0].max_bytes, 127);
    }

    /// Table III's repeated-address ratio on a hand-written 10-line DiskSim trace (512 B
    /// sectors; 8 sectors = one 4 KiB page).
    #[test]
    fn repeated_address_ratio_of_ten_lines() {
        let text = "\
0 0 0 8 1
1 0 8 16 1
2 0 0 8 1
3 0 40 8 0
4 0 40 8 1
5 0 16 8 1
6 0 100 4 1
7 0 96 8 1
8 0 200 8 0
9 0 8 8 0
";
        // Reads: page 0 (twice), pages 1-2, page 5, page 2 (again), page 12 (sectors
        // 100-103), page 12 (sectors 96-103, again). Writes to pages 5, 25 and 1 are not
        // reads (page 5 is read once). Distinct pages read: 0, 1, 2, 5, 12 = 5; read more
        // than once: 0, 2, 12 = 3 → 3 / 5.
        let dir = std::env::temp_dir().join(format!("nandlab-rpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ten.trace");
        std::fs::write(&path, text).unwrap();
        let i = trace_info(path.to_str().unwrap(), TraceFormat::Disksim, None).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((i.requests, i.reads), (10, 7));
        assert_eq!(i.read_footprint_pages, 5);
        assert_eq!(i.repeated_address_ratio, 0.6);
    }

    /// Large reads (≥ 1024 pages) take the interval path; repeats across both paths count.
    #[test]
    fn repeated_pages_across_large_reads() {
        let mut s = TraceStats::new();
        let mib8 = 8 << 20; // 2048 pages
        s.add(&r(0, 0, mib8, Op::Read, 0)); // pages 0-2047
        s.add(&r(1, 1024 * 4096, mib8, Op::Read, 0)); // pages 1024-3071: 1024-2047 again
        s.add(&r(2, 4000 * 4096, 4096, Op::Read, 0)); // page 4000, once
        s.add(&r(3, 100 * 4096, 8192, Op::Read, 0)); // pages 100-101, again
        s.add(&r(4, 3071 * 4096, 4096, Op::Read, 0)); // page 3071, again
        s.add(&r(5, 1500 * 4096, 4096, Op::Read, 0)); // page 1500, a third time
        s.add(&r(6, 5000 * 4096, 4096, Op::Write, 0)); // a write, not a read
                                                       // Distinct: 0-3071 and 4000 = 3073; repeated: 1024-2047, 100, 101, 3071 = 1027.
        assert_eq!(s.read_repeats(), (3073, 1027));
    }

    #[test]
    fn empty_stream_has_zero_ratios() {
        let i = TraceStats::new().finish("", TraceFormat::Msr, TimeUnit::Ticks100ns);
        assert_eq!(i.requests, 0);
        assert_eq!(i.read_ratio, 0.0);
        assert_eq!(i.mean_interarrival_ns, 0.0);
        assert_eq!(i.repeated_address_ratio, 0.0);
        assert!(serde_json::to_string(&i).unwrap().contains("\"format\":\"msr\""));
    }
}
