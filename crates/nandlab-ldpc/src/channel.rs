//! Channels that turn a codeword into channel LLRs.
//!
//! * [`BscChannel`]: binary symmetric channel (hard sensing of an abstract RBER), LLR
//!   `±ln((1−p)/p)`.
//! * [`MlcChannel`]: the codeword is written to one page type of MLC cells (the other
//!   page bits are random data), each cell's threshold voltage comes from nandlab's
//!   [`VthModel`] at a wear / retention point, and the page is sensed with its hard read
//!   reference(s) plus `k` extra reference voltages per boundary. The sensed region of each
//!   cell maps to an LLR through a table derived from the model:
//!
//!   ```text
//!   P(region j | level s) = F_s(V_j) − F_s(V_{j−1})                (model CDFs)
//!   LLR(j) = ln Σ_{s: bit(s)=0} P(j|s) / Σ_{s: bit(s)=1} P(j|s)     (equiprobable levels)
//!   ```
//!
//!   The hard references are the model's read references (ideal read-retry optimum for the
//!   Dong preset). The `k` extra voltages of a boundary sit at `V_hard + o_i·δ` with
//!   `o = σ·(+1, −1, +2, −2, +3, −3)[..k]`; the spacing `δ` and, for odd `k`, the side
//!   `σ = ±1` of the unpaired read are chosen to maximise the mutual information
//!   `I(bit; region)` over a grid ([`Placement::MaxMutualInformation`]), the criterion of
//!   Wang et al. (JSAC 2014). `k = 0` is hard decision.
//!
//! **All-zero view of a random word** ([`Channel::transmit_coset`]): the calibration's
//! default frames. The transmitted bits `x` are uniform and independent (what a data
//! scrambler gives a controller: the word is a codeword plus a random coset leader known
//! to the receiver), the channel acts on `x`, and the LLR of every position with `x_i = 1`
//! has its sign flipped. A min-sum decoder is symmetric — flipping the input signs on a
//! codeword's support flips its decisions on that support, because every check holds an
//! even number of those positions — so decoding these LLRs and comparing with the
//! all-zero word fails exactly when decoding the unflipped LLRs and comparing with `x`'s
//! codeword part would, with the asymmetric channel's true error statistics (P(0→1) ≠
//! P(1→0) is kept: each position's law depends on its own `x_i`). Nothing is encoded. The
//! one exception is a message exactly 0 (it decides 0 in both views); the f32 decoder
//! practically never produces one, the 8-bit one sometimes does, and the tests compare
//! both views' FER.

use nandlab_core::engine::rng::SimRng;
use nandlab_core::reliability::vth::VthModel;
use rand::{Rng, RngCore};

use crate::alias::AliasTable;
use serde::{Deserialize, Serialize};

/// Largest channel LLR magnitude (regions whose likelihood ratio under- or overflows).
pub const LLR_CAP: f64 = 30.0;

/// A channel: writes the LLRs seen by the decoder for one transmitted codeword.
pub trait Channel: Sync {
    /// Fills `llr` (one per code bit) for the transmitted `codeword` and returns the number
    /// of hard-decision (raw) bit errors.
    fn transmit(&self, codeword: &[u8], llr: &mut [f32], rng: &mut SimRng) -> usize;
    /// Fills `llr` with the all-zero view of a uniformly random transmitted word (see the
    /// module documentation) and returns its raw bit errors.
    fn transmit_coset(&self, llr: &mut [f32], rng: &mut SimRng) -> usize {
        let mut word = vec![0u8; llr.len()];
        random_bits(&mut word, rng);
        let errors = self.transmit(&word, llr, rng);
        for (l, &x) in llr.iter_mut().zip(&word) {
            if x == 1 {
                *l = -*l;
            }
        }
        errors
    }
    /// Expected raw (hard-decision) bit error rate.
    fn rber(&self) -> f64;
    /// The law of one position in the all-zero view, when every position draws from the
    /// same one: the outcomes [`transmit_coset`](Channel::transmit_coset) draws each bit
    /// from (used to draw frames with a given number of hard errors, `conditioned.rs`).
    /// `None` for a channel whose positions differ.
    fn coset_law(&self) -> Option<CosetLaw> {
        None
    }
}

