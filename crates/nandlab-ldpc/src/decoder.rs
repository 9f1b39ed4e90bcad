//! Layered min-sum decoding (normalized or offset) with early termination.
//!
//! LLR convention: `L = ln P(bit = 0 | y) / P(bit = 1 | y)`; a bit decides to 1 when its
//! a-posteriori LLR is negative (zero decides 0).
//!
//! Schedule: each block row of the QC base matrix is one layer. Because every present block
//! is a permutation, the `Z` checks of a layer touch disjoint variables and are processed
//! together. For layer `ℓ`, check `m` and each of its variables `v`:
//!
//! ```text
//! Q_v      = Λ_v − R_{ℓ,v}                     (variable-to-check, from the APP Λ)
//! R'_{ℓ,v} = Π_{u≠v} sign(Q_u) · f(min_{u≠v} |Q_u|)
//! Λ_v      = Q_v + R'_{ℓ,v}
//! ```
//!
//! with `f(x) = α·x` (normalized min-sum) or `f(x) = max(x − β, 0)` (offset min-sum). The
//! minimum over `u ≠ v` uses the two smallest magnitudes of the check (min1/min2 and the
//! position of min1). All loops run over the `Z` checks of a layer in contiguous runs so the
//! compiler vectorises them; the check-to-variable messages `R` are stored per edge
//! (`f32`, block-row-major) and `Λ` per variable.
//!
//! The syndrome of the hard decisions is tested before the first iteration (a word that is
//! already a codeword is returned after zero iterations) and, with early termination, after
//! every iteration.

use crate::code::{xor_rotated, QcCode};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Check-node update rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MinSumRule {
    /// Normalized min-sum: magnitudes scaled by `alpha` (0 < α ≤ 1).
    Normalized {
        /// Scaling factor α.
        alpha: f32,
    },
    /// Offset min-sum: magnitudes reduced by `beta` (in LLR units), floored at zero.
    Offset {
        /// Offset β.
        beta: f32,
    },
}

impl MinSumRule {
    #[inline(always)]
    fn apply(self, x: f32) -> f32 {
        match self {
            MinSumRule::Normalized { alpha } => alpha * x,
            MinSumRule::Offset { beta } => (x - beta).max(0.0),
        }
    }

    /// A short human-readable name, e.g. `nms(0.75)`.
    pub fn label(&self) -> String {
        match self {
            MinSumRule::Normalized { alpha } => format!("nms(alpha={alpha})"),
            MinSumRule::Offset { beta } => format!("oms(beta={beta})"),
        }
    }
}

/// Number format of the decoder's messages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Arithmetic {
    /// `f32` messages, one frame at a time ([`MinSumDecoder`]).
    #[default]
    F32,
    /// 8-bit saturating fixed point, 64 frames per SIMD batch
    /// ([`FixedDecoder`](crate::FixedDecoder)); channel LLRs are quantised to
    /// `round(L · llr_scale)` (steps per LLR unit).
    Fixed8 {
        /// Quantisation steps per LLR unit.
        llr_scale: f32,
    },
}

impl Arithmetic {
    /// A short human-readable name, e.g. `fixed8(llr_scale=4)`.
    pub fn label(&self) -> String {
        match self {
            Arithmetic::F32 => "f32".into(),
            Arithmetic::Fixed8 { llr_scale } => format!("fixed8(llr_scale={llr_scale})"),
        }
    }
}

/// Decoder settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DecoderConfig {
    /// Check-node rule.
    pub rule: MinSumRule,
    /// Maximum number of iterations (one iteration = one pass over all layers).
    pub max_iterations: u32,
    /// Stop as soon as the hard decisions satisfy every check.
    pub early_termination: bool,
    /// Message number format (absent in tables written before it existed: `f32`).
    #[serde(default)]
    pub arithmetic: Arithmetic,
}

impl Default for DecoderConfig {
    /// Normalized min-sum with α = 0.75, 20 iterations, early termination, `f32`.
    fn default() -> Self {
        Self {
            rule: MinSumRule::Normalized { alpha: 0.75 },
            max_iterations: 20,
            early_termination: true,
            arithmetic: Arithmetic::F32,
        }
    }
}

