//! Empirical Vth reliability model of seed 002 (Wang, Xie, Zhou, ICS'14) §3.3, Eq. 6–9:
//! cell errors grow exponentially with P/E, with coefficients that depend on the cell's
//! threshold voltage through `ln V_th`:
//! `Err = (α₁·ln V_th + β₁)·e^{(α₂·ln V_th + β₂)·N} − 1` (Eq. 9), with Eq. 6–8's
//! `α₁ = −5e-4, β₁ = 0.0019, α₂ = 0.036, β₂ = 0.6616`.
//!
//! Units are the paper's: `V_th` in volts (it must be positive for the logarithm), `N`
//! in the unit of its P/E axes, which §5.4 prints as ×10⁵ cycles, and `Err` the number
//! of cell errors its tester counted per page read-back (§3.1: a cell error is any bit
//! flip in a 2-bit cell). The RBER limit becomes an error count through
//! [`err_limit_from_rber`]; the choice is documented in docs/reliability.md ("TVR").

use super::tvr::VthLayout;
use crate::error::{NandError, Result};

/// Data bits of one page of 002's chip (nandlab's reading of §3.1): the chip needs
/// "4-bit ECC per 528 bytes", the sector of a 2,112-byte (2,048 + 64) page, so a page
/// holds 2,048 × 8 = 16,384 data bits.
pub const WANG_PAGE_DATA_BITS: f64 = 16_384.0;

/// The coefficients of Eq. 9.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VthReliabilityFit {
    /// `α₁`, slope of the prefactor in `ln V_th` (Eq. 6: −5e-4).
    pub alpha1: f64,
    /// `β₁`, prefactor at `V_th = 1 V` (Eq. 6: 0.0019).
    pub beta1: f64,
    /// `α₂`, slope of the growth rate in `ln V_th` (Eq. 7: 0.036).
    pub alpha2: f64,
    /// `β₂`, growth rate per P/E unit at `V_th = 1 V` (Eq. 7: 0.6616).
    pub beta2: f64,
}

impl VthReliabilityFit {
    /// 002 Eq. 6–8.
    pub fn wang() -> Self {
        VthReliabilityFit {
            alpha1: -5e-4,
            beta1: 0.0019,
            alpha2: 0.036,
            beta2: 0.6616,
        }
    }

    fn ln_vth(v_th_v: f64) -> Result<f64> {
        if !(v_th_v > 0.0 && v_th_v.is_finite()) {
            return Err(NandError::config(
                "vth_reliability.v_th_v",
                format!("Eq. 8 takes ln(V_th): V_th must be > 0 V, got {v_th_v}"),
            ));
        }
        Ok(v_th_v.ln())
    }

    /// `a(V_th) = α₁·ln V_th + β₁` (Eq. 6) and `b(V_th) = α₂·ln V_th + β₂` (Eq. 7).
    pub fn coefficients(&self, v_th_v: f64) -> Result<(f64, f64)> {
        let l = Self::ln_vth(v_th_v)?;
        Ok((self.alpha1 * l + self.beta1, self.alpha2 * l + self.beta2))
    }

    /// Eq. 9: cell errors of cells at `v_th_v` after `pe` P/E units.
    pub fn cell_errors(&self, v_th_v: f64, pe: f64) -> Result<f64> {
        let (a, b) = self.coefficients(v_th_v)?;
        Ok(a * (b * pe).exp() - 1.0)
    }

    /// The P/E count at which Eq. 9 reaches `err_limit` cell errors:
    /// `N = ln((Err + 1)/a) / b`. Needs `a > 0` and `b > 0` (errors growing with P/E),
    /// which Eq. 6–7 give for `1.04e-8 V < V_th < 44.7 V`.
    pub fn max_pe(&self, v_th_v: f64, err_limit: f64) -> Result<f64> {
        let (a, b) = self.coefficients(v_th_v)?;
        if !(a > 0.0 && b > 0.0) {
            return Err(NandError::config(
                "vth_reliability.v_th_v",
                format!("Eq. 8 has no growing error count at V_th = {v_th_v} V (a = {a}, b = {b})"),
            ));
        }
        if !(err_limit > -1.0 && err_limit.is_finite()) {
            return Err(NandError::config(
                "vth_reliability.err_limit",
                "must be a finite number > -1",
            ));
        }
        Ok(((err_limit + 1.0) / a).ln() / b)
    }

    /// §5.4: the P/E limit of a device holding random data in `layout`, taken at the
    /// layout's mean Vth (each state with share 1/4).
    pub fn layout_max_pe(&self, layout: &VthLayout, err_limit: f64) -> Result<f64> {
        self.max_pe(layout.mean_vth_v(), err_limit)
    }
}