/// The outcomes of one code bit in the all-zero view of a random word: probability, LLR
/// and whether the hard decision errs.
#[derive(Debug, Clone, PartialEq)]
pub struct CosetLaw {
    /// Probability of each outcome (sums to 1).
    pub prob: Vec<f64>,
    /// The outcome's LLR as the decoder sees it.
    pub llr: Vec<f32>,
    /// Whether the outcome is a hard-decision error.
    pub err: Vec<bool>,
}

impl CosetLaw {
    /// Probability that a bit's hard decision errs.
    pub fn error_probability(&self) -> f64 {
        self.prob
            .iter()
            .zip(&self.err)
            .filter(|(_, &e)| e)
            .map(|(p, _)| p)
            .sum()
    }
}

/// Fills `bits` with uniform random bits (one per byte), 64 per random word.
pub fn random_bits(bits: &mut [u8], rng: &mut SimRng) {
    for chunk in bits.chunks_mut(64) {
        let w: u64 = rng.random();
        for (i, d) in chunk.iter_mut().enumerate() {
            *d = ((w >> i) & 1) as u8;
        }
    }
}

/// Binary symmetric channel with crossover probability `p`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BscChannel {
    p: f64,
    llr: f32,
}

impl BscChannel {
    /// A BSC with crossover probability `p` (0 < p < 0.5).
    pub fn new(p: f64) -> Self {
        assert!(p > 0.0 && p < 0.5, "crossover probability must be in (0, 0.5)");
        Self {
            p,
            llr: ((1.0 - p) / p).ln() as f32,
        }
    }
}

impl Channel for BscChannel {
    fn transmit(&self, codeword: &[u8], llr: &mut [f32], rng: &mut SimRng) -> usize {
        let mut errors = 0;
        for (l, &c) in llr.iter_mut().zip(codeword) {
            let flip = rng.random::<f64>() < self.p;
            errors += usize::from(flip);
            let bit = c ^ u8::from(flip);
            *l = if bit == 0 { self.llr } else { -self.llr };
        }
        errors
    }

    fn rber(&self) -> f64 {
        self.p
    }

    fn coset_law(&self) -> Option<CosetLaw> {
        Some(CosetLaw {
            prob: vec![1.0 - self.p, self.p],
            llr: vec![self.llr, -self.llr],
            err: vec![false, true],
        })
    }
}

/// How the extra read voltages are placed around each hard reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Placement {
    /// Fixed spacing `delta` (normalised volts); `first_side` = σ (±1).
    Fixed {
        /// Spacing δ.
        delta: f64,
        /// Side of the first (unpaired for odd k) extra read.
        first_side: f64,
    },
    /// Spacing and side maximising `I(bit; region)` over `deltas` (both sides for odd k).
    MaxMutualInformation {
        /// Candidate spacings.
        deltas: Vec<f64>,
    },
}

impl Default for Placement {
    /// Max-MI over δ = 0.01, 0.02, …, 0.25 normalised volts.
    fn default() -> Self {
        Placement::MaxMutualInformation {
            deltas: (1..=25).map(|i| f64::from(i) * 0.01).collect(),
        }
    }
}

/// How cells are drawn in [`MlcChannel::transmit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Sampling {
    /// Draw each cell's Vth with [`VthModel::sample`] and compare it with the read voltages.
    #[default]
    Voltage,
    /// Draw each cell's region directly from the model's region probabilities (the same law
    /// as `Voltage`, about 10× cheaper).
    Region,
}

/// Where on the wear / retention plane the cells are, and which page is read.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OperatingPoint {
    /// Bit of the `VthModel` level pattern the page reads (1 = the single-reference page,
    /// the simulator's page type 0; see `nandlab_core::reliability::vth`).
    pub page: usize,
    /// P/E cycles.
    pub pe: f64,
    /// Retention time in seconds.
    pub retention_s: f64,
}

/// MLC soft-sensing channel on nandlab's Vth model (see the module documentation).
#[derive(Debug, Clone)]
pub struct MlcChannel {
    model: VthModel,
    point: OperatingPoint,
    extra_levels: usize,
    sampling: Sampling,
    hard_refs: Vec<f64>,
    offsets: Vec<f64>,
    delta: f64,
    voltages: Vec<f64>,
    /// `probs[s][j] = P(region j | level s)`.
    probs: Vec<Vec<f64>>,
    /// Cumulative `probs` (for region sampling).
    cum: Vec<Vec<f64>>,
    llr: Vec<f32>,
    hard_bit: Vec<u8>,
    mi: f64,
    rber: f64,
    /// Joint (level, region) law of a cell holding a uniformly random word.
    coset: AliasTable,
    /// Per (level, region): its weight in that law, the LLR in the all-zero view and
    /// whether the hard read errs.
    coset_weight: Vec<f64>,
    coset_llr: Vec<f32>,
    coset_err: Vec<u8>,
}

