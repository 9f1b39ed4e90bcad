//! Metrics over simulated time (`output.timeline_ns`): one row per window of simulated
//! time — throughput, latency percentiles of the requests completed in it, queue depth,
//! background work per cause, free blocks, the judged reads' RBER and decoding level, die
//! and channel utilisation; per flow (`workload.flows`) its requests, MB/s and latency
//! p99; the hits of the DRAM and mapping caches when they are on.
//!
//! Memory is bounded per window, whatever the run's length: a window is open while events
//! may still add to it and is closed, turned into a row, as soon as the event clock passes
//! its end. Events come in time order, so counts that only grow (background work, judged
//! reads) are sampled at the close and differenced: the window holds what the events in
//! it did. A request completes at a time at or after the event that finishes it, and flash
//! work is booked ahead of the clock, so the windows from the clock's on stay open for
//! them. Rows gather into batches handed to a sink (e.g. the Parquet writer of the Python
//! front) or kept in memory.

mod busy;
mod columns;
mod extras;

use crate::error::{NandError, Result};
pub use busy::{Busy, BusyWindows};
pub use columns::{Column, Extras, TimelineColumns, CACHE_COLUMNS, COLUMNS, FLOW_COLUMNS, MAPPING_COLUMNS};
use extras::FlowOpen;
use std::collections::VecDeque;

/// Windows per batch handed to the sink: 16,384 rows of 32 columns are 4 MiB; fewer,
/// larger batches cut the sink's per-batch cost (a Parquet frame each: ~2 ms of Python
/// per batch, whatever its rows — 0.5 s of CPU over DTRS ×10's million rows at 4,096).
pub const BATCH_WINDOWS: usize = 16_384;

/// Counts that only grow during a run, sampled when windows close.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Counts {
    /// Page moves (programs) per cause: GC, wear leveling, refresh, hot pages.
    pub moves: [u64; 4],
    /// Erases per cause, as `moves`.
    pub erases: [u64; 4],
    /// Judged page reads.
    pub judged: u64,
    /// Sum of their RBERs.
    pub rber_sum: f64,
    /// Judged reads some level decoded, and the sum of those levels.
    pub decoded: u64,
    pub level_sum: u64,
    /// Read attempts beyond the first.
    pub retries: u64,
    /// Judged reads no level decoded.
    pub uncorrectable: u64,
    /// Free blocks of the plane with fewest (not cumulative: its value at the close).
    pub free_blocks_min: u64,
    /// The DRAM cache's read hits, read misses, write hits and write misses (zeros: off).
    pub cache: [u64; 4],
    /// The mapping cache's hits and misses (zeros: off).
    pub mapping: [u64; 2],
}

/// What an open window gathers from requests.
#[derive(Debug, Clone, Default)]
struct Open {
    /// Latencies of the reads and writes completed in it (ns).
    latency: [Vec<u64>; 2],
    /// Requests completed per op (read, write, trim) and their bytes.
    done: [u64; 3],
    bytes: [u64; 3],
    /// Requests that arrived in it, and the sum of (window end − arrival).
    arrivals: u64,
    arrival_area: u64,
    /// Requests completed in it, and the sum of (window end − completion).
    completions: u64,
    completion_area: u64,
    /// Per flow (empty until one completes a request in it).
    flows: Vec<FlowOpen>,
}

impl Open {
    /// No request arrived or completed in it (nothing touched it).
    fn is_empty(&self) -> bool {
        self.arrivals == 0 && self.completions == 0
    }

    /// Empties it for another window, keeping the latency lists' room.
    fn reset(&mut self) {
        let [mut r, mut w] = std::mem::take(&mut self.latency);
        r.clear();
        w.clear();
        *self = Open {
            latency: [r, w],
            ..Open::default()
        };
    }
}

/// Closed windows kept for reuse (their latency lists allocated).
const SPARE_WINDOWS: usize = 64;

/// Where full batches go: `Err(message)` stops the run.
pub type TimelineSink = Box<dyn FnMut(TimelineColumns) -> std::result::Result<(), String> + Send>;

