//! Layered min-sum in 8-bit fixed point, 64 frames at once (one frame per SIMD lane).
//!
//! The same schedule and update rule as the `f32` [`MinSumDecoder`](crate::MinSumDecoder)
//! (see `decoder.rs`), in the arithmetic of a controller datapath: channel LLRs are
//! quantised to `q = clamp(round(L · llr_scale), ±31)` (6 bits), the check-to-variable
//! messages `R` are clamped to `±⌊(127 − 31) / d_v⌋` (±24 for column weight 4), and the
//! a-posteriori values `Λ = q + Σ R` and `Q = Λ − R` are 8-bit integers. With these
//! widths `Λ` can never saturate: a saturating `Λ` forgets the other layers' messages,
//! and when one of them later shrinks, `Q = Λ − R` of the next layer flips sign (seen as
//! converged frames decaying to the all-ones codeword without early termination).
//! Normalized min-sum scales a magnitude by `⌊x · round(256 α) / 256⌋`; offset min-sum
//! subtracts `round(β · llr_scale)`, floored at 0.
//!
//! Layout: lane `f` of every 64-byte vector is frame `f`. `Λ` is stored per variable
//! (`n × 64` bytes) and `R` per edge in check-major order, so one check's 36 messages are
//! contiguous. A layer is processed check by check: a first pass over the check's edges
//! forms `Q = Λ − R` and the two smallest magnitudes (and the position of the smallest and
//! the sign parity) in registers; a second pass recomputes `Q` (`Λ` of these variables is
//! not written in between: the checks of a layer touch disjoint variables) and writes
//! `R'` and `Λ = Q + R'`.
//!
//! Every frame gets exactly what it would get decoded alone: the syndrome is tested per
//! lane before the first iteration and after every iteration (early termination) or the
//! last one, and a lane's decisions and iteration count are frozen when it first passes;
//! the batch stops once every lane has. The kernels (AVX-512BW, AVX2, portable, chosen at
//! run time) are one generic function over [`Lanes`], whose implementations are
//! bit-identical (tested on every value pair), so results do not depend on the CPU.

use crate::code::QcCode;
use crate::decoder::{DecodeOutcome, DecoderConfig, MinSumRule};
use crate::lanes::{Lanes, Portable, LANES};

/// Largest fixed-point magnitude.
const QMAX: i8 = 127;
/// Largest quantised channel LLR magnitude (6 bits).
const CH_MAX: i8 = 31;

/// The instruction set a [`FixedDecoder`] runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// x86-64 AVX-512BW (one 512-bit register per 64 frames).
    Avx512,
    /// x86-64 AVX2 (two 256-bit registers per 64 frames).
    Avx2,
    /// Plain Rust loops (any CPU).
    Portable,
}

impl Kernel {
    /// The fastest kernel this CPU supports.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512bw") {
                return Kernel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }

    /// Whether this CPU can run the kernel.
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => std::arch::is_x86_feature_detected!("avx512bw"),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

/// The check-node rule in fixed point.
#[derive(Debug, Clone, Copy)]
enum FixedRule {
    /// Magnitude `⌊x · mul / 256⌋`.
    Scale(u8),
    /// Magnitude `max(x − beta, 0)`.
    Offset(i8),
}

/// One layer: per present block, the first variable of its block column and its shift.
#[derive(Debug, Clone)]
struct Layer {
    col_base: Vec<usize>,
    shift: Vec<usize>,
    /// First edge of the layer (edges of a layer are check-major: `edge = off + m·deg + b`).
    off: usize,
}

/// An 8-bit fixed-point layered min-sum decoder, 64 frames at a time.
#[derive(Debug, Clone)]
pub struct FixedDecoder {
    code: QcCode,
    cfg: DecoderConfig,
    llr_scale: f32,
    rule: FixedRule,
    /// Largest message magnitude: `(QMAX − CH_MAX) / d_v`.
    r_max: i8,
    kernel: Kernel,
    layers: Vec<Layer>,
    app: Vec<i8>,
    r: Vec<i8>,
    /// Channel LLRs of the next frame.
    scratch: Vec<f32>,
    /// Decisions of frames leaving a lane.
    words: Vec<Vec<u8>>,
    /// Per variable, the sign bits of the 64 lanes.
    signs: Vec<u64>,
}

/// Per-lane bookkeeping of a stream.
struct LaneState {
    /// Frame id in each lane (`None`: idle).
    frame: [Option<u64>; LANES],
    /// Iterations run by each lane's frame.
    it: [u32; LANES],
    /// Lanes holding a frame.
    active: u64,
    /// Lanes whose frame has not run an iteration yet (their stored `R` is stale).
    fresh: u64,
}