/// Offsets (in units of δ) of `k` extra reads: σ·(+1, −1, +2, −2, …)[..k].
pub fn extra_offsets(k: usize, side: f64) -> Vec<f64> {
    (1..=k)
        .map(|i| {
            let mag = i.div_ceil(2) as f64;
            if i % 2 == 1 {
                side * mag
            } else {
                -side * mag
            }
        })
        .collect()
}

struct Tables {
    voltages: Vec<f64>,
    probs: Vec<Vec<f64>>,
    llr: Vec<f32>,
    hard_bit: Vec<u8>,
    mi: f64,
}

impl MlcChannel {
    /// Builds the channel: hard references, extra read voltages, region probabilities and
    /// the LLR table for `extra_levels` extra reads per boundary.
    pub fn new(
        model: &VthModel,
        point: OperatingPoint,
        extra_levels: usize,
        placement: &Placement,
        sampling: Sampling,
    ) -> Self {
        assert!(point.page < model.bits_per_cell(), "page type out of range");
        let all_refs = model.read_refs_v(point.pe, point.retention_s);
        let hard_refs: Vec<f64> = model.page_refs(point.page).iter().map(|&i| all_refs[i]).collect();
        Self::with_hard_refs(model, point, hard_refs, extra_levels, placement, sampling)
    }

    /// The channel of [`MlcChannel::new`] at given hard references (the page's read
    /// voltages, ascending): a table's recorded channel is rebuilt from the references it
    /// was measured at, not from whatever the Vth model's reference search gives today.
    pub fn with_hard_refs(
        model: &VthModel,
        point: OperatingPoint,
        hard_refs: Vec<f64>,
        extra_levels: usize,
        placement: &Placement,
        sampling: Sampling,
    ) -> Self {
        assert!(point.page < model.bits_per_cell(), "page type out of range");
        let candidates: Vec<(f64, f64)> = if extra_levels == 0 {
            vec![(0.0, 1.0)]
        } else {
            match placement {
                Placement::Fixed { delta, first_side } => vec![(*delta, *first_side)],
                Placement::MaxMutualInformation { deltas } => {
                    let sides: &[f64] = if extra_levels % 2 == 1 { &[1.0, -1.0] } else { &[1.0] };
                    deltas
                        .iter()
                        .flat_map(|&d| sides.iter().map(move |&s| (d, s)))
                        .collect()
                }
            }
        };
        let mut best: Option<(f64, f64, Tables)> = None;
        for (delta, side) in candidates {
            let t = Self::tables(model, point, &hard_refs, &extra_offsets(extra_levels, side), delta);
            if best.as_ref().is_none_or(|b| t.mi > b.2.mi + 1e-12) {
                best = Some((delta, side, t));
            }
        }
        let (delta, side, t) = best.expect("at least one candidate");
        let cum = t
            .probs
            .iter()
            .map(|p| {
                let total: f64 = p.iter().sum();
                let mut acc = 0.0;
                p.iter()
                    .map(|x| {
                        acc += x / total;
                        acc
                    })
                    .collect()
            })
            .collect();
        let rber = model.page_rber(point.page, None, point.pe, point.retention_s);
        // A random word with random other pages puts every level with equal probability.
        let (mut weights, mut coset_llr, mut coset_err) = (Vec::new(), Vec::new(), Vec::new());
        for (s, p) in t.probs.iter().enumerate() {
            let total: f64 = p.iter().sum();
            let x = model.page_bit(s, point.page);
            for (j, &pj) in p.iter().enumerate() {
                weights.push(pj / total);
                coset_llr.push(if x == 1 { -t.llr[j] } else { t.llr[j] });
                coset_err.push(u8::from(t.hard_bit[j] != x));
            }
        }
        Self {
            model: model.clone(),
            point,
            extra_levels,
            sampling,
            hard_refs,
            offsets: extra_offsets(extra_levels, side),
            delta,
            voltages: t.voltages,
            probs: t.probs,
            cum,
            llr: t.llr,
            hard_bit: t.hard_bit,
            mi: t.mi,
            rber,
            coset: AliasTable::new(&weights),
            coset_weight: weights,
            coset_llr,
            coset_err,
        }
    }

