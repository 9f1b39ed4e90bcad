//! Decoder throughput of the rate-8/9 4 KB code (one thread, 20 iterations max).
//!
//! `cargo bench -p nandlab-ldpc --features bench --bench ldpc_decode`; frames/s per core =
//! 1 / time per frame. Cases: BSC at RBER 5e-3 (early termination, ~3 iterations), BSC 9e-3
//! (waterfall), and 20 full iterations (early termination off, the worst case), plus the encoder and
//! the MLC channel (Vth sampling) for the calibration's per-frame cost.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nandlab_core::engine::rng::stream_rng;
use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::calibrate::pe_for_rber;
use nandlab_ldpc::*;
use rand::Rng;

fn frames(code: &QcCode, enc: &Encoder, p: f64, count: usize) -> Vec<(Vec<u8>, Vec<f32>)> {
    let mut rng = stream_rng(42, 7);
    let ch = BscChannel::new(p);
    (0..count)
        .map(|_| {
            let d: Vec<u8> = (0..code.k()).map(|_| rng.random_range(0..2)).collect();
            let c = enc.encode(&d);
            let mut llr = vec![0f32; code.n()];
            ch.transmit(&c, &mut llr, &mut rng);
            (c, llr)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let code = QcCode::rate_8_9_4k();
    let enc = Encoder::new(&code).unwrap();
    let mut g = c.benchmark_group("ldpc_rate89_4k");
    g.throughput(Throughput::Elements(1));
    g.sample_size(20);
    for (name, p, et) in [
        ("bsc5e-3", 5e-3, true),
        ("bsc9e-3", 9e-3, true),
        ("full20it", 5e-3, false),
    ] {
        let fs = frames(&code, &enc, p, 16);
        let cfg = DecoderConfig {
            early_termination: et,
            ..DecoderConfig::default()
        };
        let mut dec = MinSumDecoder::new(&code, cfg);
        let mut i = 0;
        g.bench_function(format!("decode_{name}"), |b| {
            b.iter(|| {
                let o = dec.decode(&fs[i % fs.len()].1);
                i += 1;
                o
            })
        });
    }
    let d: Vec<u8> = (0..code.k()).map(|i| (i % 7 == 0) as u8).collect();
    let mut cw = vec![0u8; code.n()];
    g.bench_function("encode", |b| b.iter(|| enc.encode_into(&d, &mut cw)));
    let model = VthModel::new(VthParams::dong_mlc()).unwrap();
    let t = 365.0 * 86_400.0;
    let point = OperatingPoint {
        page: 1,
        pe: pe_for_rber(&model, 1, t, 1e-2),
        retention_s: t,
    };
    for s in [Sampling::Voltage, Sampling::Region] {
        let ch = MlcChannel::new(&model, point, 6, &Placement::default(), s);
        let mut llr = vec![0f32; code.n()];
        let mut rng = stream_rng(1, 2);
        g.bench_function(format!("mlc_channel_{s:?}"), |b| {
            b.iter(|| ch.transmit(&cw, &mut llr, &mut rng))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
