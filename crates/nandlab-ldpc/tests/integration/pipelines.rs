//! Statistical checks of the fast calibration path against the slow one, on the real
//! rate-8/9 code and the Dong MLC channel at three points in the waterfall (FER ≈ 0.05 …
//! 0.5, where a few hundred frames resolve the FER to a few percent):
//!
//! * the all-zero coset view with region sampling (no encoder) and the encode-and-Vth path
//!   give the same FER: pooled two-proportion z test, `|z| ≤ 3.29` (level 0.001 per point);
//! * the 8-bit fixed-point decoder (scale 4) against the `f32` decoder on the same frames,
//!   McNemar test on the frames where exactly one fails: the same FER at the hard-decision
//!   point (`|z| ≤ 3.29`); at the soft points the fixed-point decoder must not be worse
//!   (`z ≤ 3.29` for "fixed fails more"). It is in fact significantly *better* there (about
//!   20 % lower FER: its 6-bit channel LLRs and ±6-LLR messages are clipped, which tempers
//!   min-sum's over-confidence), so the two are different decoders at soft points; see
//!   docs/ldpc.md.
//!
//! Seeds are fixed, so each run is deterministic; the rules say how far apart the FERs may
//! be for the comparison to pass, and the measured FERs must lie in (0.02, 0.8) so that a
//! difference would show (otherwise the point is wrongly chosen and the test fails).

use nandlab_core::engine::rng::stream_rng;
use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::calibrate::pe_for_rber;
use nandlab_ldpc::stats::{mcnemar_z, two_proportion_z};
use nandlab_ldpc::*;

const YEAR: f64 = 365.0 * 86_400.0;
const Z_MAX: f64 = 3.29;

/// (extra sensing levels k, RBER) with FER between 0.05 and 0.5 (shipped table).
const POINTS: [(usize, f64); 3] = [(0, 9.0e-3), (2, 1.85e-2), (6, 2.1e-2)];

fn channel(model: &VthModel, k: usize, rber: f64, sampling: Sampling) -> MlcChannel {
    let point = OperatingPoint {
        page: 1,
        pe: pe_for_rber(model, 1, YEAR, rber),
        retention_s: YEAR,
    };
    MlcChannel::new(model, point, k, &Placement::default(), sampling)
}

fn assert_informative(what: &str, fer: f64) {
    assert!(
        fer > 0.02 && fer < 0.8,
        "{what}: FER {fer} outside (0.02, 0.8): pick another point"
    );
}

#[test]
fn coset_view_and_encode_path_agree() {
    let model = VthModel::new(VthParams::dong_mlc()).unwrap();
    let code = QcCode::rate_8_9_4k();
    let enc = Encoder::new(&code).unwrap();
    let frames = 192;
    for (i, &(k, rber)) in POINTS.iter().enumerate() {
        let run = |pipeline, sampling| {
            let ch = channel(&model, k, rber, sampling);
            FrameSetup {
                code: &code,
                encoder: Some(&enc),
                channel: &ch,
                decoder: DecoderConfig::default(),
                pipeline,
                stream_seed: 100 + i as u64 + 10 * pipeline as u64,
            }
            .run(0, frames)
        };
        let slow = run(Pipeline::Encode, Sampling::Voltage);
        let fast = run(Pipeline::Coset, Sampling::Region);
        let z = two_proportion_z(slow.failures, slow.frames, fast.failures, fast.frames);
        let what = format!(
            "k={k} rber={rber}: encode+Vth {}/{frames}, coset {}/{frames}",
            slow.failures, fast.failures
        );
        eprintln!("{what}: z = {z:.2}");
        assert_informative(&what, (slow.failures + fast.failures) as f64 / (2 * frames) as f64);
        assert!(z.abs() <= Z_MAX, "{what}: z = {z:.2}");
    }
}

#[test]
fn fixed_point_and_f32_decoders_agree() {
    let model = VthModel::new(VthParams::dong_mlc()).unwrap();
    let code = QcCode::rate_8_9_4k();
    let cfg = DecoderConfig::default();
    let mut f32dec = MinSumDecoder::new(&code, cfg);
    let mut fixed = FixedDecoder::new(&code, cfg, 4.0);
    let lanes = FixedDecoder::LANES;
    for (i, &(k, rber)) in POINTS.iter().enumerate() {
        let ch = channel(&model, k, rber, Sampling::Region);
        let (mut only_f32, mut only_fixed, mut fails_f32, mut n) = (0, 0, 0, 0);
        for batch in 0..4u64 {
            let frames: Vec<Vec<f32>> = (0..lanes as u64)
                .map(|f| {
                    let mut l = vec![0f32; code.n()];
                    ch.transmit_coset(&mut l, &mut stream_rng(200 + i as u64, batch * 64 + f));
                    l
                })
                .collect();
            let refs: Vec<&[f32]> = frames.iter().map(Vec::as_slice).collect();
            let fixed_out = fixed.decode(&refs);
            for (fr, (_, word)) in frames.iter().zip(&fixed_out) {
                f32dec.decode(fr);
                let a = f32dec.decoded().iter().any(|&b| b != 0);
                let b = word.iter().any(|&b| b != 0);
                only_f32 += u64::from(a && !b);
                only_fixed += u64::from(b && !a);
                fails_f32 += u64::from(a);
                n += 1;
            }
        }
        // z > 0 when the fixed-point decoder fails more often.
        let z = mcnemar_z(only_fixed, only_f32);
        let what =
            format!("k={k} rber={rber}: f32 fails {fails_f32}/{n}; only f32 {only_f32}, only fixed8 {only_fixed}");
        eprintln!("{what}: z = {z:.2}");
        assert_informative(&what, fails_f32 as f64 / n as f64);
        if k == 0 {
            assert!(z.abs() <= Z_MAX, "{what}: z = {z:.2}");
        } else {
            assert!(z <= Z_MAX, "{what}: fixed point worse, z = {z:.2}");
        }
    }
}
