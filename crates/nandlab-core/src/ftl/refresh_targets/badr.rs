//! `badr`, block-attribute-aware data reallocation (003 §III, Algorithm 1).
//!
//! - Destinations: 003 §III-B matches "blocks with low error rate" to high read counts, so
//!   BADR takes its destinations from the free pool by P/E, the least worn first
//!   ([`RefreshTargets::chooses_by_wear`]); the other policies take the blocks
//!   `ftl.block_opening` opens.
//! - `updateTgtList`: each destination's *optimal read count*. 003 sorts the blocks by read
//!   count and by P/E and "matches" them, without a formula. Chosen: the optimum of the
//!   error model's read-disturb term `γ·PE^p·R^q`: minimising `Σ PE_i^p · R_i^q` with the
//!   total reads `R` fixed (destinations' reads + moved pages' predicted reads) and each
//!   `R_i` between the block's reads so far and the refresh threshold `T` (003 keeps each
//!   block at a *tolerable* read count: a block past `T` is refreshed again) gives
//!   `R_i = clamp(λ·w_i, reads_i, T)`, `w_i = PE_i^(−p/(q−1))` (Lagrange with bounds,
//!   Karush–Kuhn–Tucker; `q > 1`), `λ` such that the `R_i` sum to `R`: a block whose share
//!   would pass `T` is capped there and its excess spills to the others by their weights.
//!   When `R` exceeds every block's `T` all are at `T`. Lower P/E, more reads; equal P/E,
//!   equal shares (DR, 003's claim that DR is right at U1). `p` and `q` are the configured
//!   `empirical` model's (`reliability.empirical_preset` or `[reliability.empirical]`),
//!   unless set here.
//! - tgtList: destinations by remaining capacity (optimal − current), largest first.
//! - `meetCond(page, blk)`: the block has a free page and its remaining capacity covers
//!   the page's predicted reads.
//! - `findNext`: the next block in tgtList (cyclically) that meets it; if none does, the
//!   one with the most capacity left (003 does not say; so every page finds a home while
//!   free pages last).
//! - Pages in block order ("for page in blk").

use super::{default_destination_blocks, default_window_requests, validate_spread, RefreshTargets, TargetBlock};
use crate::error::{NandError, Result};
use crate::reliability::{ModelKind, ReliabilityConfig};
use serde::{Deserialize, Serialize};

/// Match pages' predicted reads to destinations' remaining read capacity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Badr {
    /// Open destination blocks per plane.
    #[serde(default = "default_destination_blocks")]
    pub destination_blocks: u32,
    /// Window of host requests pages' reads are predicted from (requests; 003: 80K).
    #[serde(default = "default_window_requests")]
    pub window_requests: u32,
    /// P/E exponent `p` of the read-disturb term; absent: the `empirical` model's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pe_exponent: Option<f64>,
    /// Read-count exponent `q` (> 1); absent: the `empirical` model's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_exponent: Option<f64>,
}

impl Badr {
    /// Fills the exponents left out from the configured error model's read-disturb term
    /// (the `empirical` power law's `p` and `q`); other models have none to give.
    pub fn resolve_exponents(&mut self, reliability: &ReliabilityConfig) -> Result<()> {
        if (self.pe_exponent.is_none() || self.read_exponent.is_none()) && reliability.model == ModelKind::Empirical
        {
            let m = reliability.empirical_params()?;
            self.pe_exponent.get_or_insert(m.p);
            self.read_exponent.get_or_insert(m.q);
        }
        Ok(())
    }

    /// `(p, q)`; [`RefreshTargets::validate`] has checked both are set.
    fn exponents(&self) -> (f64, f64) {
        (self.pe_exponent.unwrap_or(0.0), self.read_exponent.unwrap_or(2.0))
    }

    /// `updateTgtList`: each destination's optimal read count (P/E 0 counts as 1), capped
    /// at its refresh threshold.
    pub fn optimal_reads(&self, targets: &[TargetBlock], predicted_reads: &[u64]) -> Vec<f64> {
        let total = targets.iter().map(|t| t.reads as f64).sum::<f64>()
            + predicted_reads.iter().map(|&r| r as f64).sum::<f64>();
        let (p, q) = self.exponents();
        let e = -p / (q - 1.0);
        let w: Vec<f64> = targets.iter().map(|t| f64::from(t.pe.max(1)).powf(e)).collect();
        let hi: Vec<f64> = targets.iter().map(|t| t.read_limit as f64).collect();
        let lo: Vec<f64> = targets.iter().zip(&hi).map(|(t, &h)| (t.reads as f64).min(h)).collect();
        let at = |lambda: f64| -> Vec<f64> { (0..w.len()).map(|i| (lambda * w[i]).clamp(lo[i], hi[i])).collect() };
        if hi.iter().sum::<f64>() <= total {
            return hi;
        }
        // The sum rises with λ: bisect until λ stops moving (f64 precision).
        let (mut a, mut b) = (0.0_f64, 1.0_f64);
        while at(b).iter().sum::<f64>() < total {
            b *= 2.0;
        }
        for _ in 0..200 {
            let mid = 0.5 * (a + b);
            if mid <= a || mid >= b {
                break;
            }
            if at(mid).iter().sum::<f64>() < total {
                a = mid;
            } else {
                b = mid;
            }
        }
        at(b)
    }
}