impl FixedDecoder {
    /// Frames per SIMD vector.
    pub const LANES: usize = LANES;

    /// A decoder on the fastest kernel of this CPU; `llr_scale` = quantisation steps per
    /// LLR unit.
    pub fn new(code: &QcCode, cfg: DecoderConfig, llr_scale: f32) -> Self {
        Self::with_kernel(code, cfg, llr_scale, Kernel::detect())
    }

    /// A decoder on a given kernel (panics if the CPU lacks it; see [`Kernel::available`]).
    pub fn with_kernel(code: &QcCode, cfg: DecoderConfig, llr_scale: f32, kernel: Kernel) -> Self {
        assert!(kernel.available(), "this CPU cannot run the {kernel:?} kernel");
        assert!(llr_scale > 0.0, "llr_scale must be positive");
        let z = code.z();
        let col_weight = (0..code.block_cols())
            .map(|c| (0..code.block_rows()).filter(|&r| code.shift(r, c).is_some()).count())
            .max()
            .unwrap_or(1)
            .max(1);
        let mut layers = Vec::new();
        let mut e = 0;
        for row in 0..code.block_rows() {
            let blocks: Vec<(usize, usize)> = code.layer(row).collect();
            layers.push(Layer {
                col_base: blocks.iter().map(|&(c, _)| c * z).collect(),
                shift: blocks.iter().map(|&(_, s)| s).collect(),
                off: e,
            });
            e += blocks.len() * z;
        }
        let rule = match cfg.rule {
            MinSumRule::Normalized { alpha } => FixedRule::Scale((alpha * 256.0).round().clamp(0.0, 255.0) as u8),
            MinSumRule::Offset { beta } => FixedRule::Offset((beta * llr_scale).round().clamp(0.0, 127.0) as i8),
        };
        Self {
            code: code.clone(),
            cfg,
            llr_scale,
            rule,
            r_max: ((i32::from(QMAX) - i32::from(CH_MAX)) / col_weight as i32) as i8,
            kernel,
            layers,
            app: vec![0; code.n() * LANES],
            r: vec![0; e * LANES],
            scratch: vec![0.0; code.n()],
            words: vec![vec![0; code.n()]; LANES],
            signs: vec![0; code.n()],
        }
    }

    /// The kernel in use.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The quantised value of a channel LLR.
    pub fn quantize(&self, llr: f32) -> i8 {
        quantize(llr, self.llr_scale)
    }

    /// Decodes up to 64 frames; returns each frame's outcome and decisions, in order.
    pub fn decode(&mut self, frames: &[&[f32]]) -> Vec<(DecodeOutcome, Vec<u8>)> {
        let mut out = vec![None; frames.len()];
        let mut next = 0;
        self.decode_stream(
            |llr| {
                let f = frames.get(next)?;
                llr.copy_from_slice(f);
                next += 1;
                Some(next as u64 - 1)
            },
            |id, o, word| out[id as usize] = Some((o, word.to_vec())),
        );
        out.into_iter().map(|o| o.expect("every frame finishes")).collect()
    }

    /// Decodes a stream of frames. `source` writes the next frame's channel LLRs into its
    /// argument and returns the frame's id (`None`: no more frames); `done(id, outcome,
    /// decisions)` is called once per frame when it finishes. A lane whose frame finished
    /// takes the next frame at once, so the batch does not wait for its slowest frame.
    pub fn decode_stream(
        &mut self,
        mut source: impl FnMut(&mut [f32]) -> Option<u64>,
        mut done: impl FnMut(u64, DecodeOutcome, &[u8]),
    ) {
        let mut st = LaneState {
            frame: [None; LANES],
            it: [0; LANES],
            active: 0,
            fresh: 0,
        };
        self.refill(u64::MAX, &mut st, &mut source);
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the kernel was checked available when the decoder was built.
            Kernel::Avx512 => unsafe { self.run_avx512(&mut st, &mut source, &mut done) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { self.run_avx2(&mut st, &mut source, &mut done) },
            _ => self.run::<Portable>(&mut st, &mut source, &mut done),
        }
    }

