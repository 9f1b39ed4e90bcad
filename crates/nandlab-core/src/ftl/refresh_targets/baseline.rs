//! `baseline` (003 §IV-A): "unconditionally moves the valid data in the RR block to another
//! new block while RR is triggered": one destination, new at every refresh (the last
//! refresh's block is closed, its unwritten pages left unprogrammed), opened by
//! `ftl.block_opening`.

use super::{RefreshTargets, TargetBlock};
use serde::{Deserialize, Serialize};

/// Every page to one new block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {}

impl RefreshTargets for Baseline {
    fn destination_blocks(&self) -> u32 {
        1
    }

    fn new_block_per_refresh(&self) -> bool {
        true
    }

    fn window_requests(&self) -> Option<u32> {
        None
    }

    fn assign(&self, targets: &[TargetBlock], predicted_reads: &[u64]) -> Option<Vec<usize>> {
        let first = targets.first()?;
        (first.free_pages as usize >= predicted_reads.len()).then(|| vec![0; predicted_reads.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::super::block;
    use super::*;

    #[test]
    fn every_page_to_the_first_block() {
        let t = [block(3, 100, 50, 4), block(4, 0, 0, 8)];
        assert_eq!(Baseline {}.assign(&t, &[9, 1, 5]), Some(vec![0, 0, 0]));
        assert_eq!(Baseline {}.assign(&t, &[1; 5]), None);
        assert_eq!(Baseline {}.destination_blocks(), 1);
        assert!(Baseline {}.new_block_per_refresh());
    }
}
