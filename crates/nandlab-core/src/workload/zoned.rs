//! Zoned random addresses (`address = "zoned"`): consecutive zones of the footprint, each
//! receiving a stated share of the random requests, uniformly inside it (fio's
//! `random_distribution=zoned`; JESD219's enterprise workload is one).

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// One zone of `workload.zones`, in address order from offset 0.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// Share of the random requests that start in this zone (0 … 1).
    pub access: f64,
    /// Share of the footprint this zone covers (> 0 … 1).
    pub space: f64,
}

/// Both shares must sum to 1 within this (they are typed as decimals, e.g. 0.05 + 0.15 + 0.8).
const SUM_TOLERANCE: f64 = 1e-9;

/// Checks `zones`, naming `{key("zones")}` or the entry at fault.
pub fn validate(zones: &[Zone], key: &dyn Fn(&str) -> String) -> Result<()> {
    if zones.is_empty() {
        return Ok(());
    }
    for (i, z) in zones.iter().enumerate() {
        if !(z.access.is_finite() && (0.0..=1.0).contains(&z.access)) {
            return Err(NandError::config(
                key(&format!("zones[{i}].access")),
                format!("must be between 0 and 1, got {}", z.access),
            ));
        }
        if !(z.space.is_finite() && z.space > 0.0 && z.space <= 1.0) {
            return Err(NandError::config(
                key(&format!("zones[{i}].space")),
                format!("must be above 0 and at most 1, got {}", z.space),
            ));
        }
    }
    for (what, sum) in [
        ("access", zones.iter().map(|z| z.access).sum::<f64>()),
        ("space", zones.iter().map(|z| z.space).sum::<f64>()),
    ] {
        if (sum - 1.0).abs() > SUM_TOLERANCE {
            return Err(NandError::config(
                key("zones"),
                format!("the zones' `{what}` shares sum to {sum}, not 1"),
            ));
        }
    }
    Ok(())
}

/// The zones laid over `units` start addresses: (cumulative access share, first unit,
/// units) per zone. Every zone gets at least one unit; the last ends at `units`.
pub fn layout(zones: &[Zone], units: u64) -> Vec<(f64, u64, u64)> {
    let mut out = Vec::with_capacity(zones.len());
    let (mut cum_access, mut cum_space, mut start) = (0.0, 0.0, 0u64);
    for (i, z) in zones.iter().enumerate() {
        cum_access += z.access;
        cum_space += z.space;
        let end = if i + 1 == zones.len() {
            units
        } else {
            ((cum_space * units as f64).round() as u64).clamp(start + 1, units)
        };
        let start_here = start.min(units - 1);
        out.push((cum_access, start_here, end.max(start_here + 1) - start_here));
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> String {
        format!("workload.{k}")
    }

    #[test]
    fn jesd219_zones_over_1000_units() {
        let zones = [
            Zone {
                access: 0.5,
                space: 0.05,
            },
            Zone {
                access: 0.3,
                space: 0.15,
            },
            Zone {
                access: 0.2,
                space: 0.8,
            },
        ];
        // 5 % of 1,000 units = 50, the next 15 % = 150 (to unit 200), the rest 800.
        assert_eq!(
            layout(&zones, 1000),
            vec![(0.5, 0, 50), (0.8, 50, 150), (1.0, 200, 800)]
        );
    }

    #[test]
    fn bad_zones_are_named() {
        let bad = |zones: &[Zone]| validate(zones, &key).unwrap_err().to_string();
        let z = |access, space| Zone { access, space };
        assert!(bad(&[z(0.5, 0.5), z(0.4, 0.5)]).contains("workload.zones"));
        assert!(bad(&[z(0.5, 0.5), z(0.4, 0.5)]).contains("`access` shares sum to 0.9"));
        assert!(bad(&[z(1.0, 0.0)]).contains("workload.zones[0].space"));
        assert!(bad(&[z(0.5, 1.0), z(0.5, 0.2)]).contains("`space` shares sum to 1.2"));
        assert!(bad(&[z(f64::NAN, 1.0)]).contains("workload.zones[0].access"));
        validate(&[z(0.5, 0.05), z(0.3, 0.15), z(0.2, 0.8)], &key).unwrap();
    }

    #[test]
    fn zones_and_the_zoned_address_come_together() {
        use super::super::{AddressDistribution, Synthetic, WorkloadConfig, WorkloadContext};
        let ctx = WorkloadContext {
            logical_bytes: 1 << 30,
            seed: 3,
        };
        let zones = vec![
            Zone {
                access: 0.9,
                space: 0.1,
            },
            Zone {
                access: 0.1,
                space: 0.9,
            },
        ];
        let zoned = WorkloadConfig {
            address: AddressDistribution::Zoned,
            zones: zones.clone(),
            requests: Some(100_000),
            read_fraction: 0.0,
            ..WorkloadConfig::default()
        };
        // 90 % of the starts in the first 10 % of 1 GiB: 5 σ of a binomial share is
        // 5 · sqrt(0.9 · 0.1 / 100,000) = 0.0047.
        let reqs: Vec<_> = Synthetic::new(&zoned, &ctx).unwrap().map(|r| r.unwrap()).collect();
        let first = reqs.iter().filter(|r| r.offset_bytes < (1 << 30) / 10).count();
        assert!((first as f64 / 1e5 - 0.9).abs() <= 0.0047, "{first}");
        let err = |cfg: WorkloadConfig| Synthetic::new(&cfg, &ctx).err().unwrap().to_string();
        let e = err(WorkloadConfig {
            zones: Vec::new(),
            ..zoned.clone()
        });
        assert!(e.contains("workload.zones") && e.contains("needed"), "{e}");
        let e = err(WorkloadConfig {
            address: AddressDistribution::Uniform,
            ..zoned
        });
        assert!(e.contains("workload.zones") && e.contains("only used"), "{e}");
    }
}
