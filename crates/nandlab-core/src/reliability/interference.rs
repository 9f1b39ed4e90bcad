//! Cell-to-cell interference and read disturb of seed 002 (Wang, Xie, Zhou, ICS'14)
//! §2.3–2.4, as functions of the Vth layout, so that TVR's smaller Vth swing and lower
//! pass voltage can be priced:
//! - Eq. 3–4 (after Cho et al. [8]): a cell's Vth moves by its coupling ratios times the
//!   Vth rises of its later-programmed neighbours; worst case `(γ_fg1 + 2γ_fg2)·ΔV_th^max`;
//! - Eq. 5 (after Belgal et al. [2]): tunnel-oxide leakage `I = I₀·e^{b₀·v_ox}` under the
//!   pass voltage, so lowering `V_pass` scales read-disturb leakage by `e^{−b₀·Δv_ox}`.

use super::tvr::VthLayout;

/// Bitline-direction coupling ratio `γ_fg1` (002 §2.3, from Cho et al. [8]).
pub const CHO_GAMMA_FG1: f64 = 0.02;
/// Wordline-direction coupling ratio `γ_fg2` (002 §2.3, from Cho et al. [8]).
pub const CHO_GAMMA_FG2: f64 = 0.006;
/// Worst-case Vth difference `ΔV_th^max` in volts (002 §2.3, from Cho et al. [8]).
pub const CHO_DELTA_VTH_MAX_V: f64 = 5.4;

/// Floating-gate coupling ratios of Eq. 3.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coupling {
    /// `γ_fg1`: from the next cell on the same bitline (next wordline).
    pub gamma_fg1: f64,
    /// `γ_fg2`: from each neighbour on the same wordline (adjacent bitlines).
    pub gamma_fg2: f64,
}

impl Coupling {
    /// 002 §2.3's example values (Cho et al. [8]): 0.02 and 0.006.
    pub fn cho() -> Self {
        Coupling {
            gamma_fg1: CHO_GAMMA_FG1,
            gamma_fg2: CHO_GAMMA_FG2,
        }
    }

    /// Eq. 3: Vth shift of cell (p, q) from the rises of (p, q+1), (p−1, q), (p+1, q).
    pub fn shift_v(&self, rise_next_wordline_v: f64, rise_left_bitline_v: f64, rise_right_bitline_v: f64) -> f64 {
        self.gamma_fg1 * rise_next_wordline_v + self.gamma_fg2 * (rise_left_bitline_v + rise_right_bitline_v)
    }

    /// Eq. 4: worst case, every neighbour rising by `ΔV_th^max`.
    pub fn worst_shift_v(&self, delta_vth_max_v: f64) -> f64 {
        self.shift_v(delta_vth_max_v, delta_vth_max_v, delta_vth_max_v)
    }

    /// Fractional reduction of the worst-case shift when `ΔV_th^max` falls from `from_v`
    /// to `to_v`. Eq. 4 is linear in `ΔV_th^max`, so this is `1 − to/from` whatever the
    /// ratios.
    pub fn worst_shift_reduction(&self, from_v: f64, to_v: f64) -> f64 {
        1.0 - self.worst_shift_v(to_v) / self.worst_shift_v(from_v)
    }

    /// [`Self::worst_shift_reduction`] between two layouts (`ΔV_th^max = μ₃ − μ₀`).
    pub fn layout_shift_reduction(&self, from: &VthLayout, to: &VthLayout) -> f64 {
        self.worst_shift_reduction(from.max_vth_swing_v(), to.max_vth_swing_v())
    }
}

/// Drop of the pass voltage when the highest state moves down from `from` to `to`: §2.4
/// ties `V_pass` to the highest Vth, and Fig. 11b keeps the widths, so the highest
/// state's upper tail moves by `μ₃ − μ'₃`.
pub fn pass_voltage_drop_v(from: &VthLayout, to: &VthLayout) -> f64 {
    from.means_v[3] - to.means_v[3]
}

/// Eq. 5 read-disturb leakage. 002 gives no values for `I₀` or `b₀`; the caller supplies
/// them (they cancel from ratios, except `b₀`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadDisturb {
    /// `b₀` of Eq. 5, per volt across the tunnel oxide.
    pub b0_per_v: f64,
    /// Share of a control-gate voltage change that reaches the tunnel oxide (the gate
    /// coupling ratio of the floating-gate cell), dimensionless.
    pub gate_coupling_ratio: f64,
}

