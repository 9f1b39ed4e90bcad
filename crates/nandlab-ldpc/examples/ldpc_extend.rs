//! Pools calibration runs and error-count strata into a FER table and refits its tail
//! models:
//! `cargo run --release -p nandlab-ldpc --example ldpc_extend -- BASE.json OUT.csv [RUN.json ...] [--strata S.json ...]`
//! (RUN: the JSON sidecars written by `ldpc_calibrate` / `nandlab calibrate ldpc`; S: the
//! `--out` files of `ldpc_stratified`, pooled together when they share a law; OUT's JSON
//! is written beside it). With neither it only refits the tails of BASE. The strata are
//! weighed at each point's channel, rebuilt from the table's Vth parameters and settings.
use std::path::PathBuf;

use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::strata_run::StrataRun;
use nandlab_ldpc::{CalibrationTable, Channel, MlcChannel, OperatingPoint};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut paths, mut strata): (Vec<PathBuf>, Vec<PathBuf>) = (Vec::new(), Vec::new());
    while let Some(a) = args.next() {
        if a == "--strata" {
            strata.push(
                args.next()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| fail("--strata needs a file")),
            );
        } else {
            paths.push(PathBuf::from(a));
        }
    }
    if paths.len() < 2 {
        fail("usage: ldpc_extend BASE.json OUT.csv [RUN.json ...] [--strata S.json ...]");
    }
    let read = |p: &PathBuf| CalibrationTable::read_json(p).unwrap_or_else(|e| fail(&e));
    let mut table = read(&paths[0]);
    for run in &paths[2..] {
        table.extend(read(run));
    }
    let mut runs: Vec<StrataRun> = Vec::new();
    for path in &strata {
        let run = StrataRun::read(path).unwrap_or_else(|e| fail(&e));
        match runs
            .iter_mut()
            .find(|r| r.level == run.level && r.input_law.same(&run.input_law))
        {
            Some(r) => r
                .pool(run)
                .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display()))),
            None => runs.push(run),
        }
    }
    let params: VthParams = serde_json::from_value(table.provenance.vth.clone())
        .unwrap_or_else(|e| fail(&format!("{}: provenance.vth: {e}", paths[0].display())));
    let model = VthModel::new(params).unwrap_or_else(|e| fail(&format!("{}: {e}", paths[0].display())));
    let cfg = table.provenance.config.clone();
    // Each point's channel is rebuilt at the hard references it was measured at: of its
    // recorded read voltages, the one nearest each reference the Vth model gives today.
    // The model's reference search has changed since the table was made (Brent to 1e-8 V,
    // was golden section to 1e-4 V), so today's references are off by up to 1e-4 V, far
    // less than the soft reads' spacing (δ ≥ 0.01 V); a channel at today's references
    // would be slightly different, and no recorded strata's soft law would match it.
    let recorded_refs = |p: &nandlab_ldpc::calibrate::CalibrationPoint| -> Vec<f64> {
        let all = model.read_refs_v(p.pe, cfg.retention_s);
        model
            .page_refs(cfg.page)
            .iter()
            .map(|&i| {
                let now = all[i];
                let v = p
                    .voltages
                    .iter()
                    .copied()
                    .min_by(|a, b| (a - now).abs().total_cmp(&(b - now).abs()));
                match v {
                    Some(v) if (v - now).abs() < 1e-3 => v,
                    _ => fail(&format!(
                        "point k={} rber={:e}: no recorded voltage near {now} V",
                        p.level, p.rber
                    )),
                }
            })
            .collect()
    };
    for run in runs {
        let level = run.level;
        let set = table.add_strata(run, |p| {
            let point = OperatingPoint {
                page: cfg.page,
                pe: p.pe,
                retention_s: cfg.retention_s,
            };
            let ch = MlcChannel::with_hard_refs(&model, point, recorded_refs(p), p.level, &cfg.placement, cfg.sampling);
            ch.coset_law().expect("an MLC channel draws every bit alike")
        });
        eprintln!("level {level}: stratified FER at RBER {set:?}");
    }
    table.apply_tails();
    if let Err(e) = table.write(&paths[1]) {
        fail(&format!("{}: {e}", paths[1].display()));
    }
    for t in &table.tails {
        eprintln!(
            "level {}: FER {:.3e} at {:.3e}, slope {:.2} below (fit on {:?})",
            t.level, t.anchor_fer, t.anchor_rber, t.slope, t.fit_rbers
        );
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("ldpc_extend: {msg}");
    std::process::exit(2)
}
