//! Seed 001 §3.3 interleaving, checked with the real decoder: a codeword whose bits come
//! from n chips with different RBERs (its bits interleaved over the chips) fails
//! hard-decision decoding as often as a codeword at the chips' mean RBER — the assumption
//! the simulator makes (`ecc/interleave.rs`: the FER of an interleaved codeword is the FER
//! at its parts' mean RBER).
//!
//! Hard decision on a binary symmetric channel per chip (the controller gives every bit
//! the same LLR magnitude: hard sensing tells it nothing about a bit's chip). The chips are
//! 001's four of the preset (0.85 / 0.95 / 1.15 / 1.05 of the mean) around a mean RBER in
//! the waterfall of the rate-8/9 code; the FERs are compared with a pooled
//! two-proportion z test, |z| ≤ 3.29 (level 0.001), on fixed seeds.

use nandlab_core::engine::rng::SimRng;
use nandlab_ldpc::stats::two_proportion_z;
use nandlab_ldpc::*;
use rand::Rng;

/// Bit `i` comes from chip `i mod n`, flipped with that chip's RBER.
struct MixedBsc {
    rbers: Vec<f64>,
}

impl Channel for MixedBsc {
    fn transmit(&self, codeword: &[u8], llr: &mut [f32], rng: &mut SimRng) -> usize {
        let n = self.rbers.len();
        let mut errors = 0;
        for (i, (l, &c)) in llr.iter_mut().zip(codeword).enumerate() {
            let flip = rng.random::<f64>() < self.rbers[i % n];
            errors += usize::from(flip);
            *l = if c ^ u8::from(flip) == 0 { 1.0 } else { -1.0 };
        }
        errors
    }

    fn rber(&self) -> f64 {
        self.rbers.iter().sum::<f64>() / self.rbers.len() as f64
    }
}

fn fer(code: &QcCode, ch: &dyn Channel, seed: u64, frames: u64) -> Tally {
    FrameSetup {
        code,
        encoder: None,
        channel: ch,
        decoder: DecoderConfig::default(),
        pipeline: Pipeline::Coset,
        stream_seed: seed,
    }
    .run(0, frames)
}

#[test]
fn interleaved_codewords_fail_like_the_mean_rber() {
    let code = QcCode::rate_8_9_4k();
    let mean = 9.0e-3;
    let frames = 300;
    let at_mean = fer(&code, &MixedBsc { rbers: vec![mean] }, 1, frames);
    let p_mean = at_mean.failures as f64 / frames as f64;
    assert!(
        p_mean > 0.05 && p_mean < 0.9,
        "FER {p_mean} at {mean}: not in the waterfall"
    );
    for (seed, factors) in [
        (2, vec![0.85, 1.15]),
        (3, vec![0.95, 1.05]),
        (4, vec![0.85, 0.95, 1.15, 1.05]),
    ] {
        let mixed = MixedBsc {
            rbers: factors.iter().map(|f| f * mean).collect(),
        };
        let t = fer(&code, &mixed, seed, frames);
        let z = two_proportion_z(t.failures, t.frames, at_mean.failures, at_mean.frames);
        eprintln!(
            "chips {factors:?} x {mean}: FER {}/{frames} vs {}/{frames} at the mean, z = {z:.2}",
            t.failures, at_mean.failures
        );
        assert!(z.abs() <= 3.29, "{factors:?}: z = {z:.2}");
    }
    // The comparison can tell FERs apart: a chip pair averaging 10 % worse is detected.
    let worse = fer(
        &code,
        &MixedBsc {
            rbers: vec![0.95 * mean, 1.25 * mean],
        },
        5,
        frames,
    );
    let z = two_proportion_z(worse.failures, worse.frames, at_mean.failures, at_mean.frames);
    eprintln!("chips [0.95, 1.25]: FER {}/{frames}, z = {z:.2}", worse.failures);
    assert!(z > 3.29, "z = {z:.2}");
}
