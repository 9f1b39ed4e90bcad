//! Weighted valid pages and wear: the lowest w · (valid / pages) + (1 − w) · (P/E / max P/E)
//! over the candidates; `weight_valid = 0.5` is seed 004 §5.1's 50/50 metric.

use super::VictimPolicy;
use crate::error::{NandError, Result};
use crate::ftl::plane_view::PlaneView;
use serde::{Deserialize, Serialize};

/// Lowest w · (valid / pages) + (1 − w) · (P/E / max P/E).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Weighted {
    /// Weight w of the valid-page term, 0 … 1 (1 = greedy).
    pub weight_valid: f64,
}

impl Default for Weighted {
    fn default() -> Self {
        Weighted { weight_valid: 0.5 }
    }
}

impl VictimPolicy for Weighted {
    fn validate(&self, table: &str) -> Result<()> {
        if !(0.0..=1.0).contains(&self.weight_valid) {
            return Err(NandError::config(format!("{table}.weight_valid"), "must be between 0 and 1"));
        }
        Ok(())
    }

    fn select(&mut self, plane: &PlaneView) -> Option<usize> {
        let ppb = f64::from(plane.pages_per_block);
        let w = self.weight_valid;
        let max_pe = plane.reclaimable().map(|(_, b)| b.pe).max()?.max(1);
        plane
            .reclaimable()
            .map(|(i, b)| {
                let score = w * f64::from(b.valid) / ppb + (1.0 - w) * f64::from(b.pe) / f64::from(max_pe);
                (i, score)
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ftl::plane_view::fixture::{full, view};

    #[test]
    fn weighs_valid_pages_against_wear() {
        // 8 pages per block, max P/E 900. w = .5: block 0 (2 valid, pe 900): .5 * .25 + .5 = .625;
        // block 1 (3 valid, pe 10): .5 * .375 + .5 * 10/900 = .1931; block 2 (1 valid, pe 600):
        // .5 * .125 + .5 * 600/900 = .3958 -> block 1.
        let blocks = [full(2, 900), full(3, 10), full(1, 600)];
        let last = |_| 0;
        let pick = |w| Weighted { weight_valid: w }.select(&view(&blocks, 0, &last));
        assert_eq!(pick(0.5), Some(1));
        // w = 1 is greedy (block 2, 1 valid); w = 0 is least worn (block 1).
        assert_eq!(pick(1.0), Some(2));
        assert_eq!(pick(0.0), Some(1));
        assert!(Weighted { weight_valid: 1.5 }.validate("ftl.gc").unwrap_err().to_string().contains("ftl.gc.weight_valid"));
    }
}