/// Outcome of one decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOutcome {
    /// Whether the final hard decisions form a codeword (zero syndrome). A converged decode
    /// may still be a miscorrection; compare with the sent word to count frame errors.
    pub converged: bool,
    /// Iterations run (0 when the channel decisions already were a codeword).
    pub iterations: u32,
}

/// Magnitude used for "no second minimum" (a degree-1 check).
const BIG: f32 = 1.0e4;

/// A layered min-sum decoder with its working memory (one per thread).
#[derive(Debug, Clone)]
pub struct MinSumDecoder {
    code: QcCode,
    cfg: DecoderConfig,
    /// Present blocks of each layer: (block column, shift).
    layers: Vec<Vec<(usize, usize)>>,
    /// First edge block of each layer.
    layer_off: Vec<usize>,
    app: Vec<f32>,
    r: Vec<f32>,
    q: Vec<f32>,
    min1: Vec<f32>,
    min2: Vec<f32>,
    idx: Vec<u32>,
    sgn: Vec<u32>,
    hard: Vec<u8>,
    syn: Vec<u8>,
    /// Run the AVX2 build of the layer kernel.
    avx2: bool,
}

impl MinSumDecoder {
    /// A decoder for `code` with settings `cfg`.
    pub fn new(code: &QcCode, cfg: DecoderConfig) -> Self {
        let z = code.z();
        let layers: Vec<Vec<(usize, usize)>> = (0..code.block_rows()).map(|r| code.layer(r).collect()).collect();
        let mut layer_off = Vec::with_capacity(layers.len());
        let mut e = 0;
        for l in &layers {
            layer_off.push(e);
            e += l.len();
        }
        let dmax = layers.iter().map(Vec::len).max().unwrap_or(0);
        Self {
            code: code.clone(),
            cfg,
            layers,
            layer_off,
            app: vec![0.0; code.n()],
            r: vec![0.0; e * z],
            q: vec![0.0; dmax * z],
            min1: vec![0.0; z],
            min2: vec![0.0; z],
            idx: vec![0; z],
            sgn: vec![0; z],
            hard: vec![0; code.n()],
            syn: vec![0; z],
            avx2: detect_avx2(),
        }
    }

    /// The code being decoded.
    pub fn code(&self) -> &QcCode {
        &self.code
    }

    /// The settings.
    pub fn config(&self) -> DecoderConfig {
        self.cfg
    }

    /// Hard decisions of the last decode (one bit per byte).
    pub fn decoded(&self) -> &[u8] {
        &self.hard
    }

    /// A-posteriori LLRs of the last decode.
    pub fn app(&self) -> &[f32] {
        &self.app
    }

    /// Decodes one frame of channel LLRs (`n` values).
    pub fn decode(&mut self, llr: &[f32]) -> DecodeOutcome {
        assert_eq!(llr.len(), self.code.n(), "one LLR per code bit");
        self.app.copy_from_slice(llr);
        self.r.fill(0.0);
        if self.syndrome_is_zero() {
            return DecodeOutcome {
                converged: true,
                iterations: 0,
            };
        }
        for it in 1..=self.cfg.max_iterations {
            for l in 0..self.layers.len() {
                self.layer(l);
            }
            if (self.cfg.early_termination || it == self.cfg.max_iterations) && self.syndrome_is_zero() {
                return DecodeOutcome {
                    converged: true,
                    iterations: it,
                };
            }
        }
        DecodeOutcome {
            converged: false,
            iterations: self.cfg.max_iterations,
        }
    }

    /// Computes hard decisions from `app` and tests every check, stopping at the first
    /// layer with an unsatisfied check.
    fn syndrome_is_zero(&mut self) -> bool {
        for (h, &a) in self.hard.iter_mut().zip(&self.app) {
            *h = u8::from(a < 0.0);
        }
        let z = self.code.z();
        for layer in &self.layers {
            self.syn.fill(0);
            for &(c, s) in layer {
                xor_rotated(&mut self.syn, &self.hard[c * z..(c + 1) * z], s);
            }
            if self.syn.iter().any(|&b| b != 0) {
                return false;
            }
        }
        true
    }

