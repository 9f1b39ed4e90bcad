//! Threshold-voltage (Vth) model of a multi-level cell: per-level distributions, their
//! drift with wear (P/E cycles) and retention time, read reference voltages, and page RBER
//! from the overlaps of the distributions with the references.
//!
//! Two forms share one type:
//! - **Dong–Xie–Zhang** (TCAS-I 2011, constants of `research/models.md` §1.2): Gaussian
//!   erased state, programmed states uniform over `[V_p, V_p + ΔV_pp]` (ISPP with verify),
//!   random telegraph noise `Laplace(0, K_λ·N^0.5)`, and a downward retention shift
//!   `Normal(μ_d, σ_d²)` with `μ_d = K_s·(x−x₀)·K_d·N^0.5·ln(1+t/t₀)`,
//!   `σ_d² = K_s·(x−x₀)·K_m·N^0.6·ln(1+t/t₀)`.
//! - **Gaussian** (seed 002 Eq. 2, 10–11): every level `Normal(μ_s, δ_s²)`, optionally with
//!   power-law drift of mean and width in P/E (Cai et al. DATE'13 form).
//!
//! Levels are indexed by threshold voltage, 0 = erased (lowest). Each level stores a bit
//! pattern (`level_patterns`), written as seed 002 writes states: `0b10` is S1 '10', first
//! character 1, second 0. The per-page functions ([`VthModel::page_bit`],
//! [`VthModel::page_refs`], [`VthModel::page_rber`], ...) take a pattern *bit* index; the
//! simulator's page type `t` (0 = the lower page, programmed first) reads bit
//! [`pattern_bit_of_page_type`] `= bits − 1 − t`, the first character for type 0. With the
//! Gray order 11 < 10 < 00 < 01 that character needs one read reference (between levels 1
//! and 2) and the second two (levels 0|1 and 2|3), as in seed 002 §5.1: the lower page is
//! the single-reference page, as MLC physics has it (its bit is set by the first program
//! pass; the second pass never moves a cell across V₁). 002 calls it the "MSB page" (the
//! pattern's most significant bit), nandlab's summaries `lsb` (the lower page).
//!
//! A level's distribution at given wear and age — its window ⊗ the retention normal ⊗
//! the RTN Laplace — is evaluated in closed form (`vth_level.rs`); the parameters and
//! presets are in `vth_params.rs`, the reference solvers in `vth_solve.rs`.
//!
//! Approximation: the retention shift of a level uses the level's *centre* `x` (the mean
//! of the erased Gaussian, the middle of an ISPP window) instead of each cell's own `x`;
//! the public MATLAB implementation of the model uses `V_p` the same way. The sampler
//! uses the same approximation so that [`VthModel::sample`] and [`VthModel::state_cdf`]
//! describe one distribution.

use std::cell::OnceCell;

use super::vth_level::LevelAt;
pub use super::vth_params::{pattern_bit_of_page_type, LevelDist, RetentionParams, RtnParams, VthParams};
pub use super::vth_solve::REF_TOL_V;
use super::vth_solve::{brent_min, brent_root};
use crate::error::Result;
use rand::Rng;
use rand_distr::{Distribution, Exp1, StandardNormal};

/// Threshold-voltage model of one cell type.
#[derive(Debug, Clone)]
pub struct VthModel {
    params: VthParams,
    /// Level of each pattern (inverse of `level_patterns`).
    level_of_pattern: Vec<u8>,
    x0: f64,
    /// Eq. 3 shift distribution `(shift_v, probability)`; empty when coupling is off.
    coupling_mix: Vec<(f64, f64)>,
    /// Reads of the block since its erase, for the read-disturb rise.
    reads: f64,
}

