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
    for run in runs {
        let level = run.level;
        let set = table.add_strata(run, |p| {
            let point = OperatingPoint {
                page: cfg.page,
                pe: p.pe,
                retention_s: cfg.retention_s,
            };
            let ch = MlcChannel::new(&model, point, p.level, &cfg.placement, cfg.sampling);
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