    /// Loads new frames into the lanes of `lanes`; lanes left without a frame become idle.
    fn refill(&mut self, lanes: u64, st: &mut LaneState, source: &mut impl FnMut(&mut [f32]) -> Option<u64>) {
        let mut loaded = 0u64;
        for f in bits(lanes) {
            st.frame[f] = source(&mut self.scratch);
            st.it[f] = 0;
            if st.frame[f].is_some() {
                loaded |= 1 << f;
                for (lane, &l) in self.app.chunks_exact_mut(LANES).zip(&self.scratch) {
                    lane[f] = quantize(l, self.llr_scale);
                }
            }
        }
        st.active = (st.active & !lanes) | loaded;
        st.fresh |= loaded;
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512bw")]
    unsafe fn run_avx512(
        &mut self,
        st: &mut LaneState,
        source: &mut impl FnMut(&mut [f32]) -> Option<u64>,
        done: &mut impl FnMut(u64, DecodeOutcome, &[u8]),
    ) {
        self.run::<crate::lanes::Avx512>(st, source, done);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(
        &mut self,
        st: &mut LaneState,
        source: &mut impl FnMut(&mut [f32]) -> Option<u64>,
        done: &mut impl FnMut(u64, DecodeOutcome, &[u8]),
    ) {
        self.run::<crate::lanes::Avx2>(st, source, done);
    }

    /// The iteration loop: test the syndrome of the lanes that are due (every lane before
    /// its first iteration; after each iteration with early termination, else after the
    /// last), hand finished frames out, refill their lanes (and test those before they
    /// iterate), then run one iteration on all lanes.
    #[inline(always)]
    fn run<L: Lanes>(
        &mut self,
        st: &mut LaneState,
        source: &mut impl FnMut(&mut [f32]) -> Option<u64>,
        done: &mut impl FnMut(u64, DecodeOutcome, &[u8]),
    ) {
        let max = self.cfg.max_iterations;
        let mut due = st.active;
        while st.active != 0 {
            if due != 0 {
                let unsat = unsatisfied::<L>(&self.code, &self.layers, &self.app, due);
                let at_limit = lanes_where(st, |it| it >= max);
                let converged = due & !unsat;
                let finished = (converged | (due & at_limit)) & st.active;
                if finished != 0 {
                    self.hand_out::<L>(finished, converged, st, done);
                    self.refill(finished, st, source);
                    // New frames are tested before their first iteration.
                    due = finished & st.active;
                    continue;
                }
            }
            // `R` of a fresh lane is its previous frame's: read it as 0 this iteration.
            let mut keep = [0i8; LANES];
            for (f, k) in keep.iter_mut().enumerate() {
                *k = if st.fresh >> f & 1 == 1 { 0 } else { -1 };
            }
            // SAFETY: `keep` has 64 bytes.
            let keep = unsafe { L::load(keep.as_ptr()) };
            for l in &self.layers {
                layer::<L>(
                    self.code.z(),
                    l,
                    self.rule,
                    self.r_max,
                    keep,
                    &mut self.app,
                    &mut self.r,
                );
            }
            st.fresh = 0;
            for f in 0..LANES {
                if st.active >> f & 1 == 1 {
                    st.it[f] += 1;
                }
            }
            due = if self.cfg.early_termination {
                st.active
            } else {
                lanes_where(st, |it| it >= max) & st.active
            };
        }
    }

    /// Extracts the decisions of the lanes in `lanes` (one pass over the variables) and
    /// reports each frame.
    #[inline(always)]
    fn hand_out<L: Lanes>(
        &mut self,
        lanes: u64,
        converged: u64,
        st: &LaneState,
        done: &mut impl FnMut(u64, DecodeOutcome, &[u8]),
    ) {
        // Sign masks of all variables in one vector pass, then one sequential pass per lane.
        for (m, a) in self.signs.iter_mut().zip(self.app.chunks_exact(LANES)) {
            // SAFETY: `a` has 64 bytes.
            *m = unsafe { L::load(a.as_ptr()) }.sign_mask();
        }
        for f in bits(lanes) {
            for (w, &m) in self.words[f].iter_mut().zip(&self.signs) {
                *w = (m >> f & 1) as u8;
            }
            if let Some(id) = st.frame[f] {
                let o = DecodeOutcome {
                    converged: converged >> f & 1 == 1,
                    iterations: st.it[f],
                };
                done(id, o, &self.words[f]);
            }
        }
    }
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let f = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            f
        })
    })
}

/// Lanes whose iteration count satisfies `pred`.
fn lanes_where(st: &LaneState, pred: impl Fn(u32) -> bool) -> u64 {
    st.it
        .iter()
        .enumerate()
        .fold(0, |m, (f, &it)| m | (u64::from(pred(it)) << f))
}

/// `clamp(round(llr · scale), ±CH_MAX)`, rounding halves away from zero like `f32::round`
/// (written with a truncating cast because `round` is a library call without SSE4.1).
#[inline]
pub(crate) fn quantize(llr: f32, scale: f32) -> i8 {
    let y = (llr * scale).clamp(-f32::from(CH_MAX), f32::from(CH_MAX));
    (y + 0.5f32.copysign(y)) as i8
}