impl VthModel {
    /// Builds a model; validates the parameters.
    pub fn new(params: VthParams) -> Result<Self> {
        params.validate("reliability.vth")?;
        let mut level_of_pattern = vec![0u8; params.levels.len()];
        for (lvl, &p) in params.level_patterns.iter().enumerate() {
            level_of_pattern[p as usize] = lvl as u8;
        }
        let x0 = params.levels[0].centre_v();
        let rises: Vec<f64> = params.levels.iter().map(|l| l.centre_v() - x0).collect();
        let coupling_mix = params.coupling.map_or_else(Vec::new, |c| c.shift_mixture(&rises));
        Ok(VthModel {
            params,
            level_of_pattern,
            x0,
            coupling_mix,
            reads: 0.0,
        })
    }

    /// The same cells after `reads` reads of their block (read disturb; no effect without
    /// `read_disturb`).
    pub fn at_reads(&self, reads: f64) -> VthModel {
        VthModel { reads, ..self.clone() }
    }

    /// Read-disturb rise (volts) of `state` after this model's reads.
    pub fn read_disturb_rise_v(&self, state: usize) -> f64 {
        let Some(rd) = &self.params.read_disturb else {
            return 0.0;
        };
        let top = self.params.levels[self.n_states() - 1].centre_v();
        rd.rise_v(self.reads, top + rd.pass_margin_v, self.params.levels[state].centre_v())
    }

    /// Mixes `f(v − shift)` over the Eq. 3 coupling shifts (just `f(v)` when off), for a
    /// probability.
    fn coupled(&self, v: f64, f: impl Fn(f64) -> f64) -> f64 {
        if self.coupling_mix.is_empty() {
            return f(v);
        }
        self.mixed(v, f).clamp(0.0, 1.0)
    }

    /// The coupling mixture of `f` without the clamp to a probability (for a density).
    fn mixed(&self, v: f64, f: impl Fn(f64) -> f64) -> f64 {
        if self.coupling_mix.is_empty() {
            return f(v);
        }
        self.coupling_mix.iter().map(|&(s, p)| p * f(v - s)).sum::<f64>()
    }

    /// The parameters.
    pub fn params(&self) -> &VthParams {
        &self.params
    }

    /// Number of Vth levels (states), `2^bits`.
    pub fn n_states(&self) -> usize {
        self.params.levels.len()
    }

    /// Bits per cell (= page types).
    pub fn bits_per_cell(&self) -> usize {
        self.params.bits_per_cell as usize
    }

    /// Bit pattern stored by Vth level `state` (0 = erased).
    pub fn pattern_of_level(&self, state: usize) -> u8 {
        self.params.level_patterns[state]
    }

    /// Vth level that stores bit pattern `pattern`.
    pub fn level_of_pattern(&self, pattern: u8) -> usize {
        self.level_of_pattern[pattern as usize] as usize
    }

    /// Pattern bit `bit` (0 = least significant, the last character) held by a cell at
    /// level `state`; page type `t` reads bit [`pattern_bit_of_page_type`]`(bits, t)`.
    pub fn page_bit(&self, state: usize, bit: usize) -> u8 {
        (self.params.level_patterns[state] >> bit) & 1
    }

    /// Indices `i` of the read references (between levels `i` and `i+1`) that the page
    /// holding pattern bit `bit` senses: those where the bit changes.
    pub fn page_refs(&self, bit: usize) -> Vec<usize> {
        (0..self.n_states() - 1)
            .filter(|&i| self.page_bit(i, bit) != self.page_bit(i + 1, bit))
            .collect()
    }

    /// RTN Laplace scale `λ` at `pe` cycles (0 when RTN is off).
    pub fn rtn_lambda_v(&self, pe: f64) -> f64 {
        self.params
            .rtn
            .as_ref()
            .map_or(0.0, |r| r.k_lambda * pe.max(0.0).powf(r.pe_exp))
    }