    fn tables(model: &VthModel, point: OperatingPoint, hard_refs: &[f64], offsets: &[f64], delta: f64) -> Tables {
        let mut voltages: Vec<f64> = hard_refs.to_vec();
        for &h in hard_refs {
            voltages.extend(offsets.iter().map(|o| h + o * delta));
        }
        voltages.sort_by(f64::total_cmp);
        let n_regions = voltages.len() + 1;
        let states = model.n_states();
        let bound = |j: usize| -> (f64, f64) {
            let lo = if j == 0 { f64::NEG_INFINITY } else { voltages[j - 1] };
            let hi = if j == n_regions - 1 { f64::INFINITY } else { voltages[j] };
            (lo, hi)
        };
        let probs: Vec<Vec<f64>> = (0..states)
            .map(|s| {
                (0..n_regions)
                    .map(|j| {
                        let (lo, hi) = bound(j);
                        model.state_interval_prob(s, lo, hi, point.pe, point.retention_s)
                    })
                    .collect()
            })
            .collect();
        // Hard decision of a region: the page bit of the level its hard interval reads as.
        let page_refs = model.page_refs(point.page);
        let hard_bit: Vec<u8> = (0..n_regions)
            .map(|j| {
                let (lo, hi) = bound(j);
                let mid = if lo.is_finite() { lo } else { hi - 1.0 };
                let t = hard_refs.iter().filter(|&&h| h <= mid).count();
                let level = if t == 0 { 0 } else { page_refs[t - 1] + 1 };
                model.page_bit(level, point.page)
            })
            .collect();
        let n_bit = |b: u8| (0..states).filter(|&s| model.page_bit(s, point.page) == b).count() as f64;
        let (n0, n1) = (n_bit(0), n_bit(1));
        let mut llr = Vec::with_capacity(n_regions);
        let mut mi = 0.0;
        for j in 0..n_regions {
            let p0: f64 = (0..states)
                .filter(|&s| model.page_bit(s, point.page) == 0)
                .map(|s| probs[s][j])
                .sum::<f64>()
                / n0;
            let p1: f64 = (0..states)
                .filter(|&s| model.page_bit(s, point.page) == 1)
                .map(|s| probs[s][j])
                .sum::<f64>()
                / n1;
            let l = if p0 <= 0.0 && p1 <= 0.0 {
                if hard_bit[j] == 0 {
                    LLR_CAP
                } else {
                    -LLR_CAP
                }
            } else {
                (p0.max(1e-300) / p1.max(1e-300)).ln().clamp(-LLR_CAP, LLR_CAP)
            };
            llr.push(l as f32);
            let pj = 0.5 * (p0 + p1);
            for p in [p0, p1] {
                if p > 0.0 {
                    mi += 0.5 * p * (p / pj).log2();
                }
            }
        }
        Tables {
            voltages,
            probs,
            llr,
            hard_bit,
            mi,
        }
    }

    /// Number of extra reads per boundary `k`.
    pub fn extra_levels(&self) -> usize {
        self.extra_levels
    }

    /// The operating point.
    pub fn point(&self) -> OperatingPoint {
        self.point
    }

    /// Hard read references of the page.
    pub fn hard_refs(&self) -> &[f64] {
        &self.hard_refs
    }

    /// Chosen spacing δ (0 for hard decision).
    pub fn delta(&self) -> f64 {
        self.delta
    }

    /// Offsets of the extra reads in units of δ.
    pub fn offsets(&self) -> &[f64] {
        &self.offsets
    }

    /// All read voltages, increasing.
    pub fn voltages(&self) -> &[f64] {
        &self.voltages
    }

    /// LLR of each region (regions in increasing Vth).
    pub fn llr_table(&self) -> &[f32] {
        &self.llr
    }

    /// Hard-decision bit of each region.
    pub fn hard_bits(&self) -> &[u8] {
        &self.hard_bit
    }

