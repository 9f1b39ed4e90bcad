//! `badr`, block-attribute-aware data reallocation (003 §III, Algorithm 1).
//!
//! - `updateTgtList`: each destination's *optimal read count*. 003 sorts the blocks by read
//!   count and by P/E and "matches" them, without a formula. Chosen: the optimum of the
//!   error model's read-disturb term `γ·PE^p·R^q`: minimising `Σ PE_i^p · R_i^q` with the
//!   total reads `R` fixed (destinations' reads + moved pages' predicted reads) gives
//!   `R_i = R · w_i / Σ w`, `w_i = PE_i^(−p/(q−1))` (Lagrange; `q > 1`). Lower P/E, more
//!   reads; equal P/E, equal shares (DR, 003's claim that DR is right at U1).
//! - tgtList: destinations by remaining capacity (optimal − current), largest first.
//! - `meetCond(page, blk)`: the block has a free page and its remaining capacity covers
//!   the page's predicted reads.
//! - `findNext`: the next block in tgtList (cyclically) that meets it; if none does, the
//!   one with the most capacity left (003 does not say; so every page finds a home while
//!   free pages last).
//! - Pages in block order ("for page in blk").

use super::{default_destination_blocks, default_window_requests, validate_spread, RefreshTargets, TargetBlock};
use crate::error::{NandError, Result};
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
    /// P/E exponent `p` of the read-disturb term (`tlc-3d`: 0.33); set it to the error
    /// model's.
    #[serde(default = "default_p")]
    pub pe_exponent: f64,
    /// Read-count exponent `q` (> 1; `tlc-3d`: 1.71).
    #[serde(default = "default_q")]
    pub read_exponent: f64,
}

fn default_p() -> f64 {
    0.33
}

fn default_q() -> f64 {
    1.71
}

impl Badr {
    /// `updateTgtList`: each destination's optimal read count (P/E 0 counts as 1).
    pub fn optimal_reads(&self, targets: &[TargetBlock], predicted_reads: &[u64]) -> Vec<f64> {
        let total = targets.iter().map(|t| t.reads as f64).sum::<f64>()
            + predicted_reads.iter().map(|&r| r as f64).sum::<f64>();
        let e = -self.pe_exponent / (self.read_exponent - 1.0);
        let w: Vec<f64> = targets.iter().map(|t| f64::from(t.pe.max(1)).powf(e)).collect();
        let sum: f64 = w.iter().sum();
        w.iter().map(|wi| total * wi / sum).collect()
    }
}

impl RefreshTargets for Badr {
    fn validate(&self, table: &str) -> Result<()> {
        validate_spread(table, self.destination_blocks, self.window_requests)?;
        if !(self.pe_exponent.is_finite() && self.pe_exponent >= 0.0) {
            return Err(NandError::config(format!("{table}.pe_exponent"), "must be a number >= 0"));
        }
        if !(self.read_exponent.is_finite() && self.read_exponent > 1.0) {
            return Err(NandError::config(
                format!("{table}.read_exponent"),
                "must be a number > 1 (below, concentrating reads costs fewer errors)",
            ));
        }
        Ok(())
    }

    fn destination_blocks(&self) -> u32 {
        self.destination_blocks
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
        pe_exponent: 0.33,
        read_exponent: 1.71,
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
            read_exponent: 1.0,
            ..BADR
        }
        .validate("ftl.refresh_targets")
        .unwrap_err()
        .to_string();
        assert!(e.contains("ftl.refresh_targets.read_exponent"), "{e}");
    }
}
