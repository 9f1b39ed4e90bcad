//! The timeline's columns of flows and caches ([`Extras`]): each flow's requests completed
//! in a window, and the hits and misses of the caches that are on.

use super::columns::{Extras, RowPush};
use super::{percentiles, Counts};

/// A flow's requests completed in an open window.
#[derive(Debug, Clone, Default)]
pub(super) struct FlowOpen {
    /// Latencies of its reads and writes (ns).
    pub latency: [Vec<u64>; 2],
    /// Requests per op (read, write, trim) and their bytes.
    pub done: [u64; 3],
    pub bytes: [u64; 3],
}

/// `hits / (hits + misses)`, NaN without either.
fn rate(hits: u64, misses: u64) -> f64 {
    if hits + misses == 0 {
        f64::NAN
    } else {
        hits as f64 / (hits + misses) as f64
    }
}

impl Extras {
    /// Pushes to `r` the values of the extra columns of a window in which the flows
    /// completed `flows` (empty: none) and the counts grew from `last` to `now`; `per_s`
    /// is windows per second.
    pub(super) fn values(&self, r: &mut RowPush<'_>, flows: &mut [FlowOpen], now: &Counts, last: &Counts, per_s: f64) {
        let none = FlowOpen::default();
        for i in 0..self.flows {
            let f = flows.get_mut(i);
            let (done, bytes) = f.as_ref().map_or((none.done, none.bytes), |f| (f.done, f.bytes));
            let [read, write] = match f {
                Some(f) => f.latency.each_mut().map(|v| percentiles(v)[1]),
                None => [f64::NAN; 2],
            };
            for d in done {
                r.u(d);
            }
            r.f(bytes[0] as f64 / 1e6 * per_s);
            r.f(bytes[1] as f64 / 1e6 * per_s);
            r.f(read);
            r.f(write);
        }
        if self.cache {
            let d: [u64; 4] = std::array::from_fn(|k| now.cache[k] - last.cache[k]);
            r.u(d[0]);
            r.u(d[1]);
            r.f(rate(d[0], d[1]));
            r.u(d[2]);
            r.u(d[3]);
            r.f(rate(d[2], d[3]));
        }
        if self.mapping_cache {
            let d: [u64; 2] = std::array::from_fn(|k| now.mapping[k] - last.mapping[k]);
            r.u(d[0]);
            r.u(d[1]);
            r.f(rate(d[0], d[1]));
        }
    }
}
