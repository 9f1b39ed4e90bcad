//! A page's failure probability per decoding level, tabulated lazily over RBER, so that
//! judging a read costs a table lookup instead of binomial tails or FER-curve logarithms.
//!
//! Nodes sit at RBER = 2^e · (1 + j/64), j = 0..63, for 2^-40 ≤ RBER ≤ 1/2 (64 per octave,
//! at most 1.6 % apart); a node is computed exactly the first time a read falls next to
//! it, and values between nodes are interpolated in log–log (`ln P` linear in `ln RBER`),
//! the way the FER tables are read between their rows: a power law between two nodes is
//! reproduced exactly, where linear interpolation overstated a curve of log–log slope `s`
//! in the middle of an interval by `(1 + ρ^s) / (2 ρ^(s/2))`, `ρ` ≤ 1.0156 the nodes'
//! ratio: 9–17 % at the hard tail's slopes 55–75, 38–46 % at the soft tails' 110–120.
//! Where either node is 0 the interpolation is linear. The
//! index of a node is read off the bits of the RBER's `f64` (exponent and top six mantissa
//! bits), and the log weight within the interval takes one `ln_1p`. Below 2^-40 the
//! probabilities are interpolated linearly between RBER 0 (where no code fails) and the
//! first node.

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
    /// Their natural logarithms (−∞ for 0).
    logs: Vec<f64>,
    /// The probabilities at RBER 0, and their logarithms.
    zeros: Vec<f64>,
    zero_logs: Vec<f64>,
    /// `ln(1 + 1/(64 + j))` of each node `j` of an octave: its width in ln RBER.
    ln_steps: [f64; 1 << SUB_BITS],
}

/// Failure probabilities at one RBER: two neighbouring nodes and the weights between them.
#[derive(Debug, Clone, Copy)]
pub struct FailProbs<'a> {
    lo: &'a [f64],
    hi: &'a [f64],
    ln_lo: &'a [f64],
    ln_hi: &'a [f64],
    /// Weight of `hi`, linear in RBER.
    w: f64,
    /// Weight of `hi` linear in ln RBER, `ln(1 + wj) / ln_step`: taken only where a
    /// value is read in log-log (one `ln_1p` a read saved where none is).
    wj: f64,
    ln_step: f64,
}

impl FailProbs<'_> {
    /// Probability that the page fails at every level up to `level` (non-increasing).
    #[inline]
    pub fn at(&self, level: usize) -> f64 {
        let (lo, hi) = (self.lo[level], self.hi[level]);
        if lo > 0.0 && hi > 0.0 && lo != hi {
            (self.ln_lo[level] + self.u() * (self.ln_hi[level] - self.ln_lo[level])).exp()
        } else {
            lo + self.w * (hi - lo)
        }
    }

    /// Weight of `hi`, linear in ln RBER.
    #[inline]
    fn u(&self) -> f64 {
        self.wj.ln_1p() / self.ln_step
    }

    /// Whether `u ≥ at(level)`. The value lies between the two nodes' (to rounding), so a
    /// `u` outside them (by a margin far above `exp`'s and `ln`'s rounding) is decided
    /// without it: the same answer as `u >= self.at(level)`, mostly without an `exp`.
    #[inline]
    pub fn reaches(&self, u: f64, level: usize) -> bool {
        let (lo, hi) = (self.lo[level], self.hi[level]);
        let (min, max) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        if u > max * (1.0 + 1e-12) {
            true
        } else if u < min * (1.0 - 1e-12) {
            false
        } else {
            u >= self.at(level)
        }
    }
}

impl FailGrid {
    /// An empty grid for `levels` decoding levels.
    pub fn new(levels: usize) -> Self {
        FailGrid {
            levels,
            probs: vec![f64::NAN; NODES * levels],
            logs: vec![f64::NAN; NODES * levels],
            zeros: vec![0.0; levels],
            zero_logs: vec![f64::NEG_INFINITY; levels],
            ln_steps: std::array::from_fn(|j| (j as f64 + 64.0).recip().ln_1p()),
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
        let range = i * self.levels..(i + 1) * self.levels;
        self.probs[range.clone()].copy_from_slice(&p);
        for (l, x) in self.logs[range].iter_mut().zip(&p) {
            *l = x.ln();
        }
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
            // Linear from RBER 0 (`at` never takes the log branch with lo = 0).
            let w = f64::from_bits(bits) / Self::node_rber(0);
            return FailProbs {
                lo: &self.zeros,
                hi: &self.probs[..l],
                ln_lo: &self.zero_logs,
                ln_hi: &self.logs[..l],
                w,
                wj: 0.0,
                ln_step: 1.0,
            };
        }
        let i = (key - FIRST) as usize;
        let w = (bits & ((1 << SHIFT) - 1)) as f64 / (1u64 << SHIFT) as f64;
        self.fill(i, &exact);
        // The node interval is RBER 2^e·(64 + j)/64 … 2^e·(65 + j)/64, and the RBER
        // 2^e·(64 + j + w)/64, so its share of the interval in ln RBER is
        // ln(1 + w/(64 + j)) / ln(1 + 1/(64 + j)) (`FailProbs::u`).
        let j = (key & ((1 << SUB_BITS) - 1)) as usize;
        let hi = if w > 0.0 {
            self.fill(i + 1, &exact);
            i + 1
        } else {
            i
        };
        FailProbs {
            lo: &self.probs[i * l..(i + 1) * l],
            hi: &self.probs[hi * l..(hi + 1) * l],
            ln_lo: &self.logs[i * l..(i + 1) * l],
            ln_hi: &self.logs[hi * l..(hi + 1) * l],
            w,
            wj: w / (j as f64 + 64.0),
            ln_step: self.ln_steps[j],
        }
    }
}

