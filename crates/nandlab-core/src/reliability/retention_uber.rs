//! The UBER of a drive's data after power-off retention (JESD218's retention requirement,
//! `nandlab endurance`): expected uncorrectable bits over bits read, worked out from each
//! codeword's failure probability at the strongest ECC level — not sampled.
//!
//! Every block in service holds data of every page type in equal shares (a full drive),
//! written with uniformly random content, read once after `retention_s` (already scaled to
//! the model's temperature) with no read disturb and no chip/block variation.

use super::model::{ErrorContext, ErrorModel};
use crate::ecc::binomial::binomial_sf;
use crate::ecc::{EccCode, ReadPlanner};
use rustc_hash::FxHashMap;
use serde::Serialize;

/// What the check finds.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RetentionCheck {
    /// Mean raw bit error rate of the data after retention.
    pub rber_mean: f64,
    /// Uncorrectable bit error rate: expected bits in uncorrectable codewords per bit read.
    pub uber: f64,
    /// The largest block's UBER (the worst-worn block's data).
    pub uber_worst_block: f64,
}

/// Expected bits in error per bit read that the strongest level leaves uncorrected, for
/// one codeword at raw bit error rate `rber`:
/// - no ECC: every raw error (`rber`);
/// - BCH (t of n): `E[e · 1{e > t}] / n = p · P(Bin(n−1, p) ≥ t)` (exact: `e · C(n, e) =
///   n · C(n−1, e−1)`);
/// - LDPC: the frame failure probability times the frame's mean raw errors (at least 1)
///   over `n` — an approximation: a failing frame holds more errors than the mean, so
///   this is a lower bound on the bits a failure leaves wrong.
pub fn codeword_uber(planner: &ReadPlanner, rber: f64) -> f64 {
    let p = rber.clamp(0.0, 1.0);
    match &planner.code {
        EccCode::None => p,
        EccCode::Bch(b) if b.t == 0 => p,
        EccCode::Bch(b) => p * binomial_sf(b.t - 1, b.n_bits - 1, p),
        EccCode::Ldpc(l) => {
            let n = planner.codeword_bits;
            let fail = l.codeword_fail_probs(p, n).last().copied().unwrap_or(1.0);
            fail * (n as f64 * p).max(1.0) / n as f64
        }
    }
}

/// The data's RBER and UBER after `retention_s` (at the model's temperature) on blocks
/// with the P/E cycles `pe_by_block` (those in service), `bits` page types each.
///
/// A block's pages depend on its P/E alone, and a worn drive has few distinct values over
/// a million blocks, so each value's page RBERs are worked out once; the sums still add
/// every page in block order, so the result is the same to the bit as page by page.
pub fn retention_uber(
    model: &dyn ErrorModel,
    planner: &ReadPlanner,
    bits: u8,
    pe_by_block: &[f64],
    retention_s: f64,
) -> RetentionCheck {
    let page = |pe: f64, page_type: u8| {
        let ctx = ErrorContext {
            pe_cycles: pe,
            retention_s,
            page_type,
            ..ErrorContext::default()
        };
        let rber = model.page_rber(&ctx);
        (rber, codeword_uber(planner, rber))
    };
    let mut by_pe: FxHashMap<u64, Vec<(f64, f64)>> = FxHashMap::default();
    let (mut rber_sum, mut uber_sum, mut worst) = (0.0, 0.0, 0.0f64);
    for &pe in pe_by_block {
        let pages = by_pe
            .entry(pe.to_bits())
            .or_insert_with(|| (0..bits).map(|t| page(pe, t)).collect());
        let mut block_uber = 0.0;
        for &(rber, uber) in pages.iter() {
            rber_sum += rber;
            block_uber += uber;
        }
        uber_sum += block_uber;
        worst = worst.max(block_uber / f64::from(bits));
    }
    let pages = (pe_by_block.len() * usize::from(bits)).max(1) as f64;
    RetentionCheck {
        rber_mean: rber_sum / pages,
        uber: uber_sum / pages,
        uber_worst_block: worst,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ecc::bch::Bch;
    use crate::ecc::binomial::binomial_sf;

    fn planner(code: EccCode, n: u64) -> ReadPlanner {
        let mut p = crate::ecc::EccConfig::default()
            .build(4096, crate::reliability::ErrorDraw::Expected, None)
            .unwrap();
        p.code = code;
        p.codeword_bits = n;
        p
    }

    #[test]
    fn bch_uber_is_the_expected_excess_errors_by_hand() {
        // n = 3, t = 1, p = 0.1: a codeword fails with 2 or 3 errors.
        // E[e 1{e>1}] = 2·3·0.01·0.9 + 3·0.001 = 0.054 + 0.003 = 0.057; / n = 0.019.
        let p = planner(EccCode::Bch(Bch { n_bits: 3, t: 1 }), 3);
        assert!((codeword_uber(&p, 0.1) - 0.019).abs() < 1e-12);
        // Without ECC every raw error is uncorrectable.
        assert_eq!(codeword_uber(&planner(EccCode::None, 3), 0.1), 0.1);
        // The bound e·P(fail)/n ≥ (t+1)/n · P(fail) holds.
        let p = planner(EccCode::Bch(Bch { n_bits: 8752, t: 40 }), 8752);
        let r = 2e-3;
        assert!(codeword_uber(&p, r) >= 41.0 / 8752.0 * binomial_sf(40, 8752, r));
    }

    #[test]
    fn a_model_without_errors_gives_zero_uber() {
        let p = planner(EccCode::Bch(Bch { n_bits: 8752, t: 40 }), 8752);
        let c = retention_uber(&super::super::NoErrors { n_states: 4 }, &p, 2, &[0.0, 3000.0], 1e7);
        assert_eq!((c.rber_mean, c.uber, c.uber_worst_block), (0.0, 0.0, 0.0));
    }
}