/// The timeline of a run being recorded.
pub struct Timeline {
    window_ns: u64,
    /// Window index of `cur`, the first open window; `None` until the first request
    /// arrives.
    base: Option<u64>,
    /// `[start, end)` of window `base` (ns; empty before the first request): most
    /// requests fall in it, found without a division or a look-up.
    base_span: (u64, u64),
    /// What window `base` gathered, and windows `base + 1`, `base + 2`, ….
    cur: Open,
    ahead: VecDeque<Open>,
    /// Closed windows, emptied, for the next ones to open.
    spare: Vec<Open>,
    /// Requests arrived and not completed at the start of window `base`.
    outstanding: u64,
    /// Counts sampled at the last close.
    last: Counts,
    dies: u64,
    channels: u64,
    /// Columns beyond [`COLUMNS`], and every column's name and type.
    extras: Extras,
    layout: Vec<(String, bool)>,
    batch: TimelineColumns,
    /// `None`: rows are kept in `kept`.
    sink: Option<(String, TimelineSink)>,
    kept: TimelineColumns,
    failed: Option<String>,
}

impl Timeline {
    /// A timeline of windows of `window_ns` over a device of `dies` dies and `channels`
    /// channels, with the columns of `extras`, kept in memory.
    pub fn new(window_ns: u64, dies: u32, channels: u32, extras: Extras) -> Self {
        let layout = extras.layout();
        Timeline {
            window_ns,
            base: None,
            base_span: (u64::MAX, u64::MAX),
            cur: Open::default(),
            ahead: VecDeque::new(),
            spare: Vec::new(),
            outstanding: 0,
            last: Counts::default(),
            dies: u64::from(dies.max(1)),
            channels: u64::from(channels.max(1)),
            extras,
            batch: TimelineColumns::empty(&layout, BATCH_WINDOWS),
            sink: None,
            kept: TimelineColumns::empty(&layout, 0),
            layout,
            failed: None,
        }
    }

    /// Hands batches of [`BATCH_WINDOWS`] rows to `sink` (named `name` in errors) instead
    /// of keeping them.
    pub fn stream_to(&mut self, name: String, sink: TimelineSink) {
        self.sink = Some((name, sink));
    }

    /// Window length (ns).
    pub fn window_ns(&self) -> u64 {
        self.window_ns
    }

    /// The event clock must reach this for a window to close (`u64::MAX` before the first
    /// request).
    #[inline]
    pub fn next_close_ns(&self) -> u64 {
        self.base_span.1
    }

    fn span(&self, w: u64) -> (u64, u64) {
        (w * self.window_ns, (w + 1) * self.window_ns)
    }

    /// The open window of `t_ns`, and the end of `t_ns`'s window.
    #[inline]
    fn slot(&mut self, t_ns: u64) -> (&mut Open, u64) {
        if t_ns >= self.base_span.0 && t_ns < self.base_span.1 {
            return (&mut self.cur, self.base_span.1);
        }
        self.slot_ahead(t_ns)
    }

    #[inline(never)]
    fn slot_ahead(&mut self, t_ns: u64) -> (&mut Open, u64) {
        let w = t_ns / self.window_ns;
        if self.base.is_none() {
            self.base = Some(w);
            self.base_span = self.span(w);
        }
        let end = self.span(w).1;
        // Nothing happens before the clock, whose window is `base`.
        let i = w.saturating_sub(self.base.unwrap_or(w)) as usize;
        if i == 0 {
            return (&mut self.cur, end);
        }
        while self.ahead.len() < i {
            self.ahead.push_back(self.spare.pop().unwrap_or_default());
        }
        (&mut self.ahead[i - 1], end)
    }

    /// A request arrived at `t_ns` (the event clock).
    #[inline]
    pub fn arrived(&mut self, t_ns: u64) {
        let (o, end) = self.slot(t_ns);
        let area = end - t_ns;
        o.arrivals += 1;
        o.arrival_area += area;
    }