    /// Retention shift (mean `μ_d` ≥ 0 downward, variance `σ_d²`) of `state`.
    pub fn retention_shift_v(&self, state: usize, pe: f64, retention_s: f64) -> (f64, f64) {
        let Some(r) = &self.params.retention else {
            return (0.0, 0.0);
        };
        let x = self.params.levels[state].centre_v() - self.x0;
        if x <= 0.0 || retention_s <= 0.0 || pe <= 0.0 {
            return (0.0, 0.0);
        }
        let lt = (retention_s / r.t0_s).ln_1p();
        let mean = r.ks * x * r.kd * pe.powf(r.mean_pe_exp) * lt;
        let var = r.ks * x * r.km * pe.powf(r.var_pe_exp) * lt;
        (mean, var)
    }

    /// The distribution of `state` at `pe` cycles and `retention_s` seconds (before
    /// coupling).
    fn core(&self, state: usize, pe: f64, retention_s: f64) -> LevelAt {
        let (loss, var) = self.retention_shift_v(state, pe, retention_s);
        let shift = loss - self.read_disturb_rise_v(state);
        let lambda = self.rtn_lambda_v(pe);
        let pe = pe.max(0.0);
        match self.params.levels[state] {
            LevelDist::Gaussian {
                mean_v,
                sigma_v,
                mean_pe_coef,
                mean_pe_exp,
                sigma_pe_coef,
                sigma_pe_exp,
            } => {
                let m = mean_v + mean_pe_coef * pe.powf(mean_pe_exp) - shift;
                let s = sigma_v + sigma_pe_coef * pe.powf(sigma_pe_exp);
                LevelAt {
                    low: m,
                    width: 0.0,
                    sd: (s * s + var).sqrt(),
                    lambda,
                }
            }
            LevelDist::Ispp { verify_v, delta_v_pp } => LevelAt {
                low: verify_v - shift,
                width: delta_v_pp,
                sd: var.sqrt(),
                lambda,
            },
        }
    }

    /// `P(Vth ≤ v)` for a cell programmed to level `state` after `pe` P/E cycles and
    /// `retention_s` seconds of retention.
    pub fn state_cdf(&self, state: usize, v: f64, pe: f64, retention_s: f64) -> f64 {
        let c = self.core(state, pe, retention_s);
        self.coupled(v, |u| c.cdf(u))
    }

    /// `P(Vth > v)` (computed directly, accurate in the upper tail).
    pub fn state_sf(&self, state: usize, v: f64, pe: f64, retention_s: f64) -> f64 {
        let c = self.core(state, pe, retention_s);
        self.coupled(v, |u| c.sf(u))
    }

    /// Density of `state`'s Vth at `v` (volts⁻¹), the derivative of
    /// [`Self::state_cdf`]: its zero is the stationary point of the misread cost.
    pub fn state_pdf(&self, state: usize, v: f64, pe: f64, retention_s: f64) -> f64 {
        let c = self.core(state, pe, retention_s);
        self.mixed(v, |u| c.pdf(u))
    }

    /// `P(lo < Vth ≤ hi)`, from whichever tail is accurate (`lo`/`hi` may be ±∞).
    pub fn state_interval_prob(&self, state: usize, lo: f64, hi: f64, pe: f64, retention_s: f64) -> f64 {
        let cdf = |v: f64| self.state_cdf(state, v, pe, retention_s);
        let sf = |v: f64| self.state_sf(state, v, pe, retention_s);
        self.interval_prob(state, (lo, hi), (pe, retention_s), &cdf, &sf)
    }

    /// [`Self::state_interval_prob`] with the tail functions given (memoised by
    /// [`Self::transition_probs`]).
    fn interval_prob(
        &self,
        state: usize,
        (lo, hi): (f64, f64),
        (pe, retention_s): (f64, f64),
        cdf: &dyn Fn(f64) -> f64,
        sf: &dyn Fn(f64) -> f64,
    ) -> f64 {
        if hi <= lo {
            return 0.0;
        }
        let c = self.core(state, pe, retention_s).centre();
        let cdf = |v: f64| if v == f64::NEG_INFINITY { 0.0 } else { cdf(v) };
        let sf = |v: f64| if v == f64::INFINITY { 0.0 } else { sf(v) };
        let p = if hi <= c {
            cdf(hi) - cdf(lo)
        } else if lo >= c {
            sf(lo) - sf(hi)
        } else {
            1.0 - cdf(lo) - sf(hi)
        };
        p.max(0.0)
    }