    /// `P(region | level)`, indexed `[level][region]`.
    pub fn region_probs(&self) -> &[Vec<f64>] {
        &self.probs
    }

    /// Mutual information `I(bit; region)` in bits (equiprobable bits).
    pub fn mutual_information(&self) -> f64 {
        self.mi
    }

    #[inline]
    fn region_of(&self, v: f64) -> usize {
        self.voltages.partition_point(|&x| x < v)
    }
}

impl Channel for MlcChannel {
    fn transmit(&self, codeword: &[u8], llr: &mut [f32], rng: &mut SimRng) -> usize {
        let bits = self.model.bits_per_cell();
        let page = self.point.page;
        let mask: u8 = ((1u16 << bits) - 1) as u8;
        let mut errors = 0;
        let mut other: u64 = 0;
        let mut left = 0;
        for (l, &c) in llr.iter_mut().zip(codeword) {
            // Random bits of the other pages, drawn 64 at a time.
            if left < bits {
                other = rng.random();
                left = 64;
            }
            let rnd = (other as u8) & mask;
            other >>= bits;
            left -= bits;
            let pattern = (rnd & !(1 << page)) | ((c & 1) << page);
            let level = self.model.level_of_pattern(pattern);
            let region = match self.sampling {
                Sampling::Voltage => {
                    let v = self.model.sample(level, self.point.pe, self.point.retention_s, rng);
                    self.region_of(v)
                }
                Sampling::Region => {
                    let u: f64 = rng.random();
                    let cum = &self.cum[level];
                    cum.partition_point(|&x| x <= u).min(cum.len() - 1)
                }
            };
            *l = self.llr[region];
            errors += usize::from(self.hard_bit[region] != c);
        }
        errors
    }

    /// One alias draw per bit gives the cell's level and sensed region together.
    fn transmit_coset(&self, llr: &mut [f32], rng: &mut SimRng) -> usize {
        let mut errors = 0;
        for l in llr.iter_mut() {
            let o = self.coset.sample(rng.next_u64());
            *l = self.coset_llr[o];
            errors += usize::from(self.coset_err[o]);
        }
        errors
    }

    fn rber(&self) -> f64 {
        self.rber
    }

