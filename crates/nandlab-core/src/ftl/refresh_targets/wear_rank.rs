//! Which free block a refresh opens next in a plane, for any refresh-target policy: a
//! destination of `dr` or `badr`, or placement's refresh block (`baseline`, RL).
//!
//! 003 §III-B sorts "the blocks containing valid pages" by read count and by P/E and gives
//! the low-P/E ones more reads: destinations of different wear. In SSDsim, where 003 ran, a
//! plane opens its blocks in turn (`find_active_block` steps the active block number round
//! the plane), so under Table I's U(a,b) wear the blocks a refresh writes to have P/E from
//! all over the range, whichever policy runs. nandlab's free pool hands out the least-worn
//! block first (dynamic wear leveling, `allocator.rs`), which made every destination
//! equally young and BADR's P/E-aware split moot. So the blocks a refresh opens are drawn
//! across the free pool's wear instead: the `n`-th one a plane opens (counting from 0) is
//! the free block at wear rank `⌊v(n) · pool⌋` (rank 0 the least worn, by P/E then block
//! number), where `v` is the base-2 van der Corput sequence 0, ½, ¼, ¾, ⅛, ⅝, … (the bits
//! of `n` mirrored behind the binary point). Every aligned run of 2^k blocks then takes one
//! from each 1/2^k of the pool, as SSDsim's in-turn opening does on average, without a
//! random draw (runs stay reproducible). The sequence is our choice; 003 says nothing about
//! how blocks are opened. Host writes, GC and wear leveling still open the least-worn.

/// Wear rank (0: least worn) in a free pool of `pool` blocks of the `opened`-th block a
/// refresh opens in a plane; `< pool` when `pool > 0`.
pub fn destination_rank(opened: u64, pool: usize) -> usize {
    // v(n) = reverse_bits(n) / 2^64, exact in 128-bit integers.
    ((u128::from(opened.reverse_bits()) * pool as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_van_der_corput_sequence() {
        // v = 0, 1/2, 1/4, 3/4, 1/8, 5/8, 3/8, 7/8 of a pool of 384 blocks:
        // 0, 192, 96, 288, 48, 240, 144, 336.
        let ranks: Vec<usize> = (0..8).map(|n| destination_rank(n, 384)).collect();
        assert_eq!(ranks, vec![0, 192, 96, 288, 48, 240, 144, 336]);
        // ⌊(5/8) · 10⌋ = 6; ⌊(7/8) · 3⌋ = 2 (the most worn of three); one block: rank 0.
        assert_eq!((destination_rank(5, 10), destination_rank(7, 3)), (6, 2));
        assert!((0..1000).all(|n| destination_rank(n, 1) == 0));
    }

    #[test]
    fn aligned_runs_take_one_block_per_stratum() {
        // Any aligned run of 4 blocks takes one rank from each quarter of the pool.
        for start in (0..64).step_by(4) {
            let mut quarters: Vec<usize> = (start..start + 4).map(|n| destination_rank(n, 400) / 100).collect();
            quarters.sort_unstable();
            assert_eq!(quarters, vec![0, 1, 2, 3], "run from {start}");
        }
    }
}