    /// Draws the Vth of one cell programmed to `state`.
    pub fn sample<R: Rng + ?Sized>(&self, state: usize, pe: f64, retention_s: f64, rng: &mut R) -> f64 {
        let c = self.core(state, pe, retention_s);
        let mut v = c.low;
        if c.width > 0.0 {
            v += c.width * rng.random::<f64>();
        }
        if c.sd > 0.0 {
            let z: f64 = StandardNormal.sample(rng);
            v += c.sd * z;
        }
        if c.lambda > 0.0 {
            let e: f64 = Exp1.sample(rng);
            v += if rng.random::<bool>() {
                c.lambda * e
            } else {
                -c.lambda * e
            };
        }
        if !self.coupling_mix.is_empty() {
            let mut u: f64 = rng.random();
            let last = self.coupling_mix[self.coupling_mix.len() - 1].0;
            v += self
                .coupling_mix
                .iter()
                .find(|&&(_, p)| {
                    u -= p;
                    u < 0.0
                })
                .map_or(last, |&(s, _)| s);
        }
        v
    }

    /// Read reference voltages (`levels − 1`, increasing): the fixed ones, or the optimal
    /// ones at this wear and age (each minimises the misreads between its two neighbours).
    pub fn read_refs_v(&self, pe: f64, retention_s: f64) -> Vec<f64> {
        if let Some(r) = &self.params.read_refs_v {
            return r.clone();
        }
        self.optimal_read_refs_v(pe, retention_s)
    }

    /// Optimal read references: for each adjacent pair, the voltage minimising
    /// `P(level i read above) + P(level i+1 read below)`, to [`REF_TOL_V`]: where the two
    /// densities are equal (Brent's root finding on `ln pdf_{i+1} − ln pdf_i` between
    /// the two levels' centres: nearly linear in `v`, a handful of evaluations), or, where
    /// that difference does not change sign there, by Brent's minimisation of the cost. A
    /// looser search (golden section to 1e-4 V) left each level's misread probability
    /// ~1e-3 (relative) off the optimum's, differently at every wear and age: noise the
    /// `vth` table could not interpolate.
    pub fn optimal_read_refs_v(&self, pe: f64, retention_s: f64) -> Vec<f64> {
        (0..self.n_states() - 1)
            .map(|i| {
                let ci = self.core(i, pe, retention_s);
                let cj = self.core(i + 1, pe, retention_s);
                let (a, b) = (ci.centre(), cj.centre());
                // A zero density (beyond a window without noise) counts as the smallest
                // positive one: the logarithms stay finite and the sign right.
                let ln_pdf = |s: usize, v: f64| self.state_pdf(s, v, pe, retention_s).max(f64::MIN_POSITIVE).ln();
                let slope = |v: f64| ln_pdf(i + 1, v) - ln_pdf(i, v);
                brent_root(slope, a, b, REF_TOL_V).unwrap_or_else(|| {
                    let cost =
                        |v: f64| self.state_sf(i, v, pe, retention_s) + self.state_cdf(i + 1, v, pe, retention_s);
                    brent_min(cost, a, b, REF_TOL_V)
                })
            })
            .collect()
    }

