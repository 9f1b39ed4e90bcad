//! FIFO: the oldest-written block first (the log-structured baseline: the cleaner follows
//! the write log's tail), whatever its valid count. Age is when the block was last
//! programmed, i.e. when it filled; ties (blocks preconditioning filled together) go to the
//! lowest block.

use super::VictimPolicy;
use crate::ftl::plane_view::PlaneView;
use serde::{Deserialize, Serialize};

/// Oldest last program time first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fifo {}

impl VictimPolicy for Fifo {
    fn select(&mut self, plane: &PlaneView) -> Option<usize> {
        plane
            .reclaimable()
            .min_by_key(|&(i, _)| (plane.last_program_ns)(i))
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ftl::plane_view::fixture::{full, view};

    #[test]
    fn oldest_written_block_first() {
        // Block 2 filled first (t = 10) though block 0 has fewer valid pages; block 3 is
        // older still but frees nothing (8 of 8 valid).
        let blocks = [full(1, 0), full(6, 0), full(7, 0), full(8, 0)];
        let last = |i: usize| [300, 200, 10, 5][i];
        assert_eq!(Fifo {}.select(&view(&blocks, 1000, &last)), Some(2));
        // Equal times: the lowest block.
        let same = |_| -7;
        assert_eq!(Fifo {}.select(&view(&blocks, 1000, &same)), Some(0));
    }
}