impl ReadDisturb {
    /// Eq. 5: `I = I₀·e^{b₀·v_ox}`.
    pub fn current_a(&self, i0_a: f64, v_ox_v: f64) -> f64 {
        i0_a * (self.b0_per_v * v_ox_v).exp()
    }

    /// Leakage after lowering `V_pass` by `pass_drop_v`, as a fraction of before:
    /// `e^{−b₀·α_G·ΔV_pass}`.
    pub fn leakage_factor(&self, pass_drop_v: f64) -> f64 {
        (-self.b0_per_v * self.gate_coupling_ratio * pass_drop_v).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 002 §2.3: with γ_fg1 = 0.02, γ_fg2 = 0.006 and ΔV_th^max = 5.4 V the worst shift
    /// is (0.02 + 2·0.006)·5.4 = 0.1728 V; 2 V less gives 0.032·3.4 = 0.1088 V, i.e.
    /// 1 − 3.4/5.4 = 37.0 % less coupling.
    #[test]
    fn eq4_gives_37_percent_for_2_volts_less() {
        let c = Coupling::cho();
        assert!((c.worst_shift_v(CHO_DELTA_VTH_MAX_V) - 0.1728).abs() < 1e-12);
        assert!((c.worst_shift_v(CHO_DELTA_VTH_MAX_V - 2.0) - 0.1088).abs() < 1e-12);
        let r = c.worst_shift_reduction(CHO_DELTA_VTH_MAX_V, CHO_DELTA_VTH_MAX_V - 2.0);
        assert!((r - 0.37037).abs() < 1e-5, "{r}");
        assert_eq!((r * 100.0).round(), 37.0);
    }

    /// nandlab's layouts: ΔV_th^max = μ₃ − μ₀ falls from 6.3 V to Σ Δ = 1.40 + 3·0.36 +
    /// 2·0.3385 = 3.1569 V, so Eq. 4 gives 1 − 3.1569/6.3 = 49.9 % less coupling; the
    /// highest mean, and with it V_pass, drops by 4.9 − 1.7569 = 3.1431 V.
    #[test]
    fn layouts_coupling_and_pass_voltage() {
        use super::super::tvr::WANG_RBER_LIMIT;
        let std = VthLayout::wang_standard();
        let tvr = std.retention_free(WANG_RBER_LIMIT).unwrap();
        let r = Coupling::cho().layout_shift_reduction(&std, &tvr);
        assert!((r - (1.0 - 3.156_917 / 6.3)).abs() < 1e-6, "{r}");
        assert!((pass_voltage_drop_v(&std, &tvr) - 3.143_083).abs() < 1e-6);
    }

    #[test]
    fn eq3_weights_each_neighbour() {
        let c = Coupling::cho();
        // Only the next wordline rises by 1 V: 0.02 V; only one bitline neighbour: 0.006 V.
        assert!((c.shift_v(1.0, 0.0, 0.0) - 0.02).abs() < 1e-15);
        assert!((c.shift_v(0.0, 1.0, 0.0) - 0.006).abs() < 1e-15);
        assert!((c.shift_v(0.0, 0.0, 1.0) - 0.006).abs() < 1e-15);
    }

    /// Eq. 5 ratios do not depend on I₀: I(v+Δ)/I(v) = e^{b₀Δ}; a pass-voltage drop of
    /// ln 2/(b₀·α_G) halves the leakage.
    #[test]
    fn eq5_leakage_factor_closed_form() {
        let rd = ReadDisturb {
            b0_per_v: 2.5,
            gate_coupling_ratio: 0.6,
        };
        let ratio = rd.current_a(3e-15, 4.0) / rd.current_a(3e-15, 3.0);
        assert!((ratio - 2.5f64.exp()).abs() < 1e-9);
        let half = std::f64::consts::LN_2 / (2.5 * 0.6);
        assert!((rd.leakage_factor(half) - 0.5).abs() < 1e-12);
        assert_eq!(rd.leakage_factor(0.0), 1.0);
    }
}
