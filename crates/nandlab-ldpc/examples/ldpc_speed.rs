//! Single-thread speed of the calibration's pieces, old and new measured interleaved in
//! one process (so both see the same machine load): channel + encoding per frame, and the
//! `f32` vs 8-bit fixed-point decoders in frames/s at 20 fixed iterations and at BSC RBER
//! 5e-3 with early termination. Each figure is the median over rounds (robust to load
//! spikes of a shared machine). Run under `nice`; `cargo run --release -p nandlab-ldpc
//! --example ldpc_speed [rounds]`.
use std::time::Instant;

use nandlab_core::engine::rng::stream_rng;
use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::calibrate::pe_for_rber;
use nandlab_ldpc::channel::random_bits;
use nandlab_ldpc::*;

/// Median of `v`.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Seconds taken by `f`.
fn time(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

fn main() {
    let rounds: usize = std::env::args().nth(1).map_or(4, |a| a.parse().expect("rounds"));
    let lanes = FixedDecoder::LANES;
    let code = QcCode::rate_8_9_4k();
    let enc = Encoder::new(&code).unwrap();
    let model = VthModel::new(VthParams::dong_mlc()).unwrap();
    let ret = 365.0 * 86_400.0;
    let point = OperatingPoint {
        page: 1,
        pe: pe_for_rber(&model, 1, ret, 9e-3),
        retention_s: ret,
    };
    println!(
        "kernel {:?}, decoders: {rounds} rounds of {} frames",
        Kernel::detect(),
        4 * lanes
    );
    // Channel: encode + Vth sampling (old default) vs the all-zero coset view (new).
    for k in [0usize, 6] {
        let volt = MlcChannel::new(&model, point, k, &Placement::default(), Sampling::Voltage);
        let region = MlcChannel::new(&model, point, k, &Placement::default(), Sampling::Region);
        let (mut data, mut cw, mut llr) = (vec![0u8; enc.data_len()], vec![0u8; code.n()], vec![0f32; code.n()]);
        let mut rng = stream_rng(1, k as u64);
        let (mut t_enc, mut t_volt, mut t_region, mut t_coset) = (vec![], vec![], vec![], vec![]);
        for _ in 0..rounds * 16 {
            t_enc.push(time(|| {
                random_bits(&mut data, &mut rng);
                enc.encode_into(&data, &mut cw);
            }));
            t_volt.push(time(|| {
                volt.transmit(&cw, &mut llr, &mut rng);
            }));
            t_region.push(time(|| {
                region.transmit(&cw, &mut llr, &mut rng);
            }));
            t_coset.push(time(|| {
                region.transmit_coset(&mut llr, &mut rng);
            }));
        }
        let ms = |t: Vec<f64>| median(t) * 1e3;
        println!(
            "k={k}: encode {:.3} ms, Vth sampling {:.3} ms, region sampling {:.3} ms, coset view {:.3} ms per frame",
            ms(t_enc),
            ms(t_volt),
            ms(t_region),
            ms(t_coset)
        );
    }
    // Decoders on the same BSC frames (all-zero view).
    for (p, et) in [(5e-3, false), (5e-3, true), (9e-3, true)] {
        let ch = BscChannel::new(p);
        let cfg = DecoderConfig {
            early_termination: et,
            ..DecoderConfig::default()
        };
        let mut f32dec = MinSumDecoder::new(&code, cfg);
        let mut fixed = FixedDecoder::new(&code, cfg, 4.0);
        let (mut t32, mut t8, mut it32, mut it8, mut fail32, mut fail8) = (vec![], vec![], 0u64, 0u64, 0, 0);
        for r in 0..rounds {
            let frames: Vec<Vec<f32>> = (0..4 * lanes)
                .map(|f| {
                    let mut l = vec![0f32; code.n()];
                    ch.transmit_coset(&mut l, &mut stream_rng(r as u64, f as u64));
                    l
                })
                .collect();
            t32.push(time(|| {
                for fr in &frames {
                    it32 += u64::from(f32dec.decode(fr).iterations);
                    fail32 += usize::from(f32dec.decoded().iter().any(|&b| b != 0));
                }
            }));
            // The calibration's use: a stream of frames, lanes refilled as frames finish.
            let mut next = 0;
            t8.push(time(|| {
                fixed.decode_stream(
                    |llr| {
                        let f = frames.get(next)?;
                        llr.copy_from_slice(f);
                        next += 1;
                        Some(next as u64)
                    },
                    |_, o, w| {
                        it8 += u64::from(o.iterations);
                        fail8 += usize::from(w.iter().any(|&b| b != 0));
                    },
                );
            }));
        }
        let n = (rounds * 4 * lanes) as f64;
        let per_round = (4 * lanes) as f64;
        let (t32, t8) = (median(t32), median(t8));
        println!(
            "BSC p={p} early_termination={et}: f32 {:.0} frames/s ({:.2} it, FER {fail32}/{n}), fixed8 {:.0} frames/s ({:.2} it, FER {fail8}/{n}), speed-up {:.1}x",
            per_round / t32,
            it32 as f64 / n,
            per_round / t8,
            it8 as f64 / n,
            t32 / t8
        );
    }
}
