//! Produces the shipped FER table:
//! `cargo run --release -p nandlab-ldpc --example ldpc_calibrate -- crates/nandlab-core/data/ldpc_fer.csv`
//! Optional second/third arguments override `max_frames` and `min_failures`.
use std::path::PathBuf;

use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::{calibrate, CalibrationConfig, QcCode};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().unwrap_or_else(|| "ldpc_fer.csv".into()));
    let mut cfg = CalibrationConfig::default();
    if let Some(f) = args.next() {
        cfg.max_frames = f.parse().expect("max_frames");
    }
    if let Some(f) = args.next() {
        cfg.min_failures = f.parse().expect("min_failures");
    }
    let model = VthModel::new(VthParams::dong_mlc()).expect("model");
    let code = QcCode::rate_8_9_4k();
    let t = std::time::Instant::now();
    let table = calibrate(&model, &code, &cfg, |p| {
        eprintln!(
            "[{:6.1}s] k={} rber={:.3e} pe={:.0} frames={} fail={} fer={:.3e} it={:.2} delta={:.2} mi={:.4}",
            t.elapsed().as_secs_f64(),
            p.level,
            p.rber,
            p.pe,
            p.frames,
            p.failures,
            p.fer,
            p.mean_iterations,
            p.delta,
            p.mutual_information
        );
    });
    table.write(&out).expect("write table");
    eprintln!("wrote {} ({:.1} s)", out.display(), table.provenance.wall_s);
}
