//! Synthetic IOMeter/fio-like request generator: read/write/trim mix, random or sequential
//! runs, fixed or weighted request sizes, Poisson or bursty ([`super::arrival`]) arrivals at
//! a rate (or all at time 0 for closed-loop replay), and uniform, Zipf, hot/cold or zoned
//! addresses inside a footprint; JESD219's enterprise workload is this generator with the
//! standard's settings ([`super::jesd219`]).

use super::arrival::Arrivals;
use super::{jesd219, zoned, AddressDistribution, Generator, WorkloadConfig, WorkloadContext};
use crate::engine::rng::{component, stream_rng, SimRng};
use crate::error::{NandError, Result};
use crate::host::request::{Op, Request};
use crate::host::time_scale::CLOCK_END_NS;
use rand::distr::weighted::WeightedIndex;
use rand::distr::Distribution;
use rand::Rng;
use rand_distr::Zipf;
use std::borrow::Cow;

/// Requests a synthetic workload makes when neither `requests` nor `duration_s` is set.
pub const DEFAULT_REQUESTS: u64 = 10_000;

enum Sizes {
    Fixed(u64),
    Weighted(WeightedIndex<f64>, Vec<u64>),
}

enum Addr {
    Uniform,
    Zipf(Zipf<f64>),
    HotCold {
        hot_units: u64,
        hot_access: f64,
    },
    /// (cumulative access share, first unit, units) per zone.
    Zoned(Vec<(f64, u64, u64)>),
}

/// The synthetic request stream (deterministic for a seed).
pub struct Synthetic {
    rng: SimRng,
    remaining: u64,
    end_ns: Option<u64>,
    t_ns: f64,
    gap: Option<Arrivals>,
    read_p: f64,
    trim_p: f64,
    random_p: f64,
    sizes: Sizes,
    alignment: u64,
    /// Requests of at least this size start on a multiple of it (JESD219's 4 KiB); 0: none.
    large_alignment: u64,
    footprint: u64,
    units: u64,
    addr: Addr,
    cursor: u64,
    first: bool,
}

impl Synthetic {
    /// A generator for `cfg` (validated here) on a device described by `ctx`.
    pub fn new(cfg: &WorkloadConfig, ctx: &WorkloadContext) -> Result<Self> {
        cfg.validate_synthetic(ctx)?;
        let jesd = cfg.generator == Generator::Jesd219;
        let cfg = match jesd {
            true => Cow::Owned(jesd219::applied(cfg, &|k| format!("workload.{k}"))?),
            false => Cow::Borrowed(cfg),
        };
        let footprint = cfg.footprint_bytes.unwrap_or(ctx.logical_bytes);
        let sizes = if cfg.sizes.is_empty() {
            Sizes::Fixed(cfg.size_bytes)
        } else {
            let w = WeightedIndex::new(cfg.sizes.iter().map(|s| s.weight))
                .map_err(|e| NandError::config("workload.sizes", format!("bad weights: {e}")))?;
            Sizes::Weighted(w, cfg.sizes.iter().map(|s| s.size_bytes).collect())
        };
        let max_size = cfg.max_size_bytes();
        // Start units: every request [unit × alignment, + size) fits inside the footprint.
        let units = (footprint - max_size) / cfg.alignment_bytes + 1;
        let addr = match cfg.address {
            AddressDistribution::Uniform => Addr::Uniform,
            AddressDistribution::Zipf => Addr::Zipf(
                Zipf::new(units as f64, cfg.zipf_theta).map_err(|e| NandError::config("workload.zipf_theta", e))?,
            ),
            AddressDistribution::Hotcold => Addr::HotCold {
                hot_units: ((cfg.hot_fraction * units as f64).round() as u64).clamp(1, units),
                hot_access: cfg.hot_access,
            },
            AddressDistribution::Zoned => Addr::Zoned(zoned::layout(&cfg.zones, units)),
        };
        let mut rng = stream_rng(ctx.seed, component::WORKLOAD);
        let gap = if cfg.iops > 0.0 {
            Some(Arrivals::new(cfg.iops, cfg.bursts.as_ref(), &mut rng)?)
        } else {
            None
        };
        let remaining = match (cfg.requests, cfg.duration_s) {
            (Some(n), _) => n,
            (None, Some(_)) => u64::MAX,
            (None, None) => DEFAULT_REQUESTS,
        };
        Ok(Synthetic {
            rng,
            remaining,
            end_ns: cfg.duration_s.map(|d| (d * 1e9) as u64),
            t_ns: 0.0,
            gap,
            read_p: cfg.read_fraction,
            trim_p: cfg.trim_fraction,
            random_p: cfg.random_fraction,
            sizes,
            alignment: cfg.alignment_bytes,
            large_alignment: if jesd { jesd219::LARGE_ALIGNMENT_BYTES } else { 0 },
            footprint,
            units,
            addr,
            cursor: 0,
            first: true,
        })
    }

