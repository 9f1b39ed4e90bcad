//! The JEDEC JESD219 enterprise endurance workload (`generator = "jesd219"`): random
//! requests with the standard's transfer-size mix and skewed address zones over the whole
//! user LBA space, made by the mix generator ([`super::Synthetic`]).
//!
//! The standard's numbers, as published in JESD219 (2010) and restated by vendors'
//! endurance notes and fio's sample job for it:
//! - transfer sizes 512 B 4 %, 1, 1.5, 2, 2.5, 3 and 3.5 KiB 1 % each, 4 KiB 67 %, 8 KiB 10 %,
//!   16 KiB 7 %, 32 KiB 3 %, 64 KiB 3 %;
//! - 50 % of the accesses to the first 5 % of the user LBAs, 30 % to the next 15 %, 20 % to
//!   the remaining 80 %;
//! - transfers of 4 KiB and more aligned on 4 KiB boundaries (smaller ones on 512 B
//!   sectors), all random.
//!
//! The read share is the user's `read_fraction` (endurance counts host writes; fio's sample
//! job for JESD219 mixes 40 % reads). JESD219's client workload is a trace, not a generator.

use super::zoned::Zone;
use super::{AddressDistribution, SizeWeight, WorkloadConfig};
use crate::error::{NandError, Result};

/// Transfer sizes (bytes) and their shares in percent.
pub const SIZES: [(u64, f64); 12] = [
    (512, 4.0),
    (1024, 1.0),
    (1536, 1.0),
    (2048, 1.0),
    (2560, 1.0),
    (3072, 1.0),
    (3584, 1.0),
    (4096, 67.0),
    (8192, 10.0),
    (16384, 7.0),
    (32768, 3.0),
    (65536, 3.0),
];

/// Address zones from LBA 0: (share of accesses, share of the LBA space).
pub const ZONES: [(f64, f64); 3] = [(0.50, 0.05), (0.30, 0.15), (0.20, 0.80)];

/// Sector alignment of transfers below 4 KiB.
pub const SECTOR_BYTES: u64 = 512;

/// Transfers of at least this size start on a multiple of it.
pub const LARGE_ALIGNMENT_BYTES: u64 = 4096;

/// The mix-generator config JESD219 implies for `cfg`: its sizes, zones, alignment and
/// random addresses; the rest (requests, rate, read share, footprint) is `cfg`'s. A key
/// the standard fixes, set to anything but its default, is an error naming it.
pub fn applied(cfg: &WorkloadConfig, key: &dyn Fn(&str) -> String) -> Result<WorkloadConfig> {
    let d = WorkloadConfig::default();
    let fixed: [(&str, bool); 6] = [
        ("sizes", !cfg.sizes.is_empty()),
        ("size_bytes", cfg.size_bytes != d.size_bytes),
        ("alignment_bytes", cfg.alignment_bytes != d.alignment_bytes),
        ("random_fraction", cfg.random_fraction != d.random_fraction),
        ("address", cfg.address != d.address),
        ("zones", !cfg.zones.is_empty()),
    ];
    if let Some((name, _)) = fixed.iter().find(|(_, set)| *set) {
        return Err(NandError::config(
            key(name),
            "set by workload.generator = \"jesd219\" (the standard fixes sizes, zones, alignment and random addresses): leave it out",
        ));
    }
    Ok(WorkloadConfig {
        sizes: SIZES
            .iter()
            .map(|&(size_bytes, weight)| SizeWeight { size_bytes, weight })
            .collect(),
        alignment_bytes: SECTOR_BYTES,
        random_fraction: 1.0,
        address: AddressDistribution::Zoned,
        zones: ZONES.iter().map(|&(access, space)| Zone { access, space }).collect(),
        ..cfg.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Generator, Op, Synthetic, WorkloadContext};
    use super::*;

    const GIB: u64 = 1 << 30;

    fn jesd(requests: u64) -> WorkloadConfig {
        WorkloadConfig {
            generator: Generator::Jesd219,
            requests: Some(requests),
            read_fraction: 0.4,
            ..WorkloadConfig::default()
        }
    }

    /// `count` of `n` draws is within 5 standard deviations of a share `p`.
    fn near(count: usize, n: usize, p: f64) -> bool {
        let sd = (p * (1.0 - p) / n as f64).sqrt();
        (count as f64 / n as f64 - p).abs() <= 5.0 * sd
    }

    #[test]
    fn generated_mix_follows_the_standard() {
        let n = 200_000;
        let ctx = WorkloadContext {
            logical_bytes: GIB,
            seed: 7,
        };
        let reqs: Vec<_> = Synthetic::new(&jesd(n as u64), &ctx)
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(reqs.len(), n);
        for &(size, pct) in &SIZES {
            let c = reqs.iter().filter(|r| r.size_bytes == size).count();
            assert!(near(c, n, pct / 100.0), "{size} B: {c} of {n}, want {pct} %");
        }
        // Zones by byte offset: [0, 5 %), [5 %, 20 %), [20 %, 100 %) of 1 GiB.
        let zone = |off: u64| match off as f64 / GIB as f64 {
            x if x < 0.05 => 0,
            x if x < 0.20 => 1,
            _ => 2,
        };
        for (z, &(access, _)) in ZONES.iter().enumerate() {
            let c = reqs.iter().filter(|r| zone(r.offset_bytes) == z).count();
            assert!(near(c, n, access), "zone {z}: {c} of {n}, want {access}");
        }
        let reads = reqs.iter().filter(|r| r.op == Op::Read).count();
        assert!(near(reads, n, 0.4), "{reads} reads of {n}");
        for r in &reqs {
            assert_eq!(r.offset_bytes % SECTOR_BYTES, 0, "{r:?}");
            if r.size_bytes >= 4096 {
                assert_eq!(r.offset_bytes % 4096, 0, "{r:?}");
            }
            assert!(r.offset_bytes + r.size_bytes <= GIB, "{r:?}");
        }
        // Small transfers use the 512 B alignment: some start off a 4 KiB boundary.
        assert!(reqs.iter().any(|r| r.size_bytes < 4096 && r.offset_bytes % 4096 != 0));
    }

    #[test]
    fn keys_the_standard_fixes_are_refused_by_name() {
        let ctx = WorkloadContext {
            logical_bytes: GIB,
            seed: 1,
        };
        let err = |cfg: WorkloadConfig| Synthetic::new(&cfg, &ctx).err().unwrap().to_string();
        let e = err(WorkloadConfig {
            size_bytes: 8192,
            ..jesd(10)
        });
        assert!(e.contains("workload.size_bytes") && e.contains("jesd219"), "{e}");
        let e = err(WorkloadConfig {
            address: AddressDistribution::Zipf,
            ..jesd(10)
        });
        assert!(e.contains("workload.address"), "{e}");
        let e = err(WorkloadConfig {
            random_fraction: 0.5,
            ..jesd(10)
        });
        assert!(e.contains("workload.random_fraction"), "{e}");
    }
}
