//! Quick single-thread timings: encoder, channels, decoder (frames/s at 20 iterations).
use std::time::Instant;

use nandlab_core::engine::rng::stream_rng;
use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::calibrate::pe_for_rber;
use nandlab_ldpc::*;
use rand::Rng;

fn main() {
    let code = QcCode::rate_8_9_4k();
    let t = Instant::now();
    let enc = Encoder::new(&code).unwrap();
    println!("encoder build {:.3} s", t.elapsed().as_secs_f64());
    let mut rng = stream_rng(1, 1);
    let frames = 200;
    let data: Vec<u8> = (0..code.k()).map(|_| rng.random_range(0..2)).collect();
    let t = Instant::now();
    let mut cw = vec![0u8; code.n()];
    for _ in 0..frames {
        enc.encode_into(&data, &mut cw);
    }
    println!("encode {:.3} ms/frame", t.elapsed().as_secs_f64() * 1e3 / frames as f64);
    let model = VthModel::new(VthParams::dong_mlc()).unwrap();
    let ret = 365.0 * 86400.0;
    let t = Instant::now();
    let pe = pe_for_rber(&model, 1, ret, 9e-3);
    println!("pe_for_rber {:.3} s -> pe {pe:.0}", t.elapsed().as_secs_f64());
    let mut llr = vec![0f32; code.n()];
    let channel = |k: usize, sampling: Sampling| {
        let point = OperatingPoint {
            page: 1,
            pe,
            retention_s: ret,
        };
        MlcChannel::new(&model, point, k, &Placement::default(), sampling)
    };
    for k in [0usize, 1, 2, 6] {
        let t = Instant::now();
        let ch = channel(k, Sampling::Voltage);
        println!(
            "k={k} build {:.3} s delta {} mi {:.4} rber {:.3e} llr {:?}",
            t.elapsed().as_secs_f64(),
            ch.delta(),
            ch.mutual_information(),
            ch.rber(),
            ch.llr_table()
        );
    }
    for s in [Sampling::Voltage, Sampling::Region] {
        let ch = channel(2, s);
        let t = Instant::now();
        let mut e = 0;
        for _ in 0..frames {
            e += ch.transmit(&cw, &mut llr, &mut rng);
        }
        println!(
            "{s:?} channel {:.3} ms/frame, ber {:.3e}",
            t.elapsed().as_secs_f64() * 1e3 / frames as f64,
            e as f64 / (frames * code.n()) as f64
        );
    }
    for (p, et) in [(5e-3, true), (8e-3, true), (9e-3, true), (2e-2, true), (5e-3, false)] {
        let ch = BscChannel::new(p);
        let cfg = DecoderConfig {
            early_termination: et,
            ..DecoderConfig::default()
        };
        let mut dec = MinSumDecoder::new(&code, cfg);
        let mut tot = 0.0;
        let (mut fails, mut its) = (0, 0);
        for _ in 0..frames {
            ch.transmit(&cw, &mut llr, &mut rng);
            let t = Instant::now();
            let o = dec.decode(&llr);
            tot += t.elapsed().as_secs_f64();
            its += o.iterations;
            fails += usize::from(dec.decoded() != &cw[..]);
        }
        println!(
            "BSC p={p} et={et}: {:.1} frames/s, {:.2} it avg, {:.1} us/it, FER {}/{}",
            frames as f64 / tot,
            its as f64 / frames as f64,
            tot * 1e6 / its.max(1) as f64,
            fails,
            frames
        );
    }
}
