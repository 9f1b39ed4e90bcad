//! IOMeter's access pattern (seed 004 §5.3): the request stream is cut into segments of
//! `segment_requests` requests and every segment has exactly `round(random_fraction · S)`
//! random requests, at positions shuffled within the segment; the others continue where
//! the previous request ended. Op mix, sizes, alignment, footprint and arrivals are the
//! `mix` generator's ([`Synthetic`]), which supplies every request and its random start.

use rand::seq::SliceRandom;

use super::{Generator, Synthetic, WorkloadConfig, WorkloadContext};
use crate::engine::rng::{component, stream_rng, SimRng};
use crate::error::Result;
use crate::host::request::Request;

/// Segment length when `segment_requests` is not set: 100 makes every whole-percent random
/// ratio exact, and is shorter than 004's 256-page blocks as §5.3 says IOMeter's segments are.
pub const DEFAULT_SEGMENT_REQUESTS: u64 = 100;

/// The IOMeter-like request stream (deterministic for a seed).
pub struct Iometer {
    inner: Synthetic,
    rng: SimRng,
    /// Random (true) or sequential of each position of the current segment, consumed from
    /// the back.
    segment: Vec<bool>,
    segment_requests: usize,
    random_per_segment: usize,
    alignment: u64,
    footprint: u64,
    cursor: u64,
}

impl Iometer {
    /// A generator for `cfg` (validated here) on a device described by `ctx`.
    pub fn new(cfg: &WorkloadConfig, ctx: &WorkloadContext) -> Result<Self> {
        cfg.validate_synthetic(ctx)?;
        let s = cfg.segment_requests.unwrap_or(DEFAULT_SEGMENT_REQUESTS) as usize;
        // Every request of the inner stream starts at a random address; the segment plan
        // decides which of them keep it.
        let inner_cfg = WorkloadConfig {
            generator: Generator::Mix,
            segment_requests: None,
            random_fraction: 1.0,
            ..cfg.clone()
        };
        Ok(Iometer {
            inner: Synthetic::new(&inner_cfg, ctx)?,
            rng: stream_rng(ctx.seed, component::WORKLOAD_SEGMENTS),
            segment: Vec::with_capacity(s),
            segment_requests: s,
            random_per_segment: (cfg.random_fraction * s as f64).round() as usize,
            alignment: cfg.alignment_bytes,
            footprint: cfg.footprint_bytes.unwrap_or(ctx.logical_bytes),
            cursor: 0,
        })
    }

    /// Whether the next request is random, starting a new segment when one is used up.
    fn next_is_random(&mut self) -> bool {
        if self.segment.is_empty() {
            self.segment.resize(self.segment_requests, false);
            self.segment[..self.random_per_segment].fill(true);
            self.segment.shuffle(&mut self.rng);
        }
        self.segment.pop().unwrap_or(false)
    }
}

impl Iterator for Iometer {
    type Item = Result<Request>;

