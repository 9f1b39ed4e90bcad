//! A page's failure probability per decoding level, tabulated lazily over RBER, so that
//! judging a read costs a table lookup instead of binomial tails or FER-curve logarithms.
//!
//! Nodes sit at RBER = 2^e · (1 + j/64), j = 0..63, for 2^-40 ≤ RBER ≤ 1/2 (64 per octave,
//! at most 1.6 % apart); a node is computed exactly the first time a read falls next to
//! it, and values between nodes are interpolated linearly in RBER. The index of a node is
//! read off the bits of the RBER's `f64` (exponent and top six mantissa bits), so no
//! logarithm is taken. Below 2^-40 the probabilities are interpolated between RBER 0
//! (where no code fails) and the first node.

/// Mantissa bits that pick a node within an octave (64 nodes per octave).
const SUB_BITS: u32 = 6;
const SHIFT: u32 = 52 - SUB_BITS;
/// Key (`f64` bits >> SHIFT) of the first node, 2^-40, and of the last, 2^-1.
const FIRST: u64 = (1023 - 40) << SUB_BITS;
const LAST: u64 = (1023 - 1) << SUB_BITS;
const NODES: usize = (LAST - FIRST + 1) as usize;

/// Lazily tabulated page failure probabilities (see the module docs).
#[derive(Debug, Clone)]
pub struct FailGrid {
    levels: usize,
    /// `NODES × levels` probabilities, NaN where a node is not yet computed.
    probs: Vec<f64>,
    /// The probabilities at RBER 0.
    zeros: Vec<f64>,
}

/// Failure probabilities at one RBER: two neighbouring nodes and the weight between them.
#[derive(Debug, Clone, Copy)]
pub struct FailProbs<'a> {
    lo: &'a [f64],
    hi: &'a [f64],
    w: f64,
}

impl FailProbs<'_> {
    /// Probability that the page fails at every level up to `level` (non-increasing).
    #[inline]
    pub fn at(&self, level: usize) -> f64 {
        self.lo[level] + self.w * (self.hi[level] - self.lo[level])
    }
}

impl FailGrid {
    /// An empty grid for `levels` decoding levels.
    pub fn new(levels: usize) -> Self {
        FailGrid {
            levels,
            probs: vec![f64::NAN; NODES * levels],
            zeros: vec![0.0; levels],
        }
    }

    /// RBER of node `i`.
    fn node_rber(i: usize) -> f64 {
        f64::from_bits((FIRST + i as u64) << SHIFT)
    }

    /// Computes node `i` with `exact` (page failure probability per level at an RBER)
    /// unless it is known.
    #[inline]
    fn fill(&mut self, i: usize, exact: &impl Fn(f64) -> Vec<f64>) {
        if self.probs[i * self.levels].is_nan() {
            self.compute(i, exact);
        }
    }

    #[cold]
    #[inline(never)]
    fn compute(&mut self, i: usize, exact: &impl Fn(f64) -> Vec<f64>) {
        let p = exact(Self::node_rber(i));
        self.probs[i * self.levels..(i + 1) * self.levels].copy_from_slice(&p);
    }

    /// The failure probabilities at `rber`, interpolated between the nodes around it
    /// (computed with `exact` on first use). `rber` is clamped to [0, 1/2]; a NaN (a model
    /// pushed past its range) reads as 1/2, every level failing, rather than indexing
    /// past the grid.
    #[inline]
    pub fn probs(&mut self, rber: f64, exact: impl Fn(f64) -> Vec<f64>) -> FailProbs<'_> {
        debug_assert!(!rber.is_nan(), "an error model gave a NaN RBER");
        let rber = if rber.is_nan() { 0.5 } else { rber };
        let bits = rber.clamp(0.0, 0.5).to_bits();
        let key = bits >> SHIFT;
        let l = self.levels;
        if key < FIRST {
            self.fill(0, &exact);
            return FailProbs {
                lo: &self.zeros,
                hi: &self.probs[..l],
                w: f64::from_bits(bits) / Self::node_rber(0),
            };
        }
        let i = (key - FIRST) as usize;
        let w = (bits & ((1 << SHIFT) - 1)) as f64 / (1u64 << SHIFT) as f64;
        self.fill(i, &exact);
        let hi = if w > 0.0 {
            self.fill(i + 1, &exact);
            i + 1
        } else {
            i
        };
        FailProbs {
            lo: &self.probs[i * l..(i + 1) * l],
            hi: &self.probs[hi * l..(hi + 1) * l],
            w,
        }
    }
}

/// The decoding level a read needs, given uniform `u` ∈ [0, 1) and the page failure
/// probability `fail(L)` of each level `L < levels` (non-increasing): the first level
/// with `u ≥ fail(L)`, so level `L` is needed with probability `fail(L−1) − fail(L)`;
/// `None` (uncorrectable) with probability `fail(levels − 1)`.
#[inline]
pub fn sample_needed_level(u: f64, levels: usize, fail: impl Fn(usize) -> f64) -> Option<u8> {
    (0..levels).find(|&l| u >= fail(l)).map(|l| l as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_follow_the_bits_of_the_rber() {
        assert_eq!(FailGrid::node_rber(0), 2f64.powi(-40));
        assert_eq!(FailGrid::node_rber(NODES - 1), 0.5);
        // 3e-3 = 2^-9 · 1.536: between nodes 2^-9·(1 + 34/64) and 2^-9·(1 + 35/64).
        let key = 3e-3f64.to_bits() >> SHIFT;
        let i = (key - FIRST) as usize;
        assert_eq!(i, 31 * 64 + 34);
        assert_eq!(FailGrid::node_rber(i), 2f64.powi(-9) * (1.0 + 34.0 / 64.0));
    }

    #[test]
    fn interpolates_linearly_between_exact_nodes() {
        // fail_0 = RBER·10, fail_1 = RBER²: linear is exact for the first, and the second
        // is within (Δ/2)² of the true value, Δ = node spacing.
        let exact = |r: f64| vec![r * 10.0, r * r];
        let mut g = FailGrid::new(2);
        let r = 3e-3;
        let p = g.probs(r, exact);
        assert!((p.at(0) - 3e-2).abs() < 1e-15);
        let lo = 2f64.powi(-9) * (1.0 + 34.0 / 64.0);
        let hi = 2f64.powi(-9) * (1.0 + 35.0 / 64.0);
        let w = (r - lo) / (hi - lo);
        let want = lo * lo + w * (hi * hi - lo * lo);
        assert!((p.at(1) - want).abs() < 1e-18, "{} vs {want}", p.at(1));
        assert!((p.at(1) / (r * r) - 1.0).abs() < 1e-4);
        // Below the first node: between 0 at RBER 0 and the node; 0.5 and above: the last.
        assert_eq!(g.probs(0.0, exact).at(0), 0.0);
        assert!((g.probs(2f64.powi(-42), exact).at(0) - 2f64.powi(-42) * 10.0).abs() < 1e-25);
        assert_eq!(g.probs(0.9, exact).at(0), 5.0);
    }

    #[test]
    fn sampling_by_a_uniform() {
        let fail = [0.3, 0.1, 0.0];
        let f = |l: usize| fail[l];
        assert_eq!(sample_needed_level(0.05, 3, f), Some(2));
        assert_eq!(sample_needed_level(0.1, 3, f), Some(1));
        assert_eq!(sample_needed_level(0.29, 3, f), Some(1));
        assert_eq!(sample_needed_level(0.3, 3, f), Some(0));
        let unc = [0.3, 0.2];
        assert_eq!(sample_needed_level(0.1, 2, |l| unc[l]), None);
    }
}
