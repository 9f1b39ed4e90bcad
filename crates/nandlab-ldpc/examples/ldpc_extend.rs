//! Pools calibration runs into a FER table and refits its tail models:
//! `cargo run --release -p nandlab-ldpc --example ldpc_extend -- BASE.json OUT.csv [RUN.json ...]`
//! (the JSON sidecars written by `ldpc_calibrate` / `nandlab calibrate ldpc`; OUT's JSON
//! is written beside it). With no run it only refits the tails of BASE.
use std::path::PathBuf;

use nandlab_ldpc::CalibrationTable;

fn main() {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if args.len() < 2 {
        eprintln!("usage: ldpc_extend BASE.json OUT.csv [RUN.json ...]");
        std::process::exit(2);
    }
    let read = |p: &PathBuf| {
        CalibrationTable::read_json(p).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        })
    };
    let mut table = read(&args[0]);
    for run in &args[2..] {
        table.extend(read(run));
    }
    table.apply_tails();
    if let Err(e) = table.write(&args[1]) {
        eprintln!("{}: {e}", args[1].display());
        std::process::exit(1);
    }
    for t in &table.tails {
        eprintln!(
            "level {}: FER {:.3e} at {:.3e}, slope {:.2} below (fit on {:?})",
            t.level, t.anchor_fer, t.anchor_rber, t.slope, t.fit_rbers
        );
    }
}
