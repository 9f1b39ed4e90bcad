//! FER below plain Monte Carlo's reach by error-count strata (`stratified.rs`), pooled
//! across runs and RBER points of one decoder input law (`strata_run.rs`), beside the
//! shipped table's value at the same RBER:
//! `cargo run --release -p nandlab-ldpc --example ldpc_stratified -- [options]`
//! Options: `--level K` (extra soft levels, default 0), `--rber 6.5e-3,7e-3` (the points:
//! strata are measured on the first one's law and the FER is estimated at every point of
//! that law; a point of another law is reported and skipped), `--errors 300,303` (measure
//! these error counts instead of the adaptive walk), `--frames N` (cap per stratum; 0:
//! measure nothing, only pool), `--min-failures N`, `--step N` (error counts between
//! strata of the walk), `--pool FILE.json` (repeatable: pool an earlier `--out` of the
//! same law and decoder, another seed), `--fixed8`, `--jobs N`, `--batch N` (frames per
//! round, default 256; the stopping rule is checked between rounds, so tallies depend on
//! it, not on `--jobs`; with `--fixed8` on N cores give ≥ 64·N), `--seed N`, `--out
//! FILE.json` (the pooled strata and the estimates). The channel is the calibration's
//! (`CalibrationConfig::default()`: page 1, one year's retention, max-MI soft reads).
use std::path::PathBuf;

use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::calibrate::{parse_fer_csv, pe_for_rber};
use nandlab_ldpc::channel::CosetLaw;
use nandlab_ldpc::input_law::InputLaw;
use nandlab_ldpc::strata_run::StrataRun;
use nandlab_ldpc::stratified::{measure, measure_stratum};
use nandlab_ldpc::*;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut cfg = StratifiedConfig::default();
    let base = CalibrationConfig::default();
    let mut decoder = base.decoder;
    let (mut level, mut rbers, mut seed, mut threads, mut out) = (0usize, vec![7e-3], 2026u64, None, None);
    let (mut errors, mut pooled): (Option<Vec<usize>>, Vec<PathBuf>) = (None, Vec::new());
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().unwrap_or_else(|| fail(&format!("{name} needs a value")));
        match a.as_str() {
            "--level" => level = num(&value("--level"), "--level"),
            "--rber" => rbers = list(&value("--rber"), "--rber"),
            "--errors" => errors = Some(list(&value("--errors"), "--errors")),
            "--frames" => cfg.max_frames = num(&value("--frames"), "--frames"),
            "--min-failures" => cfg.min_failures = num(&value("--min-failures"), "--min-failures"),
            "--step" => cfg.step = num(&value("--step"), "--step"),
            "--batch" => cfg.batch = num(&value("--batch"), "--batch"),
            "--seed" => seed = num(&value("--seed"), "--seed"),
            "--jobs" => threads = Some(num::<usize>(&value("--jobs"), "--jobs")),
            "--pool" => pooled.push(PathBuf::from(value("--pool"))),
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
    let law_at = |rber: f64| -> CosetLaw {
        let point = OperatingPoint {
            page: base.page,
            pe: pe_for_rber(&model, base.page, base.retention_s, rber),
            retention_s: base.retention_s,
        };
        let ch = MlcChannel::new(&model, point, level, &base.placement, base.sampling);
        ch.coset_law().expect("an MLC channel draws every bit alike")
    };
    let first = law_at(rbers[0]);
    let t = std::time::Instant::now();
    let strata = match (&errors, cfg.max_frames) {
        (_, 0) => Vec::new(),
        (Some(ws), _) => ws
            .iter()
            .map(|&w| {
                pool.install(|| {
                    measure_stratum(
                        &code,
                        &first,
                        decoder,
                        seed,
                        w,
                        cfg.min_failures,
                        cfg.max_frames,
                        cfg.batch,
                    )
                })
            })
            .collect(),
        (None, _) => pool.install(|| measure(&code, &first, decoder, seed, &cfg)),
    };
    let mut run = StrataRun {
        level,
        decoder,
        input_law: InputLaw::new(&first, decoder.arithmetic),
        seeds: if strata.is_empty() { Vec::new() } else { vec![seed] },
        strata: Vec::new(),
        wall_s: t.elapsed().as_secs_f64(),
        device: None,
    };
    run.pool(StrataRun {
        seeds: Vec::new(),
        strata,
        wall_s: 0.0,
        ..run.clone()
    })
    .expect("a run pools into its empty self");
    for path in &pooled {
        let earlier = StrataRun::read(path).unwrap_or_else(|e| fail(&e));
        run.pool(earlier)
            .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    }
    if run.strata.is_empty() {
        fail("no strata: measure some (--frames > 0) or --pool a file");
    }
    for s in &run.strata {
        eprintln!("  w={:4} frames={:7} failures={:5}", s.errors, s.frames, s.failures);
    }
    let shipped = parse_fer_csv(include_str!("../../nandlab-core/data/ldpc_fer.csv")).expect("shipped table");
    let mut laws = Vec::new();
    for &rber in &rbers {
        let law = if rber == rbers[0] { first.clone() } else { law_at(rber) };
        let est = run.estimate(code.n(), &law, 1.0 - base.confidence);
        let row = shipped
            .iter()
            .find(|r| r.level == level && (r.rber / rber - 1.0).abs() < 1e-9);
        println!(
            "k={level} rber={rber:.3e} (law {:.4e}) strata={} frames={} failures={}: {} | shipped: {}",
            law.error_probability(),
            run.strata.len(),
            run.frames(),
            run.failures(),
            match &est {
                Ok(e) => format!(
                    "fer={:.3e} [{:.3e}, {:.3e}] modelled={:.1}%",
                    e.fer,
                    e.fer_lo,
                    e.fer_hi,
                    100.0 * e.modelled_share
                ),
                Err(e) => e.clone(),
            },
            row.map_or("no row".into(), |r| format!(
                "fer={:.3e} ({}/{} frames{})",
                r.fer,
                r.failures,
                r.frames,
                if r.extrapolated { ", tail model" } else { "" }
            )),
        );
        laws.push((rber, law));
    }
    eprintln!(
        "{:.0} s measuring, {:.0} s pooled in all",
        t.elapsed().as_secs_f64(),
        run.wall_s
    );
    if let Some(path) = out {
        let points: Vec<(f64, &CosetLaw)> = laws.iter().map(|(r, l)| (*r, l)).collect();
        let text = run.out_json(code.n(), &points, 1.0 - base.confidence);
        std::fs::write(&path, text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    }
}

fn list<T: std::str::FromStr>(v: &str, name: &str) -> Vec<T> {
    v.split(',').map(|x| num(x, name)).collect()
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