    /// Number of possible start addresses (`alignment_bytes` apart).
    pub fn start_units(&self) -> u64 {
        self.units
    }

    fn random_unit(&mut self) -> u64 {
        match &self.addr {
            Addr::Uniform => self.rng.random_range(0..self.units),
            Addr::Zipf(z) => {
                let x: f64 = z.sample(&mut self.rng);
                (x as u64).saturating_sub(1).min(self.units - 1)
            }
            &Addr::HotCold { hot_units, hot_access } => {
                let hot = self.rng.random::<f64>() < hot_access;
                let cold = self.units - hot_units;
                if hot || cold == 0 {
                    self.rng.random_range(0..hot_units)
                } else {
                    hot_units + self.rng.random_range(0..cold)
                }
            }
            Addr::Zoned(zones) => {
                let u: f64 = self.rng.random();
                // The first zone whose cumulative share exceeds u (the last if rounding left
                // the sum a hair under 1).
                let &(_, first, units) = zones.iter().find(|z| u < z.0).unwrap_or(&zones[zones.len() - 1]);
                first + self.rng.random_range(0..units)
            }
        }
    }
}

impl Iterator for Synthetic {
    type Item = Result<Request>;

    fn next(&mut self) -> Option<Result<Request>> {
        if self.remaining == 0 {
            return None;
        }
        if !self.first {
            if let Some(g) = &mut self.gap {
                self.t_ns += g.next_gap_s(&mut self.rng) * 1e9;
            }
        }
        self.first = false;
        if self.t_ns >= CLOCK_END_NS {
            // A rate near 0 (1e-300) put every arrival after the first at the clock's end.
            self.remaining = 0;
            return Some(Err(NandError::config(
                "workload.iops",
                "arrivals pass the end of the clock (2^63 ns, about 292 years): the rate is too low for this many requests",
            )));
        }
        let arrival_ns = self.t_ns as u64;
        if matches!(self.end_ns, Some(end) if arrival_ns >= end) {
            self.remaining = 0;
            return None;
        }
        self.remaining -= 1;
        let u: f64 = self.rng.random();
        let op = if u < self.read_p {
            Op::Read
        } else if u < self.read_p + self.trim_p {
            Op::Trim
        } else {
            Op::Write
        };
        let size_bytes = match &self.sizes {
            Sizes::Fixed(s) => *s,
            Sizes::Weighted(w, sizes) => sizes[w.sample(&mut self.rng)],
        };
        let random = self.random_p >= 1.0 || (self.random_p > 0.0 && self.rng.random::<f64>() < self.random_p);
        let offset_bytes = if random {
            let offset = self.random_unit() * self.alignment;
            match self.large_alignment {
                a if a > 0 && size_bytes >= a => offset / a * a,
                _ => offset,
            }
        } else if self.cursor + size_bytes <= self.footprint {
            self.cursor
        } else {
            0
        };
        self.cursor = (offset_bytes + size_bytes).div_ceil(self.alignment) * self.alignment;
        Some(Ok(Request::new(arrival_ns, offset_bytes, size_bytes, op, 0)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::SizeWeight;
    use super::*;

    const MIB: u64 = 1 << 20;

    fn ctx(seed: u64) -> WorkloadContext {
        WorkloadContext {
            logical_bytes: 1 << 30,
            seed,
        }
    }

    fn gen(cfg: &WorkloadConfig, seed: u64) -> Vec<Request> {
        Synthetic::new(cfg, &ctx(seed)).unwrap().map(|r| r.unwrap()).collect()
    }

    /// `k` standard deviations of a binomial count: |count − n·p| ≤ k·sqrt(n·p·(1−p)).
    fn within_binomial(count: u64, n: u64, p: f64, k: f64) -> bool {
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        (count as f64 - n as f64 * p).abs() <= k * sd
    }

    #[test]
    fn default_is_a_small_deterministic_demo() {
        let cfg = WorkloadConfig::default();
        let a = gen(&cfg, 42);
        assert_eq!(a.len() as u64, DEFAULT_REQUESTS);
        assert_eq!(a, gen(&cfg, 42));
        assert_ne!(a, gen(&cfg, 43));
        // iops = 0: everything arrives at 0 (closed loop); 4 KiB aligned inside 1 GiB.
        for r in &a {
            assert_eq!(r.arrival_ns, 0);
            assert_eq!(r.size_bytes, 4096);
            assert_eq!(r.offset_bytes % 4096, 0);
            assert!(r.offset_bytes + r.size_bytes <= 1 << 30);
        }
    }

    #[test]
    fn read_fraction_within_binomial_tolerance() {
        // n = 100,000, p = 0.7: sd = sqrt(100000 × 0.7 × 0.3) = 144.9; 5 sd = 725 requests.
        let cfg = WorkloadConfig {
            requests: Some(100_000),
            read_fraction: 0.7,
            ..Default::default()
        };
        let reqs = gen(&cfg, 1);
        let reads = reqs.iter().filter(|r| r.op == Op::Read).count() as u64;
        assert!((70_000 - 725..=70_000 + 725).contains(&reads), "{reads}");
        assert!(within_binomial(reads, 100_000, 0.7, 5.0));
        // Trims: p = 0.1 of the rest; sd = sqrt(1e5 × 0.1 × 0.9) = 94.9.
        let cfg = WorkloadConfig {
            requests: Some(100_000),
            read_fraction: 0.5,
            trim_fraction: 0.1,
            ..Default::default()
        };
        let reqs = gen(&cfg, 2);
        let trims = reqs.iter().filter(|r| r.op == Op::Trim).count() as u64;
        assert!(within_binomial(trims, 100_000, 0.1, 5.0), "{trims}");
    }

    #[test]
    fn a_rate_that_runs_past_the_clock_is_an_error_naming_iops() {
        // 1e-300 IOPS: the second arrival is ~1e309 ns away (2^63 ns is the clock's end);
        // it used to land every later request at u64::MAX with latency 0.
        let cfg = WorkloadConfig {
            iops: 1e-300,
            requests: Some(3),
            ..Default::default()
        };
        let mut g = Synthetic::new(&cfg, &ctx(1)).unwrap();
        assert_eq!(g.next().unwrap().unwrap().arrival_ns, 0);
        let e = g.next().unwrap().unwrap_err().to_string();
        assert!(
            e.starts_with("config key `workload.iops`: arrivals pass the end of the clock"),
            "{e}"
        );
        assert!(g.next().is_none());
    }

    #[test]
    fn poisson_arrivals_have_the_asked_rate_and_duration_stops() {
        // 1000 IOPS for 20 s: the count is Poisson(20,000): sd = 141.4, 5 sd = 707.
        let cfg = WorkloadConfig {
            iops: 1000.0,
            duration_s: Some(20.0),
            ..Default::default()
        };
        let reqs = gen(&cfg, 3);
        let n = reqs.len() as i64;
        assert!((n - 20_000).abs() <= 707, "{n}");
        assert_eq!(reqs[0].arrival_ns, 0);
        assert!(reqs.windows(2).all(|w| w[0].arrival_ns <= w[1].arrival_ns));
        assert!(reqs.last().unwrap().arrival_ns < 20_000_000_000);
        // requests and duration both set: whichever comes first.
        let cfg = WorkloadConfig {
            iops: 1000.0,
            duration_s: Some(20.0),
            requests: Some(50),
            ..Default::default()
        };
        assert_eq!(gen(&cfg, 3).len(), 50);
    }

    #[test]
    fn weighted_sizes_and_footprint_bounds() {
        let cfg = WorkloadConfig {
            requests: Some(50_000),
            sizes: vec![
                SizeWeight {
                    size_bytes: 4096,
                    weight: 3.0,
                },
                SizeWeight {
                    size_bytes: 65536,
                    weight: 1.0,
                },
                SizeWeight {
                    size_bytes: 1000,
                    weight: 0.0,
                },
            ],
            random_fraction: 0.5,
            footprint_bytes: Some(8 * MIB),
            ..Default::default()
        };
        let reqs = gen(&cfg, 4);
        let big = reqs.iter().filter(|r| r.size_bytes == 65536).count() as u64;
        assert!(within_binomial(big, 50_000, 0.25, 5.0), "{big}");
        assert!(reqs.iter().all(|r| r.size_bytes == 4096 || r.size_bytes == 65536));
        for r in &reqs {
            assert!(r.offset_bytes + r.size_bytes <= 8 * MIB, "{r:?}");
            assert_eq!(r.offset_bytes % 4096, 0);
        }
        // About half the requests continue where the previous one ended.
        let seq = reqs
            .windows(2)
            .filter(|w| w[1].offset_bytes == w[0].offset_bytes + w[0].size_bytes)
            .count() as u64;
        assert!(seq >= 24_000, "{seq}");
    }

    #[test]
    fn sequential_runs_wrap_inside_the_footprint() {
        // Fully sequential 64 KiB requests in a 1 MiB footprint: 0, 64 Ki, ..., 960 Ki, 0, ...
        let cfg = WorkloadConfig {
            requests: Some(40),
            random_fraction: 0.0,
            size_bytes: 65536,
            footprint_bytes: Some(MIB),
            ..Default::default()
        };
        let offsets: Vec<u64> = gen(&cfg, 5).iter().map(|r| r.offset_bytes).collect();
        let want: Vec<u64> = (0..40).map(|i| (i % 16) * 65536).collect();
        assert_eq!(offsets, want);
    }

    /// Generalised harmonic number H(k, θ) = Σ_{i=1..k} i^−θ.
    fn harmonic(k: u64, theta: f64) -> f64 {
        (1..=k).map(|i| (i as f64).powf(-theta)).sum()
    }

    #[test]
    fn zipf_top_share_matches_closed_form() {
        // 1000 start units (4 KB apart); P(rank ≤ k) = H(k, θ) / H(1000, θ).
        let n = 200_000u64;
        for theta in [0.8, 0.99, 1.2] {
            let cfg = WorkloadConfig {
                requests: Some(n),
                address: AddressDistribution::Zipf,
                zipf_theta: theta,
                footprint_bytes: Some(1000 * 4096),
                ..Default::default()
            };
            let g = Synthetic::new(&cfg, &ctx(6)).unwrap();
            assert_eq!(g.start_units(), 1000);
            let reqs: Vec<Request> = g.map(|r| r.unwrap()).collect();
            for k in [1u64, 10, 100] {
                let p = harmonic(k, theta) / harmonic(1000, theta);
                let hits = reqs.iter().filter(|r| r.offset_bytes < k * 4096).count() as u64;
                assert!(
                    within_binomial(hits, n, p, 5.0),
                    "θ={theta} k={k}: {hits} vs {}",
                    n as f64 * p
                );
            }
        }
    }

    #[test]
    fn hotcold_share_matches_closed_form() {
        // 20 % of 1000 units = units 0..200 receive 80 % of requests, uniformly.
        let n = 100_000u64;
        let cfg = WorkloadConfig {
            requests: Some(n),
            address: AddressDistribution::Hotcold,
            hot_fraction: 0.2,
            hot_access: 0.8,
            footprint_bytes: Some(1000 * 4096),
            ..Default::default()
        };
        let reqs = gen(&cfg, 7);
        let hot = reqs.iter().filter(|r| r.offset_bytes < 200 * 4096).count() as u64;
        assert!(within_binomial(hot, n, 0.8, 5.0), "{hot}");
        // Within the hot region: the first half gets half the hot requests (p = 0.4 overall).
        let first_half = reqs.iter().filter(|r| r.offset_bytes < 100 * 4096).count() as u64;
        assert!(within_binomial(first_half, n, 0.4, 5.0), "{first_half}");
    }

    #[test]
    fn bad_values_name_the_key() {
        let bad = |cfg: WorkloadConfig, key: &str| {
            let e = Synthetic::new(&cfg, &ctx(0)).err().expect("should fail").to_string();
            assert!(e.contains(&format!("`workload.{key}`")), "{key}: {e}");
        };
        bad(
            WorkloadConfig {
                read_fraction: 1.5,
                ..Default::default()
            },
            "read_fraction",
        );
        bad(
            WorkloadConfig {
                read_fraction: 0.8,
                trim_fraction: 0.3,
                ..Default::default()
            },
            "trim_fraction",
        );
        bad(
            WorkloadConfig {
                random_fraction: -0.1,
                ..Default::default()
            },
            "random_fraction",
        );
        bad(
            WorkloadConfig {
                size_bytes: 0,
                ..Default::default()
            },
            "size_bytes",
        );
        bad(
            WorkloadConfig {
                alignment_bytes: 0,
                ..Default::default()
            },
            "alignment_bytes",
        );
        bad(
            WorkloadConfig {
                iops: f64::NAN,
                ..Default::default()
            },
            "iops",
        );
        bad(
            WorkloadConfig {
                duration_s: Some(1.0),
                ..Default::default()
            },
            "duration_s",
        );
        bad(
            WorkloadConfig {
                requests: Some(0),
                ..Default::default()
            },
            "requests",
        );
        bad(
            WorkloadConfig {
                footprint_bytes: Some(2 << 30),
                ..Default::default()
            },
            "footprint_bytes",
        );
        bad(
            WorkloadConfig {
                footprint_bytes: Some(1024),
                ..Default::default()
            },
            "footprint_bytes",
        );
        bad(
            WorkloadConfig {
                address: AddressDistribution::Zipf,
                zipf_theta: -1.0,
                ..Default::default()
            },
            "zipf_theta",
        );
        bad(
            WorkloadConfig {
                address: AddressDistribution::Hotcold,
                hot_fraction: 1.0,
                ..Default::default()
            },
            "hot_fraction",
        );
        bad(
            WorkloadConfig {
                address: AddressDistribution::Hotcold,
                hot_access: 2.0,
                ..Default::default()
            },
            "hot_access",
        );
        bad(
            WorkloadConfig {
                sizes: vec![SizeWeight {
                    size_bytes: 4096,
                    weight: 0.0,
                }],
                ..Default::default()
            },
            "sizes",
        );
    }
}
