//! Seed 004's sensor logger (§5.2, Table 3): sensor data stored as files of `size_bytes`
//! (16 KB) in a region of `footprint_bytes` (256 MB), written in rotation — file slot 0, 1,
//! … and back to 0 when the region is full ("we just erase the old data and continue to
//! store the incoming data into this area"). A request is a read with probability
//! `read_fraction` (Table 3: 6.66 %) of a uniformly random file slot; 004 does not say what
//! its reads are (assumption). Op mix and arrivals are the `mix` generator's
//! ([`Synthetic`]), which supplies every request and the random slot of its reads.

use super::{Generator, Synthetic, WorkloadConfig, WorkloadContext};
use crate::error::Result;
use crate::host::request::{Op, Request};

/// The sensor-logger request stream (deterministic for a seed).
pub struct Sensor {
    inner: Synthetic,
    file_bytes: u64,
    files: u64,
    next_file: u64,
}

impl Sensor {
    /// A generator for `cfg` (validated here) on a device described by `ctx`.
    pub fn new(cfg: &WorkloadConfig, ctx: &WorkloadContext) -> Result<Self> {
        cfg.validate_synthetic(ctx)?;
        let footprint = cfg.footprint_bytes.unwrap_or(ctx.logical_bytes);
        // Random starts one file apart: a read picks a whole file slot.
        let inner_cfg = WorkloadConfig {
            generator: Generator::Mix,
            random_fraction: 1.0,
            alignment_bytes: cfg.size_bytes,
            ..cfg.clone()
        };
        Ok(Sensor {
            inner: Synthetic::new(&inner_cfg, ctx)?,
            file_bytes: cfg.size_bytes,
            files: footprint / cfg.size_bytes,
            next_file: 0,
        })
    }

    /// Number of file slots in the region.
    pub fn files(&self) -> u64 {
        self.files
    }
}

impl Iterator for Sensor {
    type Item = Result<Request>;

    fn next(&mut self) -> Option<Result<Request>> {
        let mut req = match self.inner.next()? {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        if req.op == Op::Write {
            req.offset_bytes = self.next_file * self.file_bytes;
            self.next_file = (self.next_file + 1) % self.files;
        }
        Some(Ok(req))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    /// Table 3: 16 KB files over 256 MB, 93.34 % writes.
    fn cfg(requests: u64, footprint: u64) -> WorkloadConfig {
        WorkloadConfig {
            generator: Generator::Sensor,
            requests: Some(requests),
            read_fraction: 0.0666,
            size_bytes: 16384,
            footprint_bytes: Some(footprint),
            ..Default::default()
        }
    }

    fn gen(cfg: &WorkloadConfig, seed: u64) -> Vec<Request> {
        let ctx = WorkloadContext {
            logical_bytes: 1 << 30,
            seed,
        };
        Sensor::new(cfg, &ctx).unwrap().map(|r| r.unwrap()).collect()
    }

    #[test]
    fn write_ratio_is_table_3s() {
        // 282,710 requests (Table 3, BL) at p(write) = 0.9334: sd = sqrt(n·p·q) = 132.6;
        // 5 sd = 663 requests, i.e. 93.34 % ± 0.23 %.
        let reqs = gen(&cfg(282_710, 256 * MIB), 21);
        let writes = reqs.iter().filter(|r| r.op == Op::Write).count() as f64;
        assert!((writes - 282_710.0 * 0.9334).abs() <= 663.0, "{writes}");
        assert!(reqs.iter().all(|r| r.size_bytes == 16384));
    }

    #[test]
    fn files_are_written_in_rotation() {
        // 256 MiB / 16 KiB = 16,384 slots; in a 1 MiB region 64 slots, so 1000 writes wrap 15×.
        let ctx = WorkloadContext {
            logical_bytes: 1 << 30,
            seed: 0,
        };
        assert_eq!(Sensor::new(&cfg(1, 256 * MIB), &ctx).unwrap().files(), 16_384);
        let reqs = gen(&cfg(1200, MIB), 22);
        let writes: Vec<u64> = reqs
            .iter()
            .filter(|r| r.op == Op::Write)
            .map(|r| r.offset_bytes)
            .collect();
        assert!(writes.len() > 1000);
        for (i, &off) in writes.iter().enumerate() {
            assert_eq!(off, (i as u64 % 64) * 16384, "write {i}");
        }
        // Reads land on whole file slots inside the region.
        for r in reqs.iter().filter(|r| r.op == Op::Read) {
            assert_eq!(r.offset_bytes % 16384, 0);
            assert!(r.offset_bytes + 16384 <= MIB);
        }
    }

    #[test]
    fn one_file_size_only() {
        let ctx = WorkloadContext {
            logical_bytes: 1 << 30,
            seed: 0,
        };
        let c = WorkloadConfig {
            sizes: vec![super::super::SizeWeight {
                size_bytes: 16384,
                weight: 1.0,
            }],
            ..cfg(10, MIB)
        };
        let e = super::super::open(&c, &ctx).err().expect("should fail").to_string();
        assert!(e.contains("`workload.sizes`"), "{e}");
    }
}