    fn layer(&mut self, l: usize) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the CPU reports AVX2 and FMA.
            unsafe { self.layer_avx2(l) };
            return;
        }
        self.layer_impl(l);
    }

    /// The layer kernel compiled for AVX2 (8 `f32` lanes instead of SSE2's 4).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn layer_avx2(&mut self, l: usize) {
        self.layer_impl(l);
    }

    #[inline(always)]
    fn layer_impl(&mut self, l: usize) {
        let z = self.code.z();
        let rule = self.cfg.rule;
        let blocks = &self.layers[l];
        let off = self.layer_off[l] * z;
        // 1. Q = Λ − R_old, gathered per block in check order.
        for (b, &(c, s)) in blocks.iter().enumerate() {
            let app = &self.app[c * z..(c + 1) * z];
            let r = &self.r[off + b * z..off + (b + 1) * z];
            let q = &mut self.q[b * z..(b + 1) * z];
            let (q_head, q_tail) = q.split_at_mut(z - s);
            let (r_head, r_tail) = r.split_at(z - s);
            for ((qv, &a), &rv) in q_head.iter_mut().zip(&app[s..]).zip(r_head) {
                *qv = a - rv;
            }
            for ((qv, &a), &rv) in q_tail.iter_mut().zip(&app[..s]).zip(r_tail) {
                *qv = a - rv;
            }
        }
        // 2. Two smallest magnitudes, position of the smallest, sign parity.
        let (min1, min2, idx, sgn) = (
            &mut self.min1[..],
            &mut self.min2[..],
            &mut self.idx[..],
            &mut self.sgn[..],
        );
        min1.fill(BIG);
        min2.fill(BIG);
        idx.fill(0);
        sgn.fill(0);
        for b in 0..blocks.len() {
            let q = &self.q[b * z..(b + 1) * z];
            let bu = b as u32;
            let (q, min1, min2, idx, sgn) = (&q[..z], &mut min1[..z], &mut min2[..z], &mut idx[..z], &mut sgn[..z]);
            for m in 0..z {
                // Branch-free (min/max and bit masks) so the loop compiles to plain vector
                // loads and stores rather than masked stores.
                let bits = q[m].to_bits();
                let a = f32::from_bits(bits & 0x7fff_ffff);
                let (m1, m2) = (min1[m], min2[m]);
                let new_mask = 0u32.wrapping_sub(u32::from(a < m1));
                min2[m] = m2.min(a.max(m1));
                min1[m] = m1.min(a);
                idx[m] = (bu & new_mask) | (idx[m] & !new_mask);
                sgn[m] ^= bits & 0x8000_0000;
            }
        }
        for (m1, m2) in min1.iter_mut().zip(min2.iter_mut()) {
            *m1 = rule.apply(*m1);
            *m2 = rule.apply(*m2);
        }
        // 3. New messages and APP update.
        for (b, &(c, s)) in blocks.iter().enumerate() {
            let bu = b as u32;
            let q = &self.q[b * z..(b + 1) * z];
            let r = &mut self.r[off + b * z..off + (b + 1) * z];
            let (r, q, min1, min2, idx, sgn) = (&mut r[..z], &q[..z], &min1[..z], &min2[..z], &idx[..z], &sgn[..z]);
            for m in 0..z {
                let take2 = 0u32.wrapping_sub(u32::from(idx[m] == bu));
                let mag = (min2[m].to_bits() & take2) | (min1[m].to_bits() & !take2);
                let sign = (sgn[m] ^ q[m].to_bits()) & 0x8000_0000;
                r[m] = f32::from_bits(mag | sign);
            }
            let app = &mut self.app[c * z..(c + 1) * z];
            let (a_head, a_tail) = app.split_at_mut(s);
            // app[(m + s) mod Z] = q[m] + r[m]: m in 0..Z−s writes app[s..], the rest app[..s].
            for ((a, &qv), &rv) in a_tail.iter_mut().zip(&q[..z - s]).zip(&r[..z - s]) {
                *a = qv + rv;
            }
            for ((a, &qv), &rv) in a_head.iter_mut().zip(&q[z - s..]).zip(&r[z - s..]) {
                *a = qv + rv;
            }
        }
    }
}