    fn coset_law(&self) -> Option<CosetLaw> {
        let total: f64 = self.coset_weight.iter().sum();
        Some(CosetLaw {
            prob: self.coset_weight.iter().map(|w| w / total).collect(),
            llr: self.coset_llr.clone(),
            err: self.coset_err.iter().map(|&e| e == 1).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nandlab_core::engine::rng::stream_rng;
    use nandlab_core::reliability::vth::VthParams;

    fn model() -> VthModel {
        VthModel::new(VthParams::dong_mlc()).unwrap()
    }

    const YEAR: f64 = 365.0 * 86_400.0;

    fn coarse() -> Placement {
        Placement::MaxMutualInformation {
            deltas: vec![0.03, 0.06, 0.09, 0.12],
        }
    }

    #[test]
    fn bsc_llr_closed_form() {
        let ch = BscChannel::new(0.01);
        let mut llr = vec![0f32; 4];
        let mut rng = stream_rng(1, 1);
        let _ = ch.transmit(&[0, 0, 0, 0], &mut llr, &mut rng);
        // ln(0.99 / 0.01) = 4.59512
        assert!(llr.iter().all(|&l| (l.abs() - 4.59512).abs() < 1e-4));
    }

    #[test]
    fn extra_offsets_alternate_and_nest() {
        assert_eq!(extra_offsets(0, 1.0), Vec::<f64>::new());
        assert_eq!(extra_offsets(3, -1.0), vec![-1.0, 1.0, -2.0]);
        assert_eq!(extra_offsets(6, 1.0), vec![1.0, -1.0, 2.0, -2.0, 3.0, -3.0]);
    }

    #[test]
    fn llr_signs_agree_with_hard_decisions() {
        let m = model();
        for (page, pe) in [(1, 15_000.0), (1, 30_000.0), (0, 25_000.0)] {
            let point = OperatingPoint {
                page,
                pe,
                retention_s: YEAR,
            };
            for k in 0..=6 {
                let ch = MlcChannel::new(&m, point, k, &coarse(), Sampling::Region);
                assert_eq!(ch.llr_table().len(), ch.voltages().len() + 1);
                assert_eq!(ch.voltages().len(), ch.hard_refs().len() * (k + 1));
                for (j, (&l, &b)) in ch.llr_table().iter().zip(ch.hard_bits()).enumerate() {
                    assert!(l != 0.0, "page {page} pe {pe} k {k} region {j}: zero LLR");
                    assert_eq!(
                        l < 0.0,
                        b == 1,
                        "page {page} pe {pe} k {k} region {j}: LLR {l} vs hard bit {b}"
                    );
                }
                for p in ch.region_probs() {
                    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-6);
                }
            }
        }
    }

    #[test]
    fn hard_llrs_are_the_log_ratio_of_page_error_probabilities() {
        // MSB page (one reference r): bit 1 = levels 0, 1; bit 0 = levels 2, 3. Below r:
        // LLR = ln [(P2(v≤r) + P3(v≤r)) / (P0(v≤r) + P1(v≤r))].
        let m = model();
        let (pe, t) = (20_000.0, YEAR);
        let ch = MlcChannel::new(
            &m,
            OperatingPoint {
                page: 1,
                pe,
                retention_s: t,
            },
            0,
            &coarse(),
            Sampling::Region,
        );
        let r = ch.hard_refs()[0];
        let below = |s| m.state_cdf(s, r, pe, t);
        let expect = ((below(2) + below(3)) / (below(0) + below(1))).ln();
        assert!((f64::from(ch.llr_table()[0]) - expect).abs() < 1e-3 * expect.abs());
    }

    #[test]
    fn mutual_information_grows_with_extra_reads() {
        // Nested read sets refine the regions (data-processing inequality).
        let m = model();
        let point = OperatingPoint {
            page: 1,
            pe: 30_000.0,
            retention_s: YEAR,
        };
        let mis: Vec<f64> = (0..=6)
            .map(|k| MlcChannel::new(&m, point, k, &coarse(), Sampling::Region).mutual_information())
            .collect();
        for w in mis.windows(2) {
            assert!(w[1] >= w[0] - 1e-12, "{mis:?}");
        }
        assert!(mis[0] < 1.0 && mis[0] > 0.8);
    }

    #[test]
    fn coset_view_errors_are_its_negative_llrs_at_the_model_rber() {
        // In the all-zero view a raw error is exactly a negative LLR (every region's LLR
        // sign is its hard decision), and errors occur at the model's page RBER.
        let m = model();
        let point = OperatingPoint {
            page: 1,
            pe: 30_000.0,
            retention_s: YEAR,
        };
        for k in [0, 3] {
            let ch = MlcChannel::new(&m, point, k, &coarse(), Sampling::Region);
            let n = 200_000;
            let mut llr = vec![0f32; n];
            let errors = ch.transmit_coset(&mut llr, &mut stream_rng(3, k as u64));
            assert_eq!(errors, llr.iter().filter(|&&l| l < 0.0).count());
            let (p, trials) = (ch.rber(), n as f64);
            let sd = (trials * p * (1.0 - p)).sqrt();
            assert!(
                (errors as f64 - trials * p).abs() < 5.0 * sd,
                "k={k}: {errors} vs {}",
                trials * p
            );
        }
    }

    #[test]
    fn voltage_and_region_sampling_match_model_rber() {
        let m = model();
        let point = OperatingPoint {
            page: 1,
            pe: 30_000.0,
            retention_s: YEAR,
        };
        let n = 40_000;
        let word: Vec<u8> = (0..n).map(|i| (i % 3 == 0) as u8).collect();
        let mut llr = vec![0f32; n];
        for s in [Sampling::Voltage, Sampling::Region] {
            let ch = MlcChannel::new(&m, point, 2, &coarse(), s);
            let p = ch.rber();
            let mut rng = stream_rng(9, 9);
            let errors: usize = (0..5).map(|_| ch.transmit(&word, &mut llr, &mut rng)).sum();
            let trials = (5 * n) as f64;
            let sd = (trials * p * (1.0 - p)).sqrt();
            assert!(
                (errors as f64 - trials * p).abs() < 5.0 * sd,
                "{s:?}: {errors} errors, expected {}",
                trials * p
            );
            // Every LLR is one of the table's values, with the sign of its hard decision.
            assert!(llr.iter().all(|l| ch.llr_table().contains(l)));
        }
    }
}
