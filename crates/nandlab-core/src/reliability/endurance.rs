//! Endurance estimates: the P/E count at which a page's RBER reaches a limit, and
//! BitFlip's reliability ratio (seed 000 §III-D).

use super::model::{ErrorContext, ErrorModel};

/// Smallest P/E count in `[0, pe_max]` at which `rber_at(pe) ≥ rber_limit`, by bisection
/// to within `tol_pe` cycles (`rber_at` must not decrease with P/E). `None` if the limit
/// is not reached by `pe_max`; `Some(0.0)` if it is already reached when new.
pub fn pe_at_rber(rber_at: impl Fn(f64) -> f64, rber_limit: f64, pe_max: f64, tol_pe: f64) -> Option<f64> {
    if rber_at(0.0) >= rber_limit {
        return Some(0.0);
    }
    if rber_at(pe_max) < rber_limit {
        return None;
    }
    let (mut lo, mut hi) = (0.0, pe_max);
    while hi - lo > tol_pe.max(1e-9) {
        let mid = 0.5 * (lo + hi);
        if rber_at(mid) >= rber_limit {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// [`pe_at_rber`] for an error model: the P/E count at which a page (context `ctx`,
/// whose `pe_cycles` is varied) reaches `rber_limit`.
pub fn model_endurance_pe(model: &dyn ErrorModel, ctx: &ErrorContext, rber_limit: f64, pe_max: f64) -> Option<f64> {
    pe_at_rber(
        |pe| model.page_rber(&ErrorContext { pe_cycles: pe, ..*ctx }),
        rber_limit,
        pe_max,
        0.5,
    )
}

/// BitFlip's reliability ratio of an error-prone unit (seed 000 §III-D):
/// `r = ((1−P11)/(1−P00))^(N00−N11) · ((1−P10)/(1−P01))^(N01−N10)`, where `N_ij` are the
/// unit's state counts and `P_ij` the per-state retention-error probabilities, both
/// indexed by bit pattern (`[00, 01, 10, 11]`). Computed in the log domain; `r > 1` means
/// flipping the unit makes it more reliable.
pub fn bitflip_reliability_ratio(counts: [u64; 4], p: [f64; 4]) -> f64 {
    bitflip_log_reliability_ratio(counts, p).exp()
}

/// Natural log of [`bitflip_reliability_ratio`] (finite where the ratio overflows).
pub fn bitflip_log_reliability_ratio(counts: [u64; 4], p: [f64; 4]) -> f64 {
    let [n00, n01, n10, n11] = counts.map(|c| c as f64);
    let [p00, p01, p10, p11] = p;
    (n00 - n11) * ((-p11).ln_1p() - (-p00).ln_1p()) + (n01 - n10) * ((-p10).ln_1p() - (-p01).ln_1p())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reliability::nominal::{NominalModel, BITFLIP_MLC_WEIGHTS};

    #[test]
    fn bisection_finds_the_crossing() {
        // RBER = 1e-4 + 1e-8·PE crosses 1e-3 at PE = 90,000.
        let pe = pe_at_rber(|pe| 1e-4 + 1e-8 * pe, 1e-3, 1e6, 0.01).unwrap();
        assert!((pe - 90_000.0).abs() < 0.02, "{pe}");
        assert_eq!(pe_at_rber(|pe| 1e-4 + 1e-8 * pe, 1e-3, 1e4, 0.01), None);
        assert_eq!(pe_at_rber(|_| 1.0, 1e-3, 1e4, 0.01), Some(0.0));
        // Nominal model has no wear dependence: never reaches a limit above it.
        let m = NominalModel::new(4e-3, &BITFLIP_MLC_WEIGHTS, vec![1.0]);
        assert_eq!(model_endurance_pe(&m, &ErrorContext::default(), 5e-3, 1e5), None);
    }

    #[test]
    fn reliability_ratio_matches_the_formula() {
        // N = [00: 10, 01: 6, 10: 2, 11: 1], P = [0.02, 0.015, 0.002, 0.001]:
        // r = (0.999/0.98)^9 · (0.998/0.985)^4, evaluated directly from the paper's two
        // products P_BitFlip / P.
        let n = [10u64, 6, 2, 1];
        let p = [0.02, 0.015, 0.002, 0.001];
        let p_plain = (1.0f64 - 0.02).powi(10) * (1.0f64 - 0.015).powi(6) * (1.0f64 - 0.002).powi(2) * (1.0f64 - 0.001);
        let p_flip = (1.0f64 - 0.001).powi(10) * (1.0f64 - 0.002).powi(6) * (1.0f64 - 0.015).powi(2) * (1.0f64 - 0.02);
        let r = bitflip_reliability_ratio(n, p);
        assert!((r - p_flip / p_plain).abs() < 1e-12, "{r}");
        assert!((r - (0.999f64 / 0.98).powi(9) * (0.998f64 / 0.985).powi(4)).abs() < 1e-12);
        assert!(r > 1.0);
        // A balanced unit gains nothing.
        assert_eq!(bitflip_reliability_ratio([5, 5, 5, 5], p), 1.0);
    }
}
