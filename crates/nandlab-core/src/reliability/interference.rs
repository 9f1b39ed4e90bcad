//! Cell-to-cell interference and read disturb of seed 002 (Wang, Xie, Zhou, ICS'14)
//! §2.3–2.4, as functions of the Vth layout, so that TVR's smaller Vth swing and lower
//! pass voltage can be priced:
//! - Eq. 3–4 (after Cho et al. [8]): a cell's Vth moves by its coupling ratios times the
//!   Vth rises of its later-programmed neighbours; worst case `(γ_fg1 + 2γ_fg2)·ΔV_th^max`;
//! - Eq. 5 (after Belgal et al. [2]): tunnel-oxide leakage `I = I₀·e^{b₀·v_ox}` under the
//!   pass voltage, so lowering `V_pass` scales read-disturb leakage by `e^{−b₀·Δv_ox}`.

use serde::{Deserialize, Serialize};

use super::tvr::VthLayout;
use crate::error::{NandError, Result};

/// Bitline-direction coupling ratio `γ_fg1` (002 §2.3, from Cho et al. [8]).
pub const CHO_GAMMA_FG1: f64 = 0.02;
/// Wordline-direction coupling ratio `γ_fg2` (002 §2.3, from Cho et al. [8]).
pub const CHO_GAMMA_FG2: f64 = 0.006;
/// Worst-case Vth difference `ΔV_th^max` in volts (002 §2.3, from Cho et al. [8]).
pub const CHO_DELTA_VTH_MAX_V: f64 = 5.4;

/// Floating-gate coupling ratios of Eq. 3 (`reliability.vth_coupling`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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

    /// Checks the ratios; `key` names the config section in errors.
    pub fn validate(&self, key: &str) -> Result<()> {
        for (name, g) in [("gamma_fg1", self.gamma_fg1), ("gamma_fg2", self.gamma_fg2)] {
            if !(g.is_finite() && g >= 0.0) {
                return Err(NandError::config(format!("{key}.{name}"), "must be a ratio >= 0"));
            }
        }
        if self.gamma_fg1 + 2.0 * self.gamma_fg2 >= 1.0 {
            return Err(NandError::config(
                format!("{key}.gamma_fg1"),
                "gamma_fg1 + 2 gamma_fg2 must be below 1 (a neighbour cannot move a cell more than itself)",
            ));
        }
        Ok(())
    }

    /// Distribution of the Eq. 3 shift of a cell whose three neighbours each hold one of
    /// the states with Vth rises `rises_v` (from the erased state), equally likely and
    /// independently (random data, as §5.4 assumes): `(shift_v, probability)` pairs, one
    /// per distinct shift, in increasing order of the neighbours' states.
    pub fn shift_mixture(&self, rises_v: &[f64]) -> Vec<(f64, f64)> {
        let n = rises_v.len();
        let p = 1.0 / (n * n * n) as f64;
        let mut out: Vec<(f64, f64)> = Vec::with_capacity(n * n * (n + 1) / 2);
        for &next in rises_v {
            // The two bitline neighbours are interchangeable: one entry per unordered pair.
            for (b, &left) in rises_v.iter().enumerate() {
                for &right in &rises_v[b..] {
                    let w = if left == right { p } else { 2.0 * p };
                    out.push((self.shift_v(next, left, right), w));
                }
            }
        }
        out
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

/// Eq. 5 read-disturb leakage (`reliability.vth_read_disturb`). 002 gives no values for
/// `I₀` or `b₀`; the config supplies them.
///
/// As an error term (nandlab's extension): a read of the block puts `V_pass` on the
/// page's wordline, which pushes charge into each cell at `I₀·e^{b₀·v_ox}` with
/// `v_ox = α_G·(V_pass − V_th)`; `I₀` is given as the Vth rise it causes per read. So a
/// cell of a state with mean `μ_s` rises by
/// `reads · i0_v_per_read · e^{b₀·α_G·(V_pass − μ_s)}`, the erased state most (Mielke et
/// al. [21]: S0 read as S1 dominates), and `V_pass = μ_top + pass_margin_v` (§2.4: above
/// the highest Vth), so TVR's lower top state lowers `V_pass` and the rise.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadDisturb {
    /// `b₀` of Eq. 5, per volt across the tunnel oxide.
    pub b0_per_v: f64,
    /// Share of a control-gate voltage change that reaches the tunnel oxide (the gate
    /// coupling ratio of the floating-gate cell), dimensionless.
    pub gate_coupling_ratio: f64,
    /// `I₀` of Eq. 5 as the Vth rise (volts) one read causes at `v_ox = 0`.
    #[serde(default)]
    pub i0_v_per_read: f64,
    /// `V_pass` minus the highest state's mean Vth, volts.
    #[serde(default)]
    pub pass_margin_v: f64,
}