/// The decoding level a read needs, given uniform `u` ∈ [0, 1) and the page failure
/// probability `fail(L)` of each level `L < levels` (non-increasing): the first level
/// with `u ≥ fail(L)`, so level `L` is needed with probability `fail(L−1) − fail(L)`;
/// `None` (uncorrectable) with probability `fail(levels − 1)`; `reaches(u, L)` tells
/// whether `u ≥ fail(L)`.
#[inline]
pub fn sample_needed_level(u: f64, levels: usize, reaches: impl Fn(f64, usize) -> bool) -> Option<u8> {
    (0..levels).find(|&l| reaches(u, l)).map(|l| l as u8)
}

#[cfg(test)]
mod tests {
    use super::super::ldpc::FerPoint;
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
    fn interpolates_in_log_log_between_exact_nodes() {
        // Power laws are straight lines in log-log, so any of them is reproduced exactly
        // between nodes: fail_0 = RBER·10, fail_1 = 1e150·RBER^80 (a soft tail's slope).
        let exact = |r: f64| vec![r * 10.0, 1e150 * r.powi(80)];
        let mut g = FailGrid::new(2);
        for r in [3e-3, 3.0123e-3, 1.8e-2, 7.77e-3] {
            let p = g.probs(r, exact);
            assert!((p.at(0) / (10.0 * r) - 1.0).abs() < 1e-12, "{r}");
            let want = 1e150 * r.powi(80);
            assert!((p.at(1) / want - 1.0).abs() < 1e-9, "{r}: {} vs {want}", p.at(1));
        }
        // The log weight by hand: 3e-3 lies between 2^-9·(1 + 34/64) and 2^-9·(1 + 35/64).
        let lo = 2f64.powi(-9) * (1.0 + 34.0 / 64.0);
        let hi = 2f64.powi(-9) * (1.0 + 35.0 / 64.0);
        let u = (3e-3f64 / lo).ln() / (hi / lo).ln();
        let p = g.probs(3e-3, exact);
        assert!((p.u() - u).abs() < 1e-12, "{} vs {u}", p.u());
        // A node at 0 interpolates linearly (no log of 0): fail = 0 up to 3e-3, then 1.
        let step = |r: f64| vec![if r > 3e-3 { 1.0 } else { 0.0 }];
        let mut g = FailGrid::new(1);
        let w = (3e-3 - lo) / (hi - lo);
        assert!((g.probs(3e-3, step).at(0) - w).abs() < 1e-12);
        // Below the first node: linear between 0 at RBER 0 and the node; 0.5 and above:
        // the last.
        let mut g = FailGrid::new(2);
        assert_eq!(g.probs(0.0, exact).at(0), 0.0);
        assert!((g.probs(2f64.powi(-42), exact).at(0) - 2f64.powi(-42) * 10.0).abs() < 1e-25);
        assert_eq!(g.probs(0.9, exact).at(0), 5.0);
    }

    #[test]
    fn reads_a_table_in_log_log_between_two_rows_by_hand() {
        // Rows FER 2e-6 at RBER 7e-3 and 2e-4 at 8e-3 (slope ln 100 / ln(8/7) = 34.5). At
        // the geometric mean RBER √(7e-3 · 8e-3) = 7.4833e-3 log-log reading gives the
        // geometric mean FER √(2e-6 · 2e-4) = 2e-5; a third of the way in ln RBER,
        // 7e-3^(2/3) · 8e-3^(1/3) = 7.3186e-3, it gives 2e-6 · 100^(1/3) = 9.2832e-6.
        // The chord in RBER gave 9.77e-5 at the first (4.9× the table's curve).
        use super::super::ldpc::FerCurves;
        let c = FerCurves::parse("hand", "level,rber,fer\n0,7e-3,2e-6\n0,8e-3,2e-4\n0,1e-2,1\n").unwrap();
        let mut g = FailGrid::new(1);
        let exact = |r: f64| vec![c.fer(0, r)];
        for (r, want) in [(7.483315e-3, 2.0e-5), (7.318611e-3, 9.283178e-6)] {
            let got = g.probs(r, exact).at(0);
            assert!((got / want - 1.0).abs() < 1e-5, "{r:e}: {got:e} vs {want:e}");
        }
    }

