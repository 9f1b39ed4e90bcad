//! `rl`, Read Leveling (Liu, Chang and Chang, "Read leveling for flash storage systems",
//! SYSTOR'15, 003's [11]). Its abstract (the paper itself could not be retrieved here):
//! "distributing read-hot data over different flash blocks. Thus, all read operations
//! could be issued to different blocks as evenly as possible, so as to minimize the
//! interference between read-hot data and other valid data on the same block"; 003 §IV-A:
//! it "works at Flash Translation Layer of SSDs to distribute hot read data, and then makes
//! use of read refresh". Implemented at the refresh: the pages hottest first (by predicted
//! reads) dealt round-robin over the destinations, so each gets an equal share of the hot
//! data whatever its read count or wear (what sets it apart from `dr` and `badr`). Not
//! implemented: spreading hot data on host writes too (placement sees no read history).

use super::{Assign, Spread, TargetBlock};

/// Deal hot pages round-robin over the destinations.
pub type Rl = Spread<RoundRobin>;

/// `rl`'s rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RoundRobin;

impl Assign for RoundRobin {
    fn assign(targets: &[TargetBlock], predicted_reads: &[u64]) -> Option<Vec<usize>> {
        let mut free: Vec<u32> = targets.iter().map(|t| t.free_pages).collect();
        let mut order: Vec<usize> = (0..predicted_reads.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(predicted_reads[i]));
        let mut out = vec![0; predicted_reads.len()];
        let mut next = 0;
        for i in order {
            let t = (0..targets.len())
                .map(|k| (next + k) % targets.len())
                .find(|&t| free[t] > 0)?;
            free[t] -= 1;
            out[i] = t;
            next = (t + 1) % targets.len();
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{block, RefreshTargets};
    use super::*;

    #[test]
    fn hot_pages_are_dealt_round_robin() {
        // Pages 5, 90, 1, 70, 80 → hottest first 90 (1), 80 (4), 70 (3), 5 (0), 1 (2),
        // dealt A B A B A: 90 → A, 80 → B, 70 → A, 5 → B, and 1 → B as A (two free
        // pages) is full. The blocks' read counts and wear do not matter.
        let rl = Rl::new(2, 10);
        let t = [block(0, 3000, 9000, 2), block(1, 0, 0, 10)];
        assert_eq!(rl.assign(&t, &[5, 90, 1, 70, 80]), Some(vec![1, 0, 1, 0, 1]));
        assert_eq!(rl.assign(&t, &[1; 13]), None);
    }
}
