//! The `tlc-3d` constants of the `empirical` power law: 3D TLC read disturb rising with the
//! block's reads since erase and with P/E, the shape of seed 003 Fig. 1 (after its ref [8],
//! Liu et al. DATE'19, 3D charge-trap TLC), for the BADR device of seed 003 Table II.
//!
//! [8]'s measured curves are not public here (research/models.md §2.3), so the constants
//! are chosen, not fitted:
//! - base and wear `ε + α·PE^k`, and the read-count exponent `q = 1.71` and P/E exponent
//!   `p = 0.33` of read disturb: the 72-layer 3D TLC fit (`tlc-72l`, research/models.md
//!   §2.1). `q > 1` is what makes evening reads over blocks of equal wear minimise the total
//!   error count (seed 003 §II-A, after Huang et al. [5]); `p > 0` makes a worn block take
//!   fewer reads for the same errors (BADR's premise, §II-B).
//! - `R` is the block's reads since erase (as in `mlc-2y`), not `tlc-72l`'s average reads
//!   per page: per page, 003's refresh threshold (10,000 block reads, Table II) would be
//!   26 reads of a 384-page block and the disturb term would vanish (≈ 1e-5).
//! - `γ` is set so that the most worn block of Table I (U6 reaches 3980 P/E) just stays
//!   correctable at the read-refresh threshold: RBER(3980, R = 10,000) = 0.01392, below the
//!   strongest LDPC level's bound 0.014 (the 003 preset's `ecc.thresholds`). Disturb then
//!   adds 2.5e-3 at 2000 P/E (from 3.8e-3 to 6.2e-3, two LDPC levels) by the threshold.
//! - No retention term (`β = 0`): 003 studies read disturb in SSDsim, which models no
//!   retention, and its traces span hours to a week of replay; `tlc-72l`'s `β·PE^m·t^n`
//!   would add 2.9e-3 over a week at 2000 P/E and swamp the disturb term.
//! - P/E is clamped at 8000 (§II-B: TLC endures twice Table I's 4000; the wear term is the
//!   72L fit extrapolated above 3000), reads at 1e5 (ten times the refresh threshold).

use super::empirical::EmpiricalParams;

/// Read-refresh threshold the constants are calibrated at (seed 003 Table II), block reads.
pub const RR_THRESHOLD_READS: f64 = 10_000.0;

impl EmpiricalParams {
    /// 3D TLC with block-level read disturb and no retention term, for seed 003 (see the
    /// module doc for where each constant comes from).
    pub fn tlc_3d() -> Self {
        EmpiricalParams {
            beta: 0.0,
            gamma: 2.9e-11,
            max_pe: 8000.0,
            max_reads: 1e5,
            ..Self::tlc_72l()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_disturb_by_hand() {
        let p = EmpiricalParams::tlc_3d();
        // PE 2000, no reads: 1.48e-3 + 3.90e-10 · 2000^2.05, 2000^2.05 = e^(2.05 · ln 2000)
        // = 5.8494e6 → 1.48e-3 + 2.2813e-3 = 3.7613e-3.
        assert!((p.rber(2000.0, 0.0, 0.0) - 3.7613e-3).abs() < 1e-7);
        // At the refresh threshold + 2.9e-11 · 2000^0.33 · 10^(4 · 1.71)
        // = 2.9e-11 · 12.2840 · 6.9183e6 = 2.4646e-3.
        let at_rr = p.rber(2000.0, 0.0, RR_THRESHOLD_READS);
        assert!((at_rr - (3.7613e-3 + 2.4646e-3)).abs() < 1e-7, "{at_rr}");
        // The calibration point, 3980 P/E at the threshold: wear 3.90e-10 · 3980^2.05 =
        // 3.90e-10 · 2.3975e7 = 9.3503e-3; disturb 2.9e-11 · 3980^0.33 · 6.9183e6 =
        // 2.9e-11 · 15.4156 · 6.9183e6 = 3.0929e-3; total 0.013923 < 0.014.
        let worst = p.rber(3980.0, 0.0, RR_THRESHOLD_READS);
        assert!((worst - (1.48e-3 + 9.3503e-3 + 3.0929e-3)).abs() < 2e-7, "{worst}");
        assert!(worst < 0.014);
        // Rises with reads and with P/E (Fig. 1's shape); super-linear in reads.
        let d = |pe: f64, r: f64| p.rber(pe, 0.0, r) - p.rber(pe, 0.0, 0.0);
        assert!(d(3000.0, 1e4) > d(1000.0, 1e4));
        assert!(d(2000.0, 2e4) > 2.0 * d(2000.0, 1e4));
        // Data age does not matter; reads past 1e5 are clamped.
        assert_eq!(p.rber(2000.0, 7.0 * 86_400.0, 0.0), p.rber(2000.0, 0.0, 0.0));
        assert_eq!(p.rber(2000.0, 0.0, 5e5), p.rber(2000.0, 0.0, 1e5));
        assert_eq!(EmpiricalParams::preset("tlc-3d").unwrap(), p);
    }
}