impl RefreshTargets for Badr {
    fn validate(&self, table: &str) -> Result<()> {
        validate_spread(table, self.destination_blocks, self.window_requests)?;
        let unset = "not set, and reliability.model is not `empirical`, whose read-disturb term gives it";
        match self.pe_exponent {
            None => return Err(NandError::config(format!("{table}.pe_exponent"), unset)),
            Some(p) if !(p.is_finite() && p >= 0.0) => {
                return Err(NandError::config(format!("{table}.pe_exponent"), "must be a number >= 0"))
            }
            _ => {}
        }
        match self.read_exponent {
            None => Err(NandError::config(format!("{table}.read_exponent"), unset)),
            Some(q) if !(q.is_finite() && q > 1.0) => Err(NandError::config(
                format!("{table}.read_exponent"),
                "must be a number > 1 (below, concentrating reads costs fewer errors)",
            )),
            _ => Ok(()),
        }
    }

    fn destination_blocks(&self) -> u32 {
        self.destination_blocks
    }

    fn chooses_by_wear(&self) -> bool {
        true
    }

    fn window_requests(&self) -> Option<u32> {
        Some(self.window_requests)
    }

    fn assign(&self, targets: &[TargetBlock], predicted_reads: &[u64]) -> Option<Vec<usize>> {
        let optimal = self.optimal_reads(targets, predicted_reads);
        let mut room: Vec<f64> = optimal.iter().zip(targets).map(|(o, t)| o - t.reads as f64).collect();
        let mut free: Vec<u32> = targets.iter().map(|t| t.free_pages).collect();
        // tgtList: most remaining capacity first (ties: lower P/E).
        let mut list: Vec<usize> = (0..targets.len()).collect();
        list.sort_by(|&a, &b| room[b].total_cmp(&room[a]).then(targets[a].pe.cmp(&targets[b].pe)));
        let mut cur = 0;
        let mut out = Vec::with_capacity(predicted_reads.len());
        for &reads in predicted_reads {
            let meets = |t: usize, room: &[f64], free: &[u32]| free[t] > 0 && room[t] >= reads as f64;
            if !meets(list[cur], &room, &free) {
                cur = match (1..list.len())
                    .map(|k| (cur + k) % list.len())
                    .find(|&k| meets(list[k], &room, &free))
                {
                    Some(k) => k,
                    None => (0..list.len())
                        .filter(|&k| free[list[k]] > 0)
                        .max_by(|&a, &b| room[list[a]].total_cmp(&room[list[b]]).then(b.cmp(&a)))?,
                };
            }
            let t = list[cur];
            room[t] -= reads as f64;
            free[t] -= 1;
            out.push(t);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::block;
    use super::super::dr::Dr;
    use super::*;

    const BADR: Badr = Badr {
        destination_blocks: 2,
        window_requests: 80_000,
        pe_exponent: Some(0.33),
        read_exponent: Some(1.71),
    };

    #[test]
    fn optimal_reads_by_hand() {
        // w = PE^(−0.33 / 0.71): 1000 → e^(−0.464789 · 6.907755) = 0.040331,
        // 3000 → e^(−0.464789 · 8.006368) = 0.024203; R = 315 → 196.86 / 118.14.
        let t = [block(7, 1000, 0, 10), block(9, 3000, 0, 10)];
        let r = BADR.optimal_reads(&t, &[100, 5, 100, 5, 100, 5]);
        assert!((r[0] - 196.86).abs() < 0.01 && (r[1] - 118.14).abs() < 0.01, "{r:?}");
        // Equal wear: equal shares (DR's even read counts are the special case).
        let t = [block(0, 2000, 10, 10), block(1, 2000, 30, 10)];
        let r = BADR.optimal_reads(&t, &[60]);
        assert!((r[0] - 50.0).abs() < 1e-12 && (r[1] - 50.0).abs() < 1e-12, "{r:?}");
    }

    #[test]
    fn capped_optimum_and_spill_on_three_blocks_by_hand() {
        // p = 0.5, q = 1.5: w = PE^(−0.5/0.5) = 1/PE. A (P/E 100, 20 reads), B (200, 10),
        // C (400, 0), threshold 100; pages predicted 60, 50, 40, 30: R = 30 + 180 = 210.
        // Uncapped R·w/Σw = 210 · (4, 2, 1)/7 = 120, 60, 30: A passes 100, so A = 100 and
        // its excess spills to B and C by their weights 2 : 1 over the 110 left: 73.33,
        // 36.67 (both above their reads).
        let badr = Badr {
            destination_blocks: 3,
            window_requests: 80_000,
            pe_exponent: Some(0.5),
            read_exponent: Some(1.5),
        };
        let capped = |b: u32, pe: u32, reads: u64| TargetBlock {
            read_limit: 100,
            ..block(b, pe, reads, 10)
        };
        let t = [capped(0, 100, 20), capped(1, 200, 10), capped(2, 400, 0)];
        let pages = [60, 50, 40, 30];
        let r = badr.optimal_reads(&t, &pages);
        let want = [100.0, 220.0 / 3.0, 110.0 / 3.0];
        assert!(r.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9), "{r:?}");
        // Rooms 80, 63.33, 36.67; tgtList [A, B, C]. 60 → A (20 left); 50: A short → B
        // (13.33); 40: none covers it → the roomiest, C (−3.33); 30: none → A (20).
        assert_eq!(badr.assign(&t, &pages).unwrap(), vec![0, 1, 2, 0]);
        // C already at 60 reads: R = 270; A and B capped at 100 (280, 140 uncapped), C the
        // 70 left (above its 60).
        let t = [capped(0, 100, 20), capped(1, 200, 10), capped(2, 400, 60)];
        let r = badr.optimal_reads(&t, &pages);
        assert!(r.iter().zip([100.0, 100.0, 70.0]).all(|(a, b)| (a - b).abs() < 1e-9), "{r:?}");
        // More reads than every block's threshold: each at its threshold.
        let r = badr.optimal_reads(&t, &[200, 200]);
        assert_eq!(r, vec![100.0; 3]);
    }

    #[test]
    fn exponents_come_from_the_configured_error_model() {
        // tlc-3d's read-disturb term γ·PE^0.33·R^1.71 (reliability/tlc_3d.rs).
        let mut rel = ReliabilityConfig {
            model: ModelKind::Empirical,
            empirical_preset: "tlc-3d".into(),
            ..ReliabilityConfig::default()
        };
        let mut b = Badr {
            pe_exponent: None,
            read_exponent: None,
            ..BADR
        };
        b.resolve_exponents(&rel).unwrap();
        assert_eq!((b.pe_exponent, b.read_exponent), (Some(0.33), Some(1.71)));
        // mlc-2y's (p 1.76, q 0.47): q < 1 is refused by name.
        rel.empirical_preset = "mlc-2y".into();
        let mut b = Badr {
            pe_exponent: None,
            read_exponent: None,
            ..BADR
        };
        b.resolve_exponents(&rel).unwrap();
        assert_eq!((b.pe_exponent, b.read_exponent), (Some(1.76), Some(0.47)));
        assert!(b.validate("t").unwrap_err().to_string().contains("t.read_exponent"));
        // No power law to take them from, none given: an error naming the key.
        let mut b = Badr {
            pe_exponent: None,
            read_exponent: None,
            ..BADR
        };
        b.resolve_exponents(&ReliabilityConfig::default()).unwrap();
        assert!(b.validate("t").unwrap_err().to_string().contains("t.pe_exponent"));
    }

    #[test]
    fn badr_sends_more_hot_pages_to_the_lower_pe_block() {
        // Block 0 at P/E 3000 (room 118.14), block 1 at P/E 1000 (room 196.86); tgtList
        // [1, 0]. Pages in block order: 100 → 1 (96.86 left); 5 → 1 (91.86); 100: 1 short
        // → 0 (18.14); 5 → 0 (13.14); 100: neither covers it → the roomier, 1 (−8.14);
        // 5: 1 short → 0 (8.14).
        let t = [block(9, 3000, 0, 10), block(7, 1000, 0, 10)];
        let pages = [100, 5, 100, 5, 100, 5];
        let got = BADR.assign(&t, &pages).unwrap();
        assert_eq!(got, vec![1, 1, 0, 0, 1, 0]);
        let hot_to = |got: &[usize], d: usize| (0..6).filter(|&i| pages[i] == 100 && got[i] == d).count();
        assert_eq!((hot_to(&got, 1), hot_to(&got, 0)), (2, 1));
        // DR ignores wear: hottest first to the least-read block (ties to the first),
        // 100 → 0, 100 → 1, 100 → 0 (tie), then the 5s to block 1 (105, 110, 115): two of
        // the three hot pages land on the worn block.
        let dr = Dr::new(2, 80_000);
        let got = dr.assign(&t, &pages).unwrap();
        assert_eq!(got, vec![0, 1, 1, 1, 0, 1]);
        assert_eq!((hot_to(&got, 1), hot_to(&got, 0)), (1, 2));
    }

    #[test]
    fn badr_respects_free_pages() {
        // The low-P/E block has room for reads but one free page.
        let t = [block(0, 500, 0, 1), block(1, 3500, 0, 10)];
        let got = BADR.assign(&t, &[50, 50, 50]).unwrap();
        assert_eq!(got.iter().filter(|&&d| d == 0).count(), 1);
        assert_eq!(BADR.assign(&t, &[1; 12]), None);
        let e = Badr {
            read_exponent: Some(1.0),
            ..BADR
        }
        .validate("ftl.refresh_targets")
        .unwrap_err()
        .to_string();
        assert!(e.contains("ftl.refresh_targets.read_exponent"), "{e}");
    }
}
