//! `dr`, data reallocation (Huang et al., 003's [5], as 003 §I–II describes it: "distribute
//! varied parts of the read refresh block … onto other valid blocks, for ensuring all valid
//! blocks can nearly reach the same read count"). Pages hottest first (by predicted reads),
//! each to the destination with the lowest read count so far (reads since erase plus the
//! predicted reads already given to it) that has a free page: the longest-first greedy,
//! which evens loads to within one page's reads. [5] is not available here; hottest-first
//! is our choice of order.

use super::{Assign, Spread, TargetBlock};

/// Even the destinations' read counts.
pub type Dr = Spread<EvenReads>;

/// `dr`'s rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EvenReads;

impl Assign for EvenReads {
    fn assign(targets: &[TargetBlock], predicted_reads: &[u64]) -> Option<Vec<usize>> {
        let mut load: Vec<u64> = targets.iter().map(|t| t.reads).collect();
        let mut free: Vec<u32> = targets.iter().map(|t| t.free_pages).collect();
        let mut order: Vec<usize> = (0..predicted_reads.len()).collect();
        // Largest first (ties in page order): the greedy that evens loads best.
        order.sort_by_key(|&i| std::cmp::Reverse(predicted_reads[i]));
        let mut out = vec![0; predicted_reads.len()];
        for i in order {
            let t = (0..targets.len()).filter(|&t| free[t] > 0).min_by_key(|&t| load[t])?;
            load[t] += predicted_reads[i];
            free[t] -= 1;
            out[i] = t;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{block, RefreshTargets};
    use super::*;

    const DR: Dr = Dr::new(3, 80_000);

    #[test]
    fn dr_evens_read_counts() {
        // Blocks at 300, 100 and 0 reads; pages of 150, 100, 50, 50, 50 predicted reads.
        // Hottest first to the least-read block: 150 → C (150), 100 → B (200), 50 → C
        // (200), 50 → B (tie, first: 250), 50 → C (250). Loads 300 / 250 / 250.
        let t = [block(0, 2000, 300, 10), block(1, 2000, 100, 10), block(2, 2000, 0, 10)];
        let pages = [150, 100, 50, 50, 50];
        let got = DR.assign(&t, &pages).unwrap();
        assert_eq!(got, vec![2, 1, 2, 1, 2]);
        let mut load: Vec<u64> = t.iter().map(|b| b.reads).collect();
        for (i, &d) in got.iter().enumerate() {
            load[d] += pages[i];
        }
        assert_eq!(load, vec![300, 250, 250]);
        // A full block takes nothing; too few free pages → None.
        let t = [block(0, 0, 0, 0), block(1, 0, 500, 5)];
        assert_eq!(DR.assign(&t, &pages).unwrap(), vec![1; 5]);
        assert_eq!(DR.assign(&t, &[1; 6]), None);
    }

    #[test]
    fn parameters_are_checked() {
        let e = Dr::new(0, 80_000)
            .validate("ftl.refresh_targets")
        .unwrap_err()
        .to_string();
        assert!(e.contains("ftl.refresh_targets.destination_blocks"), "{e}");
    }
}