/// Cell errors per page that an RBER limit allows: `rber_limit × page_data_bits`. With
/// the Gray map an error into an adjacent state flips one bit, so a cell error is one bit
/// error and the count per page is the RBER times the page's bits.
pub fn err_limit_from_rber(rber_limit: f64, page_data_bits: f64) -> f64 {
    rber_limit * page_data_bits
}

#[cfg(test)]
mod tests {
    use super::super::endurance::pe_at_rber;
    use super::*;

    /// Eq. 8 by hand. V_th = 1 V: ln 1 = 0, a = 0.0019, b = 0.6616; at N = 10,
    /// e^{6.616} = 746.95 → Err = 0.0019 · 746.95 − 1 = 0.41921. V_th = e V: ln = 1,
    /// a = 0.0014, b = 0.6976; at N = 10, e^{6.976} = 1070.63 → Err = 0.49888; at
    /// N = 12, e^{8.3712} = 4320.82 → Err = 5.04915.
    #[test]
    fn eq8_at_hand_computed_points() {
        let f = VthReliabilityFit::wang();
        let e = std::f64::consts::E;
        for (v, n, want) in [(1.0, 10.0, 0.41921), (e, 10.0, 0.49888), (e, 12.0, 5.04915)] {
            let got = f.cell_errors(v, n).unwrap();
            assert!((got - want).abs() < 2e-4, "V {v} N {n}: {got} vs {want}");
        }
        let (a, b) = f.coefficients(e).unwrap();
        assert!((a - 0.0014).abs() < 1e-15 && (b - 0.6976).abs() < 1e-15);
    }

    /// The closed-form inverse agrees with a bisection on Eq. 9, which grows with N
    /// (b > 0), and more cell errors are allowed later.
    #[test]
    fn max_pe_inverts_eq9() {
        let f = VthReliabilityFit::wang();
        let limit = err_limit_from_rber(4.5e-4, WANG_PAGE_DATA_BITS);
        assert!((limit - 7.3728).abs() < 1e-12);
        for v in [0.3, 1.0, 2.275, 4.0] {
            let n = f.max_pe(v, limit).unwrap();
            let bis = pe_at_rber(|pe| f.cell_errors(v, pe).unwrap(), limit, 100.0, 1e-9).unwrap();
            assert!((n - bis).abs() < 1e-6, "{v}: {n} vs {bis}");
            assert!(f.max_pe(v, 2.0 * limit).unwrap() > n);
        }
    }

    /// §5.4 with nandlab's layouts. Means by hand: standard −1.40 + (0 + 3.5 + 4.9 +
    /// 6.3)/4 = 2.275 V; retention-free −1.40 + (0 + 1.76 + 2.4369 + 3.1569)/4 = 0.4385 V
    /// (rises Δ₀+Δ₁, Δ₀+…+Δ₃, Δ₀+…+Δ₅ with Δ₂ = Δ₃ = 0.3385). Eq. 8 grows faster at
    /// higher V_th once N > 0.0139/a ≈ 7 units, so the lower TVR mean lasts longer.
    #[test]
    fn tvr_layout_lasts_longer() {
        use super::super::tvr::WANG_RBER_LIMIT;
        let f = VthReliabilityFit::wang();
        let std = VthLayout::wang_standard();
        let tvr = std.retention_free(WANG_RBER_LIMIT).unwrap();
        assert!((std.mean_vth_v() - 2.275).abs() < 1e-12);
        assert!((tvr.mean_vth_v() - 0.43846).abs() < 1e-5, "{}", tvr.mean_vth_v());
        let limit = err_limit_from_rber(WANG_RBER_LIMIT, WANG_PAGE_DATA_BITS);
        let (n_std, n_tvr) = (
            f.layout_max_pe(&std, limit).unwrap(),
            f.layout_max_pe(&tvr, limit).unwrap(),
        );
        assert!(n_tvr > n_std && n_std > 7.0, "{n_std} {n_tvr}");
    }

    #[test]
    fn undefined_voltages_are_errors() {
        let f = VthReliabilityFit::wang();
        let e = f.cell_errors(-0.5, 10.0).unwrap_err().to_string();
        assert!(e.contains("vth_reliability.v_th_v"), "{e}");
        // b = 0.6616 + 0.036 ln V ≤ 0 below V = e^{-18.38} ≈ 1.04e-8 V; a ≤ 0 above e^{3.8}.
        assert!(f.max_pe(50.0, 7.0).is_err());
        assert!(f.max_pe(1.0, f64::NAN).is_err());
    }
}