    fn next(&mut self) -> Option<Result<Request>> {
        let mut req = match self.inner.next()? {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        if !self.next_is_random() {
            req.offset_bytes = if self.cursor + req.size_bytes <= self.footprint {
                self.cursor
            } else {
                0
            };
        }
        self.cursor = (req.offset_bytes + req.size_bytes).div_ceil(self.alignment) * self.alignment;
        Some(Ok(req))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::request::Op;

    const MIB: u64 = 1 << 20;

    /// 004 §5.3: 8 KB requests aligned to 8 KB over a 256 MB region.
    fn cfg(random_fraction: f64, read_fraction: f64, requests: u64) -> WorkloadConfig {
        WorkloadConfig {
            generator: Generator::Iometer,
            requests: Some(requests),
            random_fraction,
            read_fraction,
            size_bytes: 8192,
            alignment_bytes: 8192,
            footprint_bytes: Some(256 * MIB),
            ..Default::default()
        }
    }

    fn gen(cfg: &WorkloadConfig, seed: u64) -> Vec<Request> {
        let ctx = WorkloadContext {
            logical_bytes: 1 << 30,
            seed,
        };
        Iometer::new(cfg, &ctx).unwrap().map(|r| r.unwrap()).collect()
    }

    /// Requests that do not start where the previous one ended (wrapping to 0 at the end
    /// of the region): the random ones, unless a random start happens to equal the
    /// sequential one (1 in 32,768 here; none for these seeds).
    fn jumps(reqs: &[Request], prev_end: u64) -> usize {
        let mut end = prev_end;
        let mut n = 0;
        for r in reqs {
            let seq = if end + r.size_bytes <= 256 * MIB { end } else { 0 };
            n += usize::from(r.offset_bytes != seq);
            end = r.offset_bytes + r.size_bytes;
        }
        n
    }

    #[test]
    fn every_segment_has_the_exact_random_ratio() {
        for (f, k) in [(0.0, 0), (0.25, 25), (0.5, 50), (0.75, 75), (1.0, 100)] {
            let reqs = gen(&cfg(f, 0.5, 2000), 11);
            let mut end = 0;
            for seg in reqs.chunks(100) {
                assert_eq!(jumps(seg, end), k, "random_fraction {f}");
                let last = seg.last().unwrap();
                end = last.offset_bytes + last.size_bytes;
            }
        }
        // A segment of 8 with 37.5 % random: 3 random requests per segment.
        let c = WorkloadConfig {
            segment_requests: Some(8),
            ..cfg(0.375, 0.5, 800)
        };
        let reqs = gen(&c, 12);
        let mut end = 0;
        for seg in reqs.chunks(8) {
            assert_eq!(jumps(seg, end), 3);
            end = seg.last().unwrap().offset_bytes + 8192;
        }
    }

    #[test]
    fn random_positions_differ_between_segments() {
        // The plan is shuffled per segment, not one fixed pattern repeated.
        let reqs = gen(&cfg(0.5, 0.5, 1000), 13);
        let pattern = |seg: &[Request]| -> Vec<bool> {
            seg.windows(2)
                .map(|w| w[1].offset_bytes != w[0].offset_bytes + 8192)
                .collect()
        };
        let first = pattern(&reqs[..100]);
        assert!(reqs.chunks(100).skip(1).any(|s| pattern(s) != first));
    }

    #[test]
    fn read_ratio_alignment_and_region() {
        // 100,000 requests at p = 0.5: sd = 158.1; 5 sd = 791.
        for read in [0.0, 0.25, 0.5, 1.0] {
            let reqs = gen(&cfg(0.5, read, 100_000), 14);
            let reads = reqs.iter().filter(|r| r.op == Op::Read).count() as f64;
            let sd = (1e5 * read * (1.0 - read)).sqrt();
            assert!((reads - 1e5 * read).abs() <= 5.0 * sd, "read {read}: {reads}");
            for r in &reqs {
                assert_eq!(r.size_bytes, 8192);
                assert_eq!(r.offset_bytes % 8192, 0, "{r:?}");
                assert!(r.offset_bytes + r.size_bytes <= 256 * MIB, "{r:?}");
            }
        }
    }

    #[test]
    fn sequential_runs_wrap_and_the_stream_is_deterministic() {
        // 0 % random in a 64 KiB region of 8 KiB requests: 0, 8 Ki, ..., 56 Ki, 0, ...
        let c = WorkloadConfig {
            footprint_bytes: Some(65536),
            ..cfg(0.0, 0.5, 20)
        };
        let offsets: Vec<u64> = gen(&c, 15).iter().map(|r| r.offset_bytes).collect();
        assert_eq!(offsets, (0..20).map(|i| (i % 8) * 8192).collect::<Vec<_>>());
        let c = cfg(0.5, 0.5, 500);
        assert_eq!(gen(&c, 16), gen(&c, 16));
        assert_ne!(gen(&c, 16), gen(&c, 17));
    }

    #[test]
    fn chosen_by_name_and_bad_keys_are_named() {
        let ctx = WorkloadContext {
            logical_bytes: 1 << 30,
            seed: 18,
        };
        let c: WorkloadConfig = toml::from_str(
            "generator = \"iometer\"\nrequests = 300\nrandom_fraction = 0.5\nsize_bytes = 8192\nalignment_bytes = 8192\nfootprint_bytes = 268435456",
        )
        .unwrap();
        let via_open: Vec<Request> = super::super::open(&c, &ctx).unwrap().map(|r| r.unwrap()).collect();
        assert_eq!(via_open, gen(&c, 18));
        let err = |c: WorkloadConfig| super::super::open(&c, &ctx).err().expect("should fail").to_string();
        let e = err(WorkloadConfig {
            segment_requests: Some(0),
            ..cfg(0.5, 0.5, 10)
        });
        assert!(e.contains("`workload.segment_requests`"), "{e}");
        let e = err(WorkloadConfig {
            segment_requests: Some(10),
            ..Default::default()
        });
        assert!(e.contains("`workload.segment_requests`"), "{e}");
        assert!(toml::from_str::<WorkloadConfig>("generator = \"iometr\"").is_err());
    }
}
