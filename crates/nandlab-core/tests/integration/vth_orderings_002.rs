//! Seed 002 §3.2's reliability orderings on nandlab's `vth` model with wear.
//!
//! 002's `wang-standard-mlc` layout has no wear terms, so the orderings are checked on the
//! `dong-mlc` preset (Dong–Xie–Zhang: Gaussian erased state, ISPP-programmed states, RTN
//! and retention shifts growing with P/E), Gray order 11 < 10 < 00 < 01 as in 002. 002's
//! "LSB page" is the two-reference page (pattern bit 0), its "MSB page" the one-reference
//! page (bit 1).

use nandlab_core::reliability::{VthModel, VthParams};

const DAY_S: f64 = 86_400.0;

fn model() -> VthModel {
    VthModel::new(VthParams::dong_mlc()).unwrap()
}

/// P(a cell at `level` is read as another level), at the optimal references.
fn cell_error(m: &VthModel, level: usize, pe: f64, ret_s: f64) -> f64 {
    let refs = m.read_refs_v(pe, ret_s);
    1.0 - m.transition_probs(level, &refs, pe, ret_s)[level]
}

#[test]
fn print_orderings() {
    let m = model();
    for ret in [0.0, DAY_S, 7.0 * DAY_S] {
        for pe in [1000.0, 3000.0, 5000.0, 10_000.0, 20_000.0] {
            let c: Vec<f64> = (0..4).map(|l| cell_error(&m, l, pe, ret)).collect();
            let lsb = m.page_rber(0, None, pe, ret);
            let msb = m.page_rber(1, None, pe, ret);
            println!(
                "ret {ret} pe {pe}: cells 11 {:.3e} 10 {:.3e} 00 {:.3e} 01 {:.3e}  lsb {lsb:.3e} msb {msb:.3e}",
                c[0], c[1], c[2], c[3]
            );
        }
    }
}
