//! FER below plain Monte Carlo's reach by error-count strata (`stratified.rs`), beside the
//! shipped table's value at the same RBER:
//! `cargo run --release -p nandlab-ldpc --example ldpc_stratified -- [options]`
//! Options: `--level K` (extra soft levels, default 0), `--rber 6e-3,7e-3` (the points;
//! each gets its own channel and strata), `--frames N` (cap per stratum), `--min-failures
//! N`, `--step N` (error counts between strata), `--fixed8`, `--jobs N`, `--seed N`,
//! `--out FILE.json` (the strata and estimates). The channel is the calibration's
//! (`CalibrationConfig::default()`: page 1, one year's retention, max-MI soft reads).
use std::path::PathBuf;

use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::calibrate::{parse_fer_csv, pe_for_rber};
use nandlab_ldpc::stratified::{combine, measure};
use nandlab_ldpc::*;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut cfg = StratifiedConfig::default();
    let base = CalibrationConfig::default();
    let mut decoder = base.decoder;
    let (mut level, mut rbers, mut seed, mut threads, mut out) = (0usize, vec![7e-3], 2026u64, None, None);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().unwrap_or_else(|| fail(&format!("{name} needs a value")));
        match a.as_str() {
            "--level" => level = num(&value("--level"), "--level"),
            "--rber" => rbers = value("--rber").split(',').map(|x| num(x, "--rber")).collect(),
            "--frames" => cfg.max_frames = num(&value("--frames"), "--frames"),
            "--min-failures" => cfg.min_failures = num(&value("--min-failures"), "--min-failures"),
            "--step" => cfg.step = num(&value("--step"), "--step"),
            "--seed" => seed = num(&value("--seed"), "--seed"),
            "--jobs" => threads = Some(num::<usize>(&value("--jobs"), "--jobs")),
            "--fixed8" => decoder.arithmetic = Arithmetic::Fixed8 { llr_scale: 4.0 },
            "--out" => out = Some(PathBuf::from(value("--out"))),
            other => fail(&format!("unknown option {other}")),
        }
    }
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = threads {
            b = b.num_threads(t);
        }
        b.build().expect("thread pool")
    };
    let model = VthModel::new(VthParams::dong_mlc()).expect("model");
    let code = QcCode::rate_8_9_4k();
    let shipped = parse_fer_csv(include_str!("../../nandlab-core/data/ldpc_fer.csv")).expect("shipped table");
    let mut report = Vec::new();
    for &rber in &rbers {
        let t = std::time::Instant::now();
        let point = OperatingPoint {
            page: base.page,
            pe: pe_for_rber(&model, base.page, base.retention_s, rber),
            retention_s: base.retention_s,
        };
        let ch = MlcChannel::new(&model, point, level, &base.placement, base.sampling);
        let law = ch.coset_law().expect("an MLC channel draws every bit alike");
        let strata = pool.install(|| measure(&code, &law, decoder, seed, &cfg));
        let p = law.error_probability();
        let est = combine(code.n(), p, &strata, 1.0 - base.confidence);
        let frames: u64 = strata.iter().map(|s| s.frames).sum();
        for s in &strata {
            eprintln!("  w={:4} frames={:6} failures={:5}", s.errors, s.frames, s.failures);
        }
        let row = shipped
            .iter()
            .find(|r| r.level == level && (r.rber / rber - 1.0).abs() < 1e-9);
        println!(
            "k={level} rber={rber:.3e} (law {p:.4e}) strata={} frames={frames} {:.0}s: fer={} hi={} modelled={} | shipped: {}",
            strata.len(),
            t.elapsed().as_secs_f64(),
            est.map_or("-".into(), |e| format!("{:.3e}", e.fer)),
            est.map_or("-".into(), |e| format!("{:.3e}", e.fer_hi)),
            est.map_or("-".into(), |e| format!("{:.1}%", 100.0 * e.modelled_share)),
            row.map_or("no row".into(), |r| format!(
                "fer={:.3e} ({}/{} frames{})",
                r.fer,
                r.failures,
                r.frames,
                if r.extrapolated { ", tail model" } else { "" }
            )),
        );
        report.push(serde_json::json!({"level": level, "rber": rber, "law_rber": p, "strata": strata, "estimate": est, "frames": frames}));
    }
    if let Some(path) = out {
        let text = serde_json::to_string_pretty(&report).expect("json");
        std::fs::write(&path, text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    }
}

fn num<T: std::str::FromStr>(v: &str, name: &str) -> T {
    v.trim()
        .parse()
        .unwrap_or_else(|_| fail(&format!("{name}: not a number: {v}")))
}

fn fail(msg: &str) -> ! {
    eprintln!("ldpc_stratified: {msg}");
    std::process::exit(2)
}