/// Variable of block `b`'s edge on check `m` (`(m + s) mod Z` without a division).
#[inline(always)]
fn var(layer: &Layer, b: usize, m: usize, z: usize) -> usize {
    let t = m + layer.shift[b];
    layer.col_base[b] + if t >= z { t - z } else { t }
}

/// One layer of layered min-sum on 64 frames (see the module documentation).
#[inline(always)]
fn layer<L: Lanes>(z: usize, layer: &Layer, rule: FixedRule, r_max: i8, keep: L, app: &mut [i8], r: &mut [i8]) {
    let deg = layer.shift.len();
    assert!(app.len() >= (layer.col_base.iter().max().copied().unwrap_or(0) + z) * LANES);
    assert!(r.len() >= (layer.off + z * deg) * LANES);
    let (app, r) = (app.as_mut_ptr(), r.as_mut_ptr());
    for m in 0..z {
        let edges = layer.off + m * deg;
        // SAFETY: variables are below n and edges below the layer's end (asserted above).
        unsafe {
            let mut m1 = L::splat(QMAX);
            let mut m2 = L::splat(QMAX);
            let mut idx = L::splat(0);
            let mut sgn = L::splat(0);
            for b in 0..deg {
                let q =
                    L::load(app.add(var(layer, b, m, z) * LANES)).sub(L::load(r.add((edges + b) * LANES)).and(keep));
                let a = q.abs();
                idx = L::select_lt(a, m1, L::splat(b as i8), idx);
                m2 = m2.min(a.max(m1));
                m1 = m1.min(a);
                sgn = sgn.xor(q);
            }
            let (m1, m2) = match rule {
                FixedRule::Scale(mul) => (m1.scale(mul), m2.scale(mul)),
                FixedRule::Offset(beta) => (m1.sub_floor0(L::splat(beta)), m2.sub_floor0(L::splat(beta))),
            };
            let (m1, m2) = (m1.min(L::splat(r_max)), m2.min(L::splat(r_max)));
            for b in 0..deg {
                let pa = app.add(var(layer, b, m, z) * LANES);
                let pr = r.add((edges + b) * LANES);
                let q = L::load(pa).sub(L::load(pr).and(keep));
                let mag = L::select_eq(idx, L::splat(b as i8), m2, m1);
                let rn = mag.negate_where(sgn.xor(q));
                rn.store(pr);
                q.add(rn).store(pa);
            }
        }
    }
}