    /// A request of `op` (0 read, 1 write, 2 trim), `bytes` and `flow` (a
    /// `workload.flows` index; others count in no flow) completed at `end_ns` (at or after
    /// the event clock) after `latency_ns`.
    #[inline]
    pub fn completed(&mut self, op: usize, bytes: u64, end_ns: u64, latency_ns: u64, flow: u32) {
        let flows = self.extras.flows;
        let (o, end) = self.slot(end_ns);
        let area = end - end_ns;
        if (flow as usize) < flows {
            if o.flows.is_empty() {
                o.flows.resize_with(flows, FlowOpen::default);
            }
            let f = &mut o.flows[flow as usize];
            f.done[op] += 1;
            f.bytes[op] += bytes;
            if op < 2 {
                f.latency[op].push(latency_ns);
            }
        }
        o.done[op] += 1;
        o.bytes[op] += bytes;
        o.completions += 1;
        o.completion_area += area;
        if op < 2 {
            o.latency[op].push(latency_ns);
        }
    }

    /// Closes every window that ends at or before `now` (the event clock, before its
    /// events run): the first takes the growth of `counts` since the last close (the
    /// events since ran in it), the rest (no events) none.
    pub fn close_until(&mut self, now: u64, counts: Counts, busy: Option<&mut BusyWindows>) {
        let Some(base) = self.base else { return };
        let upto = now / self.window_ns;
        self.close(base, upto, counts, busy);
    }

    /// Closes every window up to the last anything happened in; returns the rows kept in
    /// memory (`None` when streamed).
    pub fn finish(mut self, counts: Counts, busy: Option<&mut BusyWindows>) -> Result<Option<TimelineColumns>> {
        if let Some(base) = self.base {
            let last_busy = busy.as_ref().and_then(|b| b.last()).unwrap_or(base);
            // The clock's window always closes: the counts' last growth belongs to it.
            let upto = (base + 1 + self.ahead.len() as u64).max(last_busy + 1);
            self.close(base, upto, counts, busy);
        }
        let batch = std::mem::replace(&mut self.batch, TimelineColumns::empty(&self.layout, BATCH_WINDOWS));
        self.hand_over(batch);
        if let Some(e) = self.failed {
            let name = self.sink.map(|(n, _)| n).unwrap_or_default();
            return Err(NandError::io(&name, format!("cannot write the timeline: {e}")));
        }
        Ok(self.sink.is_none().then_some(self.kept))
    }

    /// Closes windows `from..upto`. A window in which the device was idle — nothing
    /// arrived, completed or was busy, no count moved, no request was outstanding — gives
    /// no row (its would be zeros and nulls, and the free blocks of the row before).
    fn close(&mut self, from: u64, upto: u64, counts: Counts, mut busy: Option<&mut BusyWindows>) {
        for w in from..upto {
            let quiet_ahead = self.cur.is_empty()
                && self.ahead.is_empty()
                && self.outstanding == 0
                && counts == self.last
                && busy.as_deref().is_none_or(BusyWindows::is_empty);
            if quiet_ahead {
                // Every window left to close is idle.
                if let Some(b) = busy.as_deref_mut() {
                    b.skip_to(upto);
                }
                break;
            }
            let next = self.ahead.pop_front().or_else(|| self.spare.pop()).unwrap_or_default();
            let mut o = std::mem::replace(&mut self.cur, next);
            let busy_ns = busy.as_deref_mut().map_or([0; 2], BusyWindows::close);
            let idle = o.arrivals == 0
                && o.completions == 0
                && busy_ns == [0; 2]
                && self.outstanding == 0
                && counts == self.last;
            if !idle {
                self.fill_row(w, &mut o, &counts, busy_ns);
            }
            if self.spare.len() < SPARE_WINDOWS {
                o.reset();
                self.spare.push(o);
            }
            if idle {
                continue;
            }
            self.last = counts;
            if self.batch.len() == BATCH_WINDOWS {
                let batch = std::mem::replace(&mut self.batch, TimelineColumns::empty(&self.layout, BATCH_WINDOWS));
                self.hand_over(batch);
            }
        }
        let base = upto.max(from);
        self.base = Some(base);
        self.base_span = self.span(base);
    }