    #[test]
    fn follows_the_shipped_table_between_and_at_its_rows() {
        // The ladder reads the table in log-log between rows, so between two rows the grid
        // must give the table's value exactly (to rounding) wherever a node interval holds
        // no row; in an interval holding a row (a kink of the log-log line) the chord
        // misses by at most |Δs|·ln(ρ)/4 in ln FER, Δs the change of slope at the row.
        use super::super::config::SHIPPED_FER_TABLE;
        use super::super::ldpc::FerCurves;
        let c = FerCurves::parse("shipped", SHIPPED_FER_TABLE).unwrap();
        let levels = c.curves.len();
        let exact = |r: f64| (0..levels).map(|l| c.fer(l, r)).collect::<Vec<_>>();
        let mut g = FailGrid::new(levels);
        let node_of = |r: f64| (r.to_bits() >> SHIFT) - FIRST;
        let slope = |a: FerPoint, b: FerPoint| (b.fer / a.fer).ln() / (b.rber / a.rber).ln();
        let mut checked = 0;
        for (l, rows) in c.curves.iter().enumerate() {
            for (i, w) in rows.windows(2).enumerate() {
                if w[0].fer <= 0.0 || w[1].fer >= 1.0 || w[1].fer <= w[0].fer {
                    continue;
                }
                for t in [0.1, 0.37, 0.5, 0.81] {
                    let r = (w[0].rber.ln() * (1.0 - t) + w[1].rber.ln() * t).exp();
                    let got = g.probs(r, exact).at(l);
                    let want = c.fer(l, r);
                    if node_of(r) != node_of(w[0].rber) && node_of(r) != node_of(w[1].rber) {
                        assert!((got / want - 1.0).abs() < 1e-9, "k={l} r={r:e}: {got:e} vs {want:e}");
                        checked += 1;
                    }
                }
                // At the row w[1], a kink between this segment and the next.
                if let Some(&next) = rows.get(i + 2).filter(|n| n.fer > 0.0 && n.fer < 1.0) {
                    let ds = (slope(w[1], next) - slope(w[0], w[1])).abs();
                    let got = g.probs(w[1].rber, exact).at(l);
                    let bound = ds * (65f64 / 64.0).ln() / 4.0 + 1e-9;
                    assert!((got / w[1].fer).ln().abs() <= bound, "k={l} row {:e}", w[1].rber);
                }
            }
        }
        assert!(checked > 300, "{checked} points between rows");
    }

    /// `reaches` answers as `u >= at(level)` does, also for `u` on, or one rounding step
    /// either side of, the nodes' values and the interpolated value itself.
    #[test]
    fn reaches_agrees_with_the_value() {
        let exact = |r: f64| vec![(r * 40.0).min(1.0), 1e150 * r.powi(80), 0.0];
        let mut g = FailGrid::new(3);
        for r in [3e-3, 3.0123e-3, 7.77e-3, 1.8e-2, 2f64.powi(-42), 0.0] {
            let p = g.probs(r, exact);
            for l in 0..3 {
                let v = p.at(l);
                for x in [v, p.lo[l], p.hi[l], 0.0, 1.0, v * 0.5, v * 2.0] {
                    let below = f64::from_bits(x.to_bits().saturating_sub(1));
                    for u in [x, below, f64::from_bits(x.to_bits() + 1)] {
                        assert_eq!(p.reaches(u, l), u >= v, "rber {r:e} level {l} u {u:e} value {v:e}");
                    }
                }
            }
        }
    }

    #[test]
    fn sampling_by_a_uniform() {
        let fail = [0.3, 0.1, 0.0];
        let f = |u: f64, l: usize| u >= fail[l];
        assert_eq!(sample_needed_level(0.05, 3, f), Some(2));
        assert_eq!(sample_needed_level(0.1, 3, f), Some(1));
        assert_eq!(sample_needed_level(0.29, 3, f), Some(1));
        assert_eq!(sample_needed_level(0.3, 3, f), Some(0));
        let unc = [0.3, 0.2];
        assert_eq!(sample_needed_level(0.1, 2, |u, l| u >= unc[l]), None);
    }
}
