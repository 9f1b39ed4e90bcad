//! `baseline` (003 §IV-A): all valid pages of the refreshed block to one fresh block. The
//! pages follow placement's refresh slot, filled in turn; a fresh block opens when it is
//! full (SSDsim's allocation).

use super::{RefreshTargets, TargetBlock};
use serde::{Deserialize, Serialize};

/// Every page to one block (placement's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {}

impl RefreshTargets for Baseline {
    fn destination_blocks(&self) -> u32 {
        0
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
        assert_eq!(Baseline {}.destination_blocks(), 0);
    }
}