    /// `P(read as level j | programmed to level i)` for every `j`, with references `refs`.
    pub fn transition_probs(&self, state: usize, refs: &[f64], pe: f64, retention_s: f64) -> Vec<f64> {
        let n = self.n_states();
        // Each reference bounds two intervals: its tail probabilities are worked out once.
        let cdf_at: Vec<OnceCell<f64>> = refs.iter().map(|_| OnceCell::new()).collect();
        let sf_at: Vec<OnceCell<f64>> = refs.iter().map(|_| OnceCell::new()).collect();
        let tail = |at: &[OnceCell<f64>], v: f64, f: &dyn Fn(f64) -> f64| match refs.iter().position(|&r| r == v) {
            Some(k) => *at[k].get_or_init(|| f(v)),
            None => f(v),
        };
        let cdf = |v: f64| tail(&cdf_at, v, &|v| self.state_cdf(state, v, pe, retention_s));
        let sf = |v: f64| tail(&sf_at, v, &|v| self.state_sf(state, v, pe, retention_s));
        (0..n)
            .map(|j| {
                let lo = if j == 0 { f64::NEG_INFINITY } else { refs[j - 1] };
                let hi = if j == n - 1 { f64::INFINITY } else { refs[j] };
                self.interval_prob(state, (lo, hi), (pe, retention_s), &cdf, &sf)
            })
            .collect()
    }

    /// Probability that pattern bit `bit` of a cell at level `state` is misread.
    pub fn state_bit_error_prob(&self, state: usize, bit: usize, refs: &[f64], pe: f64, retention_s: f64) -> f64 {
        let value = self.page_bit(state, bit);
        self.transition_probs(state, refs, pe, retention_s)
            .iter()
            .enumerate()
            .filter(|&(j, _)| self.page_bit(j, bit) != value)
            .map(|(_, p)| p)
            .sum()
    }

