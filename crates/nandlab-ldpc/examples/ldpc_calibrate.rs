//! Produces a FER table:
//! `cargo run --release -p nandlab-ldpc --example ldpc_calibrate -- OUT.csv [options]`
//! Options: `--frames N` (cap per point), `--min-failures N`, `--jobs N` (threads; default
//! all cores), `--fixed8` (8-bit fixed-point decoder, scale 4), `--encode` (check mode:
//! encode random data and sample voltages, as the shipped table was made), `--batch N`,
//! `--levels 0,2` (extra soft levels), `--rber-grid 7e-3,7.5e-3`, `--seed N`, `--page B`
//! (bit of the Vth model's level pattern the codeword goes to: 1, the default, is the
//! one-boundary page of the shipped table; 0 the two-boundary page).
use std::path::PathBuf;

use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::{calibrate, Arithmetic, CalibrationConfig, Pipeline, QcCode, Sampling};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().unwrap_or_else(|| "ldpc_fer.csv".into()));
    let mut cfg = CalibrationConfig::default();
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> u64 {
            let v = args.next().unwrap_or_else(|| panic!("{name} needs a value"));
            v.parse().unwrap_or_else(|_| panic!("{name}: not a number: {v}"))
        };
        match a.as_str() {
            "--frames" => cfg.max_frames = num("--frames"),
            "--min-failures" => cfg.min_failures = num("--min-failures"),
            "--batch" => cfg.batch = num("--batch") as usize,
            "--jobs" => cfg.threads = Some(num("--jobs") as usize),
            "--seed" => cfg.seed = num("--seed"),
            "--page" => cfg.page = num("--page") as usize,
            "--levels" => cfg.levels = list(args.next(), "--levels"),
            "--rber-grid" => cfg.rber_grid = list(args.next(), "--rber-grid"),
            "--fixed8" => cfg.decoder.arithmetic = Arithmetic::Fixed8 { llr_scale: 4.0 },
            "--encode" => {
                cfg.pipeline = Pipeline::Encode;
                cfg.sampling = Sampling::Voltage;
            }
            other => panic!("unknown option {other}"),
        }
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

/// A comma-separated list of numbers.
fn list<T: std::str::FromStr>(v: Option<String>, name: &str) -> Vec<T> {
    let v = v.unwrap_or_else(|| panic!("{name} needs a value"));
    v.split(',')
        .map(|x| x.trim().parse().unwrap_or_else(|_| panic!("{name}: not a number: {x}")))
        .collect()
}
