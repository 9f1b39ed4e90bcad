//! Where a read-refreshed block's valid pages go (seed 003): pure target selection for the
//! `dr` (Huang et al., 003's [5]) and `badr` (003 §III, Algorithm 1) reallocation policies.
//! Given the candidate destination blocks (P/E, reads since erase, free pages) and each
//! moved page's predicted reads, they return a destination per page; the relocation policy
//! does the moving. See docs/read_refresh.md for what the paper leaves open.

/// A destination candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetBlock {
    /// Block number.
    pub block: u32,
    /// P/E cycles.
    pub pe: u32,
    /// Reads since erase.
    pub reads: u64,
    /// Pages still free to program.
    pub free_pages: u32,
}

/// Exponents of the read-disturb term `γ·PE^p·R^q` the optimal read counts come from
/// (`tlc-3d`: p = 0.33, q = 1.71).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DisturbLaw {
    /// P/E exponent `p`.
    pub p: f64,
    /// Read-count exponent `q` (> 1: errors grow faster than reads, so spreading pays).
    pub q: f64,
}

/// `dr`: every page, hottest first, to the candidate whose read count (reads since erase
/// plus the predicted reads of the pages given to it) is lowest, so the blocks approach the
/// same read count. Returns the index into `targets` per page (in `predicted_reads`
/// order), or `None` when the free pages do not hold them all.
pub fn dr_targets(targets: &[TargetBlock], predicted_reads: &[u64]) -> Option<Vec<usize>> {
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

/// `badr` `updateTgtList`: each candidate's optimal read count. Minimising the disturb
/// errors `Σ PE_i^p · R_i^q` over read counts with a fixed total `R` (the candidates' reads
/// plus the moved pages' predicted reads) gives `R_i = R · w_i / Σ w` with
/// `w_i = PE_i^(−p / (q − 1))`: lower P/E, more reads (P/E 0 counts as 1).
pub fn badr_optimal_reads(targets: &[TargetBlock], predicted_reads: &[u64], law: DisturbLaw) -> Vec<f64> {
    let total =
        targets.iter().map(|t| t.reads as f64).sum::<f64>() + predicted_reads.iter().map(|&r| r as f64).sum::<f64>();
    let w: Vec<f64> = targets
        .iter()
        .map(|t| f64::from(t.pe.max(1)).powf(-law.p / (law.q - 1.0)))
        .collect();
    let sum: f64 = w.iter().sum();
    w.iter().map(|wi| total * wi / sum).collect()
}

/// `badr` (Algorithm 1): the pages in block order; the current target keeps a page while
/// its remaining read capacity (optimal − current − given) covers the page's predicted reads
/// (`meetCond`), else `findNext` takes the next candidate, in order of remaining capacity,
/// that covers it, or, when none does, the one with the most capacity left. Returns the
/// index into `targets` per page, or `None` when the free pages do not hold them all.
pub fn badr_targets(targets: &[TargetBlock], predicted_reads: &[u64], law: DisturbLaw) -> Option<Vec<usize>> {
    let optimal = badr_optimal_reads(targets, predicted_reads, law);
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

#[cfg(test)]
mod tests {
    use super::*;

    const TLC_3D: DisturbLaw = DisturbLaw { p: 0.33, q: 1.71 };

    fn block(block: u32, pe: u32, reads: u64, free_pages: u32) -> TargetBlock {
        TargetBlock {
            block,
            pe,
            reads,
            free_pages,
        }
    }

    #[test]
    fn dr_evens_read_counts() {
        // Blocks at 300, 100 and 0 reads; pages of 150, 100, 50, 50, 50 predicted reads.
        // Hottest first to the least-read block: 150 → C (150), 100 → B (200), 50 → C
        // (200), 50 → B (tie, first: 250), 50 → C (250). Loads 300 / 250 / 250.
        let t = [block(0, 2000, 300, 10), block(1, 2000, 100, 10), block(2, 2000, 0, 10)];
        let pages = [150, 100, 50, 50, 50];
        let got = dr_targets(&t, &pages).unwrap();
        assert_eq!(got, vec![2, 1, 2, 1, 2]);
        let mut load: Vec<u64> = t.iter().map(|b| b.reads).collect();
        for (i, &d) in got.iter().enumerate() {
            load[d] += pages[i];
        }
        assert_eq!(load, vec![300, 250, 250]);
        // A full block takes nothing; too few free pages → None.
        let t = [block(0, 0, 0, 0), block(1, 0, 500, 5)];
        assert_eq!(dr_targets(&t, &pages).unwrap(), vec![1; 5]);
        assert_eq!(dr_targets(&t, &[1; 6]), None);
    }

    #[test]
    fn badr_optimal_reads_by_hand() {
        // w = PE^(−0.33 / 0.71): 1000 → e^(−0.464789 · 6.907755) = 0.040331,
        // 3000 → e^(−0.464789 · 8.006368) = 0.024203; R = 315 → 196.86 / 118.14.
        let t = [block(7, 1000, 0, 10), block(9, 3000, 0, 10)];
        let r = badr_optimal_reads(&t, &[100, 5, 100, 5, 100, 5], TLC_3D);
        assert!((r[0] - 196.86).abs() < 0.01 && (r[1] - 118.14).abs() < 0.01, "{r:?}");
        // Equal wear: equal shares (DR's even read counts are the special case).
        let t = [block(0, 2000, 10, 10), block(1, 2000, 30, 10)];
        let r = badr_optimal_reads(&t, &[60], TLC_3D);
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
        let got = badr_targets(&t, &pages, TLC_3D).unwrap();
        assert_eq!(got, vec![1, 1, 0, 0, 1, 0]);
        let hot_to = |got: &[usize], d: usize| (0..6).filter(|&i| pages[i] == 100 && got[i] == d).count();
        assert_eq!((hot_to(&got, 1), hot_to(&got, 0)), (2, 1));
        // DR ignores wear: hottest first to the least-read block (ties to the first),
        // 100 → 0, 100 → 1, 100 → 0 (tie), then the 5s to block 1 (105, 110, 115): two of
        // the three hot pages land on the worn block.
        let dr = dr_targets(&t, &pages).unwrap();
        assert_eq!(dr, vec![0, 1, 1, 1, 0, 1]);
        assert_eq!((hot_to(&dr, 1), hot_to(&dr, 0)), (1, 2));
    }

    #[test]
    fn badr_respects_free_pages() {
        // The low-P/E block has room for reads but one free page.
        let t = [block(0, 500, 0, 1), block(1, 3500, 0, 10)];
        let got = badr_targets(&t, &[50, 50, 50], TLC_3D).unwrap();
        assert_eq!(got.iter().filter(|&&d| d == 0).count(), 1);
        assert_eq!(badr_targets(&t, &[1; 12], TLC_3D), None);
    }
}