impl ReadDisturb {
    /// Checks the constants; `key` names the config section in errors.
    pub fn validate(&self, key: &str) -> Result<()> {
        let fields = [
            ("b0_per_v", self.b0_per_v),
            ("gate_coupling_ratio", self.gate_coupling_ratio),
            ("i0_v_per_read", self.i0_v_per_read),
            ("pass_margin_v", self.pass_margin_v),
        ];
        for (name, v) in fields {
            if !(v.is_finite() && v >= 0.0) {
                return Err(NandError::config(
                    format!("{key}.{name}"),
                    "must be a finite number >= 0",
                ));
            }
        }
        if self.gate_coupling_ratio > 1.0 {
            return Err(NandError::config(
                format!("{key}.gate_coupling_ratio"),
                "must be at most 1",
            ));
        }
        Ok(())
    }

    /// Vth rise (volts) of a cell with mean `vth_v` after `reads` reads of its block
    /// under `V_pass = pass_v` (Eq. 5 with `v_ox = α_G·(V_pass − V_th)`).
    pub fn rise_v(&self, reads: f64, pass_v: f64, vth_v: f64) -> f64 {
        reads.max(0.0) * self.current_a(self.i0_v_per_read, self.gate_coupling_ratio * (pass_v - vth_v))
    }

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
            i0_v_per_read: 0.0,
            pass_margin_v: 0.0,
        };
        let ratio = rd.current_a(3e-15, 4.0) / rd.current_a(3e-15, 3.0);
        assert!((ratio - 2.5f64.exp()).abs() < 1e-9);
        let half = std::f64::consts::LN_2 / (2.5 * 0.6);
        assert!((rd.leakage_factor(half) - 0.5).abs() < 1e-12);
        assert_eq!(rd.leakage_factor(0.0), 1.0);
    }

    /// Two states with rises 0 and 1 V, γ_fg1 = 0.02, γ_fg2 = 0.006: the eight neighbour
    /// combinations give 0 (1/8), 0.006 (2/8, left or right), 0.012 (1/8), 0.02 (1/8),
    /// 0.026 (2/8), 0.032 (1/8); the mean is (0.02 + 2·0.006)·0.5 = 0.016 V.
    #[test]
    fn eq3_shift_mixture_of_random_neighbours() {
        let m = Coupling::cho().shift_mixture(&[0.0, 1.0]);
        let want = [
            (0.0, 0.125),
            (0.006, 0.25),
            (0.012, 0.125),
            (0.02, 0.125),
            (0.026, 0.25),
            (0.032, 0.125),
        ];
        assert_eq!(m.len(), want.len());
        for ((s, p), (ws, wp)) in m.iter().zip(want) {
            assert!((s - ws).abs() < 1e-15 && (p - wp).abs() < 1e-15, "{s} {p}");
        }
        let mean: f64 = m.iter().map(|(s, p)| s * p).sum();
        assert!((mean - 0.016).abs() < 1e-15);
        // Four states: 40 distinct (next, unordered pair) entries summing to 1.
        let m4 = Coupling::cho().shift_mixture(&[0.0, 1.0, 2.0, 3.0]);
        assert_eq!(m4.len(), 40);
        assert!((m4.iter().map(|e| e.1).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    /// Eq. 5 rise: b₀ = 2, α_G = 0.5, I₀ = 1e-6 V/read, V_pass = 6 V: an erased cell at
    /// −1 V has v_ox = 3.5 V, rise per read 1e-6·e^7 = 1.0966e-3 V; 100 reads: 0.10966 V.
    /// A cell at 4 V (v_ox = 1 V) rises e^{-5} as much.
    #[test]
    fn eq5_rise_per_read() {
        let rd = ReadDisturb {
            b0_per_v: 2.0,
            gate_coupling_ratio: 0.5,
            i0_v_per_read: 1e-6,
            pass_margin_v: 1.0,
        };
        assert!((rd.rise_v(100.0, 6.0, -1.0) - 100.0 * 1e-6 * 7f64.exp()).abs() < 1e-15);
        assert!((rd.rise_v(100.0, 6.0, -1.0) - 0.109_663_3).abs() < 1e-7);
        let ratio = rd.rise_v(1.0, 6.0, 4.0) / rd.rise_v(1.0, 6.0, -1.0);
        assert!((ratio - (-5f64).exp()).abs() < 1e-15);
        assert_eq!(rd.rise_v(0.0, 6.0, -1.0), 0.0);
        assert!(rd.validate("k").is_ok());
        let bad = ReadDisturb {
            gate_coupling_ratio: 1.5,
            ..rd
        };
        assert!(bad
            .validate("k")
            .unwrap_err()
            .to_string()
            .contains("k.gate_coupling_ratio"));
    }
}