    fn hand_over(&mut self, batch: TimelineColumns) {
        if batch.is_empty() || self.failed.is_some() {
            return;
        }
        match self.sink.as_mut() {
            Some((_, sink)) => self.failed = sink(batch).err(),
            None => self.kept.append(batch),
        }
    }

    /// Adds window `w`'s row to the batch.
    fn fill_row(&mut self, w: u64, o: &mut Open, now: &Counts, busy_ns: [u64; 2]) {
        let l = self.window_ns as f64;
        let per_s = 1e9 / l;
        let last = self.last;
        let outstanding = self.outstanding as f64;
        // The time integral of requests outstanding: those at the start all window long,
        // plus each arrival until the window's end, less each completion from then on.
        let depth = outstanding + (o.arrival_area as f64 - o.completion_area as f64) / l;
        self.outstanding = (self.outstanding + o.arrivals).saturating_sub(o.completions);
        let [read_lat, write_lat] = o.latency.each_mut().map(|v| percentiles(v));
        let nan_if_zero = |num: f64, den: u64| if den == 0 { f64::NAN } else { num / den as f64 };
        let judged = now.judged - last.judged;
        let decoded = now.decoded - last.decoded;
        let mut r = self.batch.row();
        r.u(w * self.window_ns);
        r.u(o.done[0]);
        r.u(o.done[1]);
        r.u(o.done[2]);
        r.f(o.done[0] as f64 * per_s);
        r.f(o.done[1] as f64 * per_s);
        r.f(o.bytes[0] as f64 / 1e6 * per_s);
        r.f(o.bytes[1] as f64 / 1e6 * per_s);
        for x in read_lat.into_iter().chain(write_lat) {
            r.f(x);
        }
        r.f(depth);
        for k in 0..4 {
            r.u(now.moves[k] - last.moves[k]);
            r.u(now.erases[k] - last.erases[k]);
        }
        r.u(now.free_blocks_min);
        r.u(judged);
        r.f(nan_if_zero(now.rber_sum - last.rber_sum, judged));
        r.f(nan_if_zero((now.level_sum - last.level_sum) as f64, decoded));
        r.u(now.retries - last.retries);
        r.u(now.uncorrectable - last.uncorrectable);
        r.f(busy_ns[0] as f64 / (l * self.dies as f64));
        r.f(busy_ns[1] as f64 / (l * self.channels as f64));
        r.u(self.window_ns);
        self.extras.values(&mut r, &mut o.flows, now, &last, per_s);
        r.done();
    }
}

