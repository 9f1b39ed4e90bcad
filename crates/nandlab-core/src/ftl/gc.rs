//! Garbage-collection victim selection. Each policy scores the full blocks of a plane; the
//! FTL moves the victim's valid pages and erases it.

use super::config::GcPolicy;
use crate::flash::block::{BlockState, BlockStatus};

/// Picks a victim among `blocks` (the blocks of one plane, indexed from `first`), or `None`
/// when no full block would free any page. `last_program_ns(i)` is when block `i` of the
/// slice was last programmed (cost-benefit's age).
pub fn pick_victim(
    policy: GcPolicy,
    weight_valid: f64,
    blocks: &[BlockState],
    first: u32,
    pages_per_block: u32,
    now_ns: i64,
    last_program_ns: impl Fn(usize) -> i64,
) -> Option<u32> {
    let candidates = || {
        blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.status == BlockStatus::Full && u32::from(b.valid) < pages_per_block)
    };
    let ppb = f64::from(pages_per_block);
    let best = match policy {
        GcPolicy::Greedy => candidates().min_by_key(|(_, b)| b.valid).map(|(i, _)| i),
        GcPolicy::CostBenefit => candidates()
            .map(|(i, b)| {
                let u = f64::from(b.valid) / ppb;
                let age = (now_ns - last_program_ns(i)).max(1) as f64;
                let score = if u == 0.0 {
                    f64::INFINITY
                } else {
                    (1.0 - u) * age / (2.0 * u)
                };
                (i, score)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i),
        GcPolicy::Weighted => {
            let max_pe = candidates().map(|(_, b)| b.pe).max()?.max(1);
            candidates()
                .map(|(i, b)| {
                    let score = weight_valid * f64::from(b.valid) / ppb
                        + (1.0 - weight_valid) * f64::from(b.pe) / f64::from(max_pe);
                    (i, score)
                })
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(i, _)| i)
        }
    };
    best.map(|i| first + i as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(valid: u16, pe: u32) -> BlockState {
        BlockState {
            valid,
            pe,
            status: BlockStatus::Full,
            written: 8,
            ..BlockState::new_free(pe)
        }
    }

    #[test]
    fn policies_pick_hand_computed_victims() {
        // 8 pages per block. Block 0: 2 valid, pe 900, young; block 1: 3 valid, pe 10, old;
        // block 2: free; block 3: 8 valid (nothing to gain).
        let blocks = vec![full(2, 900), full(3, 10), BlockState::new_free(0), full(8, 0)];
        let ages = |i: usize| [900, 100, 0, 0][i];
        assert_eq!(
            pick_victim(GcPolicy::Greedy, 0.5, &blocks, 100, 8, 1000, ages),
            Some(100)
        );
        // cost-benefit at now = 1000: block 0: u = .25, age 100 -> .75*100/.5 = 150;
        // block 1: u = .375, age 900 -> .625*900/.75 = 750 -> block 1.
        assert_eq!(
            pick_victim(GcPolicy::CostBenefit, 0.5, &blocks, 100, 8, 1000, ages),
            Some(101)
        );
        // weighted 50/50, max pe 900: block 0: .5*.25 + .5*1 = .625; block 1: .5*.375 +
        // .5*10/900 = .1931 -> block 1.
        assert_eq!(
            pick_victim(GcPolicy::Weighted, 0.5, &blocks, 100, 8, 1000, ages),
            Some(101)
        );
        // weight 1.0 is greedy.
        assert_eq!(
            pick_victim(GcPolicy::Weighted, 1.0, &blocks, 100, 8, 1000, ages),
            Some(100)
        );
        assert_eq!(pick_victim(GcPolicy::Greedy, 0.5, &blocks[3..], 0, 8, 0, ages), None);
    }
}