/// Lanes of `active` with an unsatisfied check (a check's parity is the xor of its
/// variables' sign bits).
#[inline(always)]
fn unsatisfied<L: Lanes>(code: &QcCode, layers: &[Layer], app: &[i8], active: u64) -> u64 {
    let z = code.z();
    assert!(app.len() >= code.n() * LANES);
    let mut unsat = 0u64;
    for layer in layers {
        let mut acc = L::splat(0);
        for m in 0..z {
            let mut par = L::splat(0);
            for b in 0..layer.shift.len() {
                // SAFETY: variables are below n (asserted above).
                par = par.xor(unsafe { L::load(app.as_ptr().add(var(layer, b, m, z) * LANES)) });
            }
            acc = acc.min(par);
        }
        // `acc` is negative in a lane as soon as one parity was (min keeps a negative).
        unsat |= acc.sign_mask();
        if unsat & active == active {
            break;
        }
    }
    unsat & active
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::testing::{array7, single_error_frames};

    fn nms(iters: u32) -> DecoderConfig {
        DecoderConfig {
            max_iterations: iters,
            ..DecoderConfig::default()
        }
    }

    #[test]
    fn corrects_any_single_error_in_one_iteration() {
        // Same hand analysis as the f32 decoder (decoder.rs): with |L| = 1 → q = 4 (scale 4),
        // the first layer sends ⌊4·0.75⌋ = 3 to the wrong bit (Λ = −1) and −3 to its
        // neighbours (Λ = 1), the second +3 again (Λ = 2), the third sees all signs right.
        let code = array7();
        let frames = single_error_frames(&code);
        let refs: Vec<&[f32]> = frames.iter().map(Vec::as_slice).collect();
        let mut dec = FixedDecoder::with_kernel(&code, nms(10), 4.0, Kernel::Portable);
        let out = dec.decode(&refs);
        assert_eq!(out.len(), 49);
        for (o, word) in &out {
            assert_eq!(
                *o,
                DecodeOutcome {
                    converged: true,
                    iterations: 1
                }
            );
            assert!(word.iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn unfixable_frame_reports_failure_and_keeps_its_decisions() {
        // Length-3 single parity check, one error: a fixed point (as in the f32 test), so
        // the frame fails after the limit with decisions (0, 1, 0); a second, clean frame in
        // the same batch finishes at iteration 0 and stays all-zero.
        let code = QcCode::from_full_shifts(1, &[vec![0, 0, 0]]).unwrap();
        let bad = [1.0f32, -1.0, 1.0];
        let good = [1.0f32, 1.0, 1.0];
        let mut dec = FixedDecoder::with_kernel(&code, nms(5), 4.0, Kernel::Portable);
        let out = dec.decode(&[&bad, &good]);
        assert_eq!(
            out,
            vec![
                (
                    DecodeOutcome {
                        converged: false,
                        iterations: 5
                    },
                    vec![0, 1, 0]
                ),
                (
                    DecodeOutcome {
                        converged: true,
                        iterations: 0
                    },
                    vec![0, 0, 0]
                )
            ]
        );
    }

    #[test]
    fn a_stream_gives_each_frame_what_it_gets_alone() {
        // 300 BSC frames streamed through the 64 lanes (lanes refilled as frames finish)
        // get the same outcome and decisions as each frame decoded in a batch of its own.
        use crate::channel::{BscChannel, Channel};
        use nandlab_core::engine::rng::stream_rng;
        let code = array7();
        let ch = BscChannel::new(0.08);
        let frames: Vec<Vec<f32>> = (0..300)
            .map(|f| {
                let mut l = vec![0f32; code.n()];
                ch.transmit_coset(&mut l, &mut stream_rng(8, f));
                l
            })
            .collect();
        let mut dec = FixedDecoder::with_kernel(&code, nms(6), 4.0, Kernel::detect());
        let mut streamed = vec![None; frames.len()];
        let mut next = 0;
        dec.decode_stream(
            |llr| {
                let f = frames.get(next)?;
                llr.copy_from_slice(f);
                next += 1;
                Some(next as u64 - 1)
            },
            |id, o, w| streamed[id as usize] = Some((o, w.to_vec())),
        );
        let mut its = std::collections::BTreeSet::new();
        for (f, fr) in frames.iter().enumerate() {
            let alone = dec.decode(&[fr]).remove(0);
            its.insert(alone.0.iterations);
            assert_eq!(streamed[f].as_ref(), Some(&alone), "frame {f}");
        }
        assert!(its.len() >= 3, "frames finish at different iterations: {its:?}");
    }

    #[test]
    fn quantisation_rounds_and_saturates() {
        let dec = FixedDecoder::with_kernel(&array7(), nms(1), 4.0, Kernel::Portable);
        assert_eq!(dec.quantize(1.1), 4);
        assert_eq!(dec.quantize(-1.2), -5);
        assert_eq!(dec.quantize(0.625), 3, "2.5 rounds away from zero");
        assert_eq!(dec.quantize(-0.625), -3);
        assert_eq!(dec.quantize(0.1), 0);
        assert_eq!(dec.quantize(100.0), 31);
        assert_eq!(dec.quantize(-100.0), -31);
    }

    #[test]
    fn kernels_are_bit_identical_on_noisy_frames() {
        // 64 BSC frames at p = 0.01 on the real code: every kernel this CPU has gives the
        // portable kernel's outcomes and decisions.
        use crate::channel::{BscChannel, Channel};
        use nandlab_core::engine::rng::stream_rng;
        let code = QcCode::rate_8_9_4k();
        let zero = vec![0u8; code.n()];
        let ch = BscChannel::new(0.0095);
        let frames: Vec<Vec<f32>> = (0..LANES as u64)
            .map(|f| {
                let mut l = vec![0f32; code.n()];
                ch.transmit(&zero, &mut l, &mut stream_rng(5, f));
                l
            })
            .collect();
        let refs: Vec<&[f32]> = frames.iter().map(Vec::as_slice).collect();
        let run = |k: Kernel| FixedDecoder::with_kernel(&code, nms(8), 4.0, k).decode(&refs);
        let reference = run(Kernel::Portable);
        assert!(
            reference.iter().any(|(o, _)| o.iterations > 1),
            "frames exercise the decoder"
        );
        for k in [Kernel::Avx2, Kernel::Avx512] {
            if k.available() {
                assert!(run(k) == reference, "{k:?} differs from the portable kernel");
            } else {
                eprintln!("skipped {k:?}: this CPU lacks it");
            }
        }
    }
}