/// p50, p99 (nearest rank: the smallest value with at least that share of the values at
/// or below it) and max of `v` (NaN when empty); reorders `v`.
pub(super) fn percentiles(v: &mut [u64]) -> [f64; 3] {
    if v.is_empty() {
        return [f64::NAN; 3];
    }
    let n = v.len();
    let rank = |pct: usize| (n * pct).div_ceil(100).max(1) - 1;
    let (r50, r99) = (rank(50), rank(99));
    // Exact order statistics by selection, O(n): no sort of the window's latencies.
    let (below, &mut p99, above) = v.select_nth_unstable(r99);
    let max = above.iter().copied().max().unwrap_or(p99);
    let p50 = if r50 == r99 {
        p99
    } else {
        *below.select_nth_unstable(r50).1
    };
    [p50 as f64, p99 as f64, max as f64]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(t: &TimelineColumns, name: &str) -> Vec<f64> {
        match &t.columns.iter().find(|(n, _)| *n == name).expect("column").1 {
            Column::U64(v) => v.iter().map(|&x| x as f64).collect(),
            Column::F64(v) => v.clone(),
        }
    }

    #[test]
    fn nearest_rank_percentiles() {
        // 1..=100: p50 is the 50th value, p99 the 99th.
        let mut v: Vec<u64> = (1..=100).rev().collect();
        assert_eq!(percentiles(&mut v), [50.0, 99.0, 100.0]);
        // Three values: ranks ceil(1.5) = 2 and ceil(2.97) = 3.
        assert_eq!(percentiles(&mut [30, 10, 20]), [20.0, 30.0, 30.0]);
        assert!(percentiles(&mut []).iter().all(|x| x.is_nan()));
    }

    #[test]
    fn selected_percentiles_are_the_sorted_ones() {
        // Against the definition on a sorted copy, for lengths around the ranks' steps and
        // values with ties (a linear congruential sequence, reduced).
        let mut x: u64 = 12345;
        for n in (1..=205).chain([999, 1000, 1001, 4096]) {
            let v: Vec<u64> = (0..n)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (x >> 33) % 50
                })
                .collect();
            let mut sorted = v.clone();
            sorted.sort_unstable();
            let at = |pct: usize| sorted[(n * pct).div_ceil(100).max(1) - 1] as f64;
            let want = [at(50), at(99), sorted[n - 1] as f64];
            assert_eq!(percentiles(&mut v.clone()), want, "n = {n}");
        }
    }

    #[test]
    fn hand_built_windows() {
        // Windows of 1000 ns, one die, one channel.
        let mut t = Timeline::new(1000, 1, 1, Extras::default());
        t.arrived(100);
        t.arrived(200);
        t.completed(0, 4096, 600, 500, 0); // read arrived at 100
        let mut busy = BusyWindows::new(1000);
        busy.add(Busy::Die, 1500, 1750);
        // The clock reaches 1200: window 0 closes, the counts have not grown yet.
        t.close_until(1200, Counts::default(), Some(&mut busy));
        t.completed(1, 8192, 1500, 1300, 0); // write arrived at 200
        t.arrived(1800);
        // The events of window 1 grew the counts.
        let c = Counts {
            moves: [3, 0, 1, 0],
            erases: [1, 0, 0, 0],
            judged: 2,
            rber_sum: 3e-3,
            decoded: 2,
            level_sum: 1,
            retries: 1,
            uncorrectable: 0,
            free_blocks_min: 7,
            ..Counts::default()
        };
        let out = t.finish(c, Some(&mut busy)).unwrap().unwrap();
        assert_eq!(col(&out, "start_ns"), [0.0, 1000.0]);
        assert_eq!(col(&out, "reads"), [1.0, 0.0]);
        assert_eq!(col(&out, "writes"), [0.0, 1.0]);
        // 1 read in 1 µs = 1e6 IOPS; 8192 B in 1 µs = 8192 MB/s.
        assert_eq!(col(&out, "read_iops"), [1e6, 0.0]);
        assert_eq!(col(&out, "write_mb_s"), [0.0, 8192.0]);
        assert_eq!(col(&out, "read_p99_ns")[0], 500.0);
        assert!(col(&out, "read_p99_ns")[1].is_nan());
        assert_eq!(col(&out, "write_max_ns")[1], 1300.0);
        // Window 0: request 1 out over [100, 600), request 2 over [200, 1000): 1300 ns of
        // 1000. Window 1: request 2 over [1000, 1500), request 3 over [1800, 2000): 700.
        assert_eq!(col(&out, "queue_depth"), [1.3, 0.7]);
        // The counts grew while the clock was in window 1.
        assert_eq!(col(&out, "gc_page_moves"), [0.0, 3.0]);
        assert_eq!(col(&out, "refresh_page_moves"), [0.0, 1.0]);
        assert_eq!(col(&out, "gc_erases"), [0.0, 1.0]);
        assert_eq!(col(&out, "judged_reads"), [0.0, 2.0]);
        assert!((col(&out, "rber_mean")[1] - 1.5e-3).abs() < 1e-15);
        assert_eq!(col(&out, "level_mean")[1], 0.5);
        assert_eq!(col(&out, "die_util"), [0.0, 0.25]);
        assert_eq!(col(&out, "free_blocks_min"), [0.0, 7.0]);
    }

    #[test]
    fn flow_and_cache_columns() {
        // Two flows, both caches; windows of 1000 ns.
        let extras = Extras {
            flows: 2,
            cache: true,
            mapping_cache: true,
        };
        let mut t = Timeline::new(1000, 1, 1, extras);
        for a in [0, 10, 20, 30] {
            t.arrived(a);
        }
        t.completed(0, 4096, 100, 100, 0);
        t.completed(0, 4096, 330, 300, 0);
        t.completed(1, 8192, 500, 490, 1);
        // Not a flow of the config: counted in the totals only.
        t.completed(2, 4096, 600, 570, 7);
        // Window 0: 3 read hits of 4 reads, 1 write miss; 2 mapping hits of 5.
        let c0 = Counts {
            cache: [3, 1, 0, 1],
            mapping: [2, 3],
            ..Counts::default()
        };
        t.close_until(1000, c0, None);
        t.arrived(1500);
        t.completed(1, 4096, 1800, 300, 1);
        // Window 1: no cache reads, 1 write hit; no mapping access.
        let c1 = Counts {
            cache: [3, 1, 1, 1],
            ..c0
        };
        let out = t.finish(c1, None).unwrap().unwrap();
        let names: Vec<&str> = out.columns.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names.len(), COLUMNS.len() + 2 * FLOW_COLUMNS.len() + 6 + 3);
        assert_eq!(names[COLUMNS.len()], "flow0_reads");
        assert_eq!(col(&out, "reads"), [2.0, 0.0]);
        assert_eq!(col(&out, "trims"), [1.0, 0.0]);
        assert_eq!(col(&out, "flow0_reads"), [2.0, 0.0]);
        assert_eq!(col(&out, "flow0_writes"), [0.0, 0.0]);
        assert_eq!(col(&out, "flow1_writes"), [1.0, 1.0]);
        assert_eq!(col(&out, "flow1_trims"), [0.0, 0.0]);
        // Two reads of 100 and 300 ns: p99 is the larger.
        assert_eq!(col(&out, "flow0_read_p99_ns")[0], 300.0);
        assert!(col(&out, "flow0_read_p99_ns")[1].is_nan());
        assert_eq!(col(&out, "flow1_write_p99_ns"), [490.0, 300.0]);
        // 8 KiB in 1 µs = 8192 MB/s; 4 KiB = 4096.
        assert_eq!(col(&out, "flow0_read_mb_s"), [8192.0, 0.0]);
        assert_eq!(col(&out, "flow1_write_mb_s"), [8192.0, 4096.0]);
        assert_eq!(col(&out, "cache_read_hits"), [3.0, 0.0]);
        assert_eq!(col(&out, "cache_read_misses"), [1.0, 0.0]);
        assert_eq!(col(&out, "cache_read_hit_rate")[0], 0.75);
        assert!(col(&out, "cache_read_hit_rate")[1].is_nan());
        assert_eq!(col(&out, "cache_write_hit_rate"), [0.0, 1.0]);
        assert_eq!(col(&out, "mapping_hits"), [2.0, 0.0]);
        assert_eq!(col(&out, "mapping_hit_rate")[0], 0.4);
        assert!(col(&out, "mapping_hit_rate")[1].is_nan());
    }

    #[test]
    fn streamed_in_batches() {
        use std::sync::{Arc, Mutex};
        let got = Arc::new(Mutex::new(Vec::new()));
        let g = Arc::clone(&got);
        let mut t = Timeline::new(10, 1, 1, Extras::default());
        t.stream_to(
            "t".into(),
            Box::new(move |b| {
                g.lock().unwrap().push(b.len());
                Ok(())
            }),
        );
        t.arrived(0);
        t.completed(0, 1, 10 * BATCH_WINDOWS as u64 + 5, 1, 0);
        assert!(t.finish(Counts::default(), None).unwrap().is_none());
        assert_eq!(*got.lock().unwrap(), [BATCH_WINDOWS, 1]);
    }
}
