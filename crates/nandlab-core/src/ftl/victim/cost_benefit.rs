//! Cost-benefit (Rosenblum & Ousterhout's LFS cleaner, Kawaguchi et al. for flash): the
//! highest (1 − u) · age / 2u, u = valid pages / pages per block, age = time since the
//! block was last programmed (the age of its youngest data).

use super::VictimPolicy;
use crate::ftl::plane_view::PlaneView;
use serde::{Deserialize, Serialize};

/// Highest (1 − u) · age / 2u; a block with no valid page scores infinity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostBenefit {}

impl VictimPolicy for CostBenefit {
    fn select(&mut self, plane: &PlaneView) -> Option<usize> {
        let ppb = f64::from(plane.pages_per_block);
        plane
            .reclaimable()
            .map(|(i, b)| {
                let u = f64::from(b.valid) / ppb;
                let age = (plane.now_ns - (plane.last_program_ns)(i)).max(1) as f64;
                let score = if u == 0.0 {
                    f64::INFINITY
                } else {
                    (1.0 - u) * age / (2.0 * u)
                };
                (i, score)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flash::block::BlockState;
    use crate::ftl::plane_view::fixture::{full, view};

    #[test]
    fn older_data_outweighs_more_valid_pages() {
        // 8 pages per block, now = 1000. Block 0: 2 valid, last programmed at 900 (age 100):
        // .75 * 100 / .5 = 150. Block 1: 3 valid, at 100 (age 900): .625 * 900 / .75 = 750.
        let blocks = [full(2, 900), full(3, 10), BlockState::new_free(0), full(8, 0)];
        let last = |i: usize| [900, 100, 0, 0][i];
        assert_eq!(CostBenefit {}.select(&view(&blocks, 1000, &last)), Some(1));
        // With block 1 at 7 valid pages (.125 * 900 / 1.75 = 64.3) block 0 (150) wins.
        let blocks = [full(2, 900), full(7, 10)];
        assert_eq!(CostBenefit {}.select(&view(&blocks, 1000, &last)), Some(0));
    }

    #[test]
    fn an_untouched_aged_block_competes_on_the_run_clock() {
        // Issue 13: block 0 is preconditioned data, 7 of 8 pages valid; block 1 was written
        // at 900, 2 valid; now = 1000. On the run's clock block 0 counts as programmed at 0:
        // .125 * 1000 / 1.75 = 71.4 < .75 * 100 / .5 = 150 -> block 1 (greedy's choice too).
        let blocks = [full(7, 0), full(2, 0)];
        let run_clock = |i: usize| [0, 900][i];
        assert_eq!(CostBenefit {}.select(&view(&blocks, 1000, &run_clock)), Some(1));
        // Aged by a year of retention (3.15e16 ns) block 0 scores 2.25e15 and wins: the
        // cleaner then copies 7 pages to free 1, the demo's write amplification of 6.73.
        let year = 365 * 86_400_000_000_000i64;
        let retention_clock = |i: usize| [-year, 900][i];
        assert_eq!(CostBenefit {}.select(&view(&blocks, 1000, &retention_clock)), Some(0));
    }
}