fn detect_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Decodes many frames in parallel (rayon, one decoder per worker). Returns, per frame,
/// the outcome and the hard decisions.
pub fn decode_frames(code: &QcCode, cfg: DecoderConfig, frames: &[Vec<f32>]) -> Vec<(DecodeOutcome, Vec<u8>)> {
    frames
        .par_iter()
        .map_init(
            || MinSumDecoder::new(code, cfg),
            |dec, llr| {
                let out = dec.decode(llr);
                (out, dec.decoded().to_vec())
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::testing::{array7, single_error_frames};

    /// Single parity check of length 3 (Z = 1, base [0 0 0]).
    fn spc3() -> QcCode {
        QcCode::from_full_shifts(1, &[vec![0, 0, 0]]).unwrap()
    }

    fn nms(iters: u32) -> DecoderConfig {
        DecoderConfig {
            rule: MinSumRule::Normalized { alpha: 0.75 },
            max_iterations: iters,
            early_termination: true,
            arithmetic: Arithmetic::F32,
        }
    }

    #[test]
    fn noiseless_word_needs_zero_iterations() {
        let code = array7();
        let mut dec = MinSumDecoder::new(&code, nms(10));
        let out = dec.decode(&vec![3.0; code.n()]);
        assert_eq!(
            out,
            DecodeOutcome {
                converged: true,
                iterations: 0
            }
        );
        assert!(dec.decoded().iter().all(|&b| b == 0));
    }

    #[test]
    fn corrects_single_error_in_one_iteration() {
        // Hand analysis (girth ≥ 6, column weight 3, α = 0.75, |L| = 1): the first layer
        // sends +α to the wrong bit (Λ = −0.25) and −α to its neighbours (Λ = +0.25); the
        // second layer sends +α again (Λ = +0.5); the third layer sees all signs right. So
        // after one iteration every decision is right and the syndrome is zero.
        let code = array7();
        for e in [0, 10, 48] {
            let mut llr = vec![1.0f32; code.n()];
            llr[e] = -1.0;
            let mut dec = MinSumDecoder::new(&code, nms(10));
            let out = dec.decode(&llr);
            assert_eq!(
                out,
                DecodeOutcome {
                    converged: true,
                    iterations: 1
                },
                "error at {e}"
            );
            assert!(dec.decoded().iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn single_parity_check_cannot_correct_and_reports_failure() {
        // One error on a length-3 single parity check: the wrong bit gets +α (Λ = −0.25), the
        // two right bits get −α (Λ = +0.25). Every later pass sees the same Q = L, so the
        // decisions never change and the syndrome stays 1: failure after max iterations.
        let code = spc3();
        let mut dec = MinSumDecoder::new(&code, nms(5));
        let out = dec.decode(&[1.0, -1.0, 1.0]);
        assert_eq!(
            out,
            DecodeOutcome {
                converged: false,
                iterations: 5
            }
        );
        assert_eq!(dec.decoded(), &[0, 1, 0]);
        let app = dec.app();
        assert!((app[0] - 0.25).abs() < 1e-6 && (app[1] + 0.25).abs() < 1e-6 && (app[2] - 0.25).abs() < 1e-6);
    }

    #[test]
    fn offset_min_sum_single_check_messages() {
        // Offset β = 0.5 on [2, −1, 3]: min over others of bit 0 = 1 → R = −(1 − 0.5) = −0.5;
        // bit 1: min(2, 3) = 2 → R = +1.5 (sign product of + +) ; bit 2: min = 1 → −0.5.
        let code = spc3();
        let cfg = DecoderConfig {
            rule: MinSumRule::Offset { beta: 0.5 },
            max_iterations: 1,
            early_termination: true,
            arithmetic: Arithmetic::F32,
        };
        let mut dec = MinSumDecoder::new(&code, cfg);
        let out = dec.decode(&[2.0, -1.0, 3.0]);
        assert!(out.converged);
        let app = dec.app();
        assert!((app[0] - 1.5).abs() < 1e-6);
        assert!((app[1] - 0.5).abs() < 1e-6);
        assert!((app[2] - 2.5).abs() < 1e-6);
    }

    #[test]
    fn parallel_batch_matches_serial() {
        let code = array7();
        let frames = single_error_frames(&code);
        let out = decode_frames(&code, nms(10), &frames);
        assert!(out
            .iter()
            .all(|(o, w)| o.converged && o.iterations == 1 && w.iter().all(|&b| b == 0)));
    }
}