    /// RBER of the page holding pattern bit `bit` when the cells hold levels with shares
    /// `level_shares` (indexed by level, summing to 1; `None` = uniform, the random-data
    /// case of seed 002 Eq. 10–11).
    pub fn page_rber(&self, bit: usize, level_shares: Option<&[f64]>, pe: f64, retention_s: f64) -> f64 {
        let refs = self.read_refs_v(pe, retention_s);
        let n = self.n_states();
        (0..n)
            .map(|s| {
                let w = level_shares.map_or(1.0 / n as f64, |p| p[s]);
                if w == 0.0 {
                    0.0
                } else {
                    w * self.state_bit_error_prob(s, bit, &refs, pe, retention_s)
                }
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::stream_rng;
    use statrs::distribution::{ContinuousCDF, Normal};

    fn q(x: f64) -> f64 {
        Normal::standard().sf(x)
    }

    #[test]
    fn gray_pages_and_refs() {
        let m = VthModel::new(VthParams::dong_mlc()).unwrap();
        assert_eq!(m.n_states(), 4);
        // First character (bit 1): 1,1,0,0 → one reference between levels 1 and 2; it
        // is page type 0, the lower page.
        assert_eq!(pattern_bit_of_page_type(2, 0), 1);
        assert_eq!(m.page_refs(1), vec![1]);
        // Second character (bit 0): 1,0,0,1 → references 0|1 and 2|3; page type 1.
        assert_eq!(pattern_bit_of_page_type(2, 1), 0);
        assert_eq!(m.page_refs(0), vec![0, 2]);
        // TLC: type 0 reads the first of three characters, type 2 the last.
        assert_eq!((pattern_bit_of_page_type(3, 0), pattern_bit_of_page_type(3, 2)), (2, 0));
        assert_eq!(m.level_of_pattern(0b01), 3);
        assert_eq!(m.pattern_of_level(2), 0b00);
    }

    /// Seed 002 Eq. 10–11 with the Gaussian retention-free parameters, computed here
    /// from statrs' normal tail function. The model also counts non-adjacent misreads;
    /// the only one that is visible is the erased level read above `V₁` (MSB page,
    /// `(V₁ − μ₀)/δ₀ = 2.10/0.4217 ≈ 5σ`), added to the expectation explicitly.
    #[test]
    fn msb_lsb_rber_match_q_function_sums() {
        let p = VthParams::wang_retention_free_mlc();
        let m = VthModel::new(p).unwrap();
        let (d0, d1, d2, d3, d4, d5) = (1.40, 0.36, 0.34, 0.34, 0.36, 0.36);
        let (s0, sp) = (0.4217, 0.1084);
        let msb = 0.25 * q(d2 / sp) + 0.25 * q(d3 / sp) + 0.25 * q((d0 + d1 + d2) / s0);
        let lsb = 0.25 * q(d0 / s0) + 0.25 * q(d1 / sp) + 0.25 * q(d4 / sp) + 0.25 * q(d5 / sp);
        let got_msb = m.page_rber(1, None, 0.0, 0.0);
        let got_lsb = m.page_rber(0, None, 0.0, 0.0);
        assert!((got_msb / msb - 1.0).abs() < 1e-6, "{got_msb} vs {msb}");
        assert!((got_lsb / lsb - 1.0).abs() < 1e-6, "{got_lsb} vs {lsb}");
        // The paper solved Eq. 10–13 for an RBER limit of 4.5e-4 (§5.2).
        assert!((got_lsb - 4.5e-4).abs() < 0.1e-4, "{got_lsb}");
        assert!((got_msb - 4.5e-4).abs() < 0.3e-4, "{got_msb}");
    }

    #[test]
    fn sampler_agrees_with_cdf() {
        let m = VthModel::new(VthParams::dong_mlc()).unwrap();
        let mut rng = stream_rng(1, 99);
        let (pe, t) = (10_000.0, 365.0 * 86400.0);
        for state in 0..4 {
            let n = 40_000;
            let xs: Vec<f64> = (0..n).map(|_| m.sample(state, pe, t, &mut rng)).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            for &qv in &[mean - 0.1, mean, mean + 0.1] {
                let emp = xs.iter().filter(|&&x| x <= qv).count() as f64 / n as f64;
                let cdf = m.state_cdf(state, qv, pe, t);
                assert!((emp - cdf).abs() < 0.01, "state {state} v {qv}: {emp} vs {cdf}");
            }
        }
    }

    /// Cross-check against research/models.md §1.2 [C] (Monte Carlo, optimal refs,
    /// per-cell retention): average of LSB/MSB RBER at N = 10k, 1 year ≈ 1.5e-3 and at
    /// N = 20k, 1 year ≈ 6.7e-3; loose bounds because the notes used per-cell `x`.
    #[test]
    fn dong_rber_in_published_range() {
        let m = VthModel::new(VthParams::dong_mlc()).unwrap();
        let year = 365.0 * 86400.0;
        let avg = |pe: f64| 0.5 * (m.page_rber(0, None, pe, year) + m.page_rber(1, None, pe, year));
        let a = avg(10_000.0);
        let b = avg(20_000.0);
        assert!(a > 0.7e-3 && a < 3e-3, "{a}");
        assert!(b > 3e-3 && b < 13e-3, "{b}");
        // Fresh, no retention: only the erased tail (3.4 σ) matters.
        let fresh = m.page_rber(0, None, 1.0, 0.0);
        assert!(fresh < 1e-3, "{fresh}");
        // RBER grows with age.
        assert!(m.page_rber(0, None, 10_000.0, 30.0 * 86400.0) < m.page_rber(0, None, 10_000.0, year));
    }

    #[test]
    fn optimal_refs_drift_down_with_age() {
        let m = VthModel::new(VthParams::dong_mlc()).unwrap();
        let fresh = m.read_refs_v(1000.0, 0.0);
        let old = m.read_refs_v(20_000.0, 365.0 * 86400.0);
        assert_eq!(fresh.len(), 3);
        for i in 1..3 {
            assert!(old[i] < fresh[i], "{old:?} vs {fresh:?}");
        }
    }

    #[test]
    fn bad_params_are_config_errors() {
        let mut p = VthParams::dong_mlc();
        p.level_patterns = vec![0, 0, 1, 2];
        let e = VthModel::new(p).unwrap_err().to_string();
        assert!(e.contains("level_patterns"), "{e}");
    }
}
