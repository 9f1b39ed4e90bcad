//! Threshold voltage reduction (TVR) of seed 002 (Wang, Xie, Zhou, ICS'14) §5.1–5.2: the
//! 2-bit MLC Vth layout (Eq. 2, Gray map S0 '11', S1 '10', S2 '00', S3 '01'), page RBER
//! from Gaussian tails (Eq. 10–11), the solver for the mean-to-reference distances
//! Δ₀…Δ₅ at an RBER limit (Eq. 10–13), and the reduced, retention-free layout (Fig. 11b).
//!
//! Page names are 002's: its **MSB page** is read with `V₁` alone (errors at S1|S2), its
//! **LSB page** with `V₀` and `V₂`. The MSB page holds the first character of a state's
//! pattern, [`VthModel`](super::VthModel)'s pattern bit 1, and is programmed first (002
//! Table 1): the simulator's page type 0. The LSB page is bit 0, page type 1.
//!
//! Distances (Fig. 11b): `μ₀ —Δ₀— V₀ —Δ₁— μ₁ —Δ₂— V₁ —Δ₃— μ₂ —Δ₄— V₂ —Δ₅— μ₃`.

use statrs::distribution::{ContinuousCDF, Normal};

use super::vth::{pattern_bit_of_page_type, LevelDist, VthParams};
use crate::error::{NandError, Result};

/// RBER limit for a UBER of 1e-16 (002 §5.2, after Liu et al. [17]).
pub const WANG_RBER_LIMIT: f64 = 4.5e-4;
/// 002 §5.2's solution Δ₀ ≈ 1.40 V (erased state to `V₀`).
pub const WANG_DELTA0_V: f64 = 1.40;
/// 002 §5.2's solution Δ₁ = Δ₄ = Δ₅ ≈ 0.36 V.
pub const WANG_DELTA1_V: f64 = 0.36;
/// Erased mean `μ₀ = μ'₀` (nandlab's choice, Fig. 11a is not in the text): −1.40 V puts
/// the retention-free `V'₀ = μ'₀ + Δ₀` at 0 V, the gate bias that separates erased
/// (negative) from programmed (positive) cells in NAND (Bez et al. [3]), and keeps the
/// mean Vth of both layouts positive, which Eq. 8's `ln V_th` needs (§5.4).
pub const NANDLAB_ERASED_MEAN_V: f64 = -1.40;
/// `μ₁ − μ₀` (nandlab's choice): 002 §5.3 gives 16 ISPP steps for an LSB page, whose
/// largest rise is `μ₁ − μ₀`; Eq. 14 then needs it in (3.420, 3.648] V.
pub const NANDLAB_S1_RISE_V: f64 = 3.5;
/// `μ₂ − μ₀` (nandlab's choice): 22 steps for an MSB page (§5.3) need (4.788, 5.016] V.
pub const NANDLAB_S2_RISE_V: f64 = 4.9;

/// Standard normal tail `Q(z) = P(Z > z)`.
pub fn q(z: f64) -> f64 {
    Normal::standard().sf(z)
}

/// Inverse tail `Q⁻¹(p)`, `0 < p < 1`, from statrs' inverse CDF (`Q⁻¹(p) = −Φ⁻¹(p)`,
/// accurate for small `p`).
pub fn q_inv(p: f64) -> f64 {
    -Normal::standard().inverse_cdf(p)
}

/// 002's two logical pages of a cell (see the module notes for the naming).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WangPage {
    /// Read with `V₁`; errors between S1 and S2 (Eq. 10).
    Msb,
    /// Read with `V₀` and `V₂`; errors at S0|S1 and S2|S3 (Eq. 11).
    Lsb,
}

impl WangPage {
    /// The pattern bit of this page in [`VthModel`](super::VthModel) with the Gray map:
    /// the MSB page holds the first character (S1 '10': MSB bit 1, LSB bit 0).
    pub fn pattern_bit(self) -> usize {
        match self {
            WangPage::Msb => 1,
            WangPage::Lsb => 0,
        }
    }

    /// The simulator's page type of this page on a 2-bit device: the MSB page, programmed
    /// first, is type 0 ([`pattern_bit_of_page_type`]; docs/reliability.md,
    /// "Page-type names").
    pub fn page_type(self) -> usize {
        pattern_bit_of_page_type(2, self.pattern_bit())
    }

    /// The page of simulator page type `t` of a 2-bit device.
    pub fn of_page_type(t: usize) -> Self {
        if t == WangPage::Msb.page_type() {
            WangPage::Msb
        } else {
            WangPage::Lsb
        }
    }
}

/// Mean-to-reference distances Δ₀…Δ₅ in volts (002 Fig. 11b).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TvrDeltas(pub [f64; 6]);

impl TvrDeltas {
    /// Largest Vth rise of an MSB page, S0 → S2: `Δ₀+Δ₁+Δ₂+Δ₃ = μ₂ − μ₀` (§5.3).
    pub fn msb_rise_v(&self) -> f64 {
        self.0[..4].iter().sum()
    }

    /// Largest Vth rise of an LSB page, S0 → S1: `Δ₀+Δ₁ = μ₁ − μ₀` (§5.3).
    pub fn lsb_rise_v(&self) -> f64 {
        self.0[0] + self.0[1]
    }
}

/// A 2-bit MLC Vth layout: four Gaussian states (Eq. 2, each with share 1/4) and three
/// read references.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VthLayout {
    /// State means `μ₀…μ₃` (volts), S0 erased.
    pub means_v: [f64; 4],
    /// State standard deviations `δ₀…δ₃` (volts).
    pub sigmas_v: [f64; 4],
    /// Read references `V₀, V₁, V₂` (volts).
    pub read_refs_v: [f64; 3],
}

impl VthLayout {
    /// Checks finiteness, `δ > 0` and the order `μ₀ < V₀ < μ₁ < V₁ < μ₂ < V₂ < μ₃`.
    pub fn new(means_v: [f64; 4], sigmas_v: [f64; 4], read_refs_v: [f64; 3]) -> Result<Self> {
        if sigmas_v.iter().any(|s| !(*s > 0.0 && s.is_finite())) {
            return Err(NandError::config(
                "tvr.sigmas_v",
                "every width must be a finite number > 0",
            ));
        }
        let order = [
            means_v[0],
            read_refs_v[0],
            means_v[1],
            read_refs_v[1],
            means_v[2],
            read_refs_v[2],
            means_v[3],
        ];
        if order.iter().any(|v| !v.is_finite()) || order.windows(2).any(|w| w[0] >= w[1]) {
            return Err(NandError::config(
                "tvr.means_v",
                "means and read references must be finite and interleave: μ0 < V0 < μ1 < V1 < μ2 < V2 < μ3",
            ));
        }
        Ok(VthLayout {
            means_v,
            sigmas_v,
            read_refs_v,
        })
    }

    /// nandlab's reconstruction of 002 Fig. 11a (its table is an image missing from the
    /// text); every value is derived in docs/reliability.md ("TVR"):
    /// - widths: the inverse of §5.2's solution under Eq. 10–13 at the RBER limit,
    ///   `δ₀ = Δ₀/Q⁻¹(4.5e-4) = 1.40/3.3201 = 0.4217 V`, `δ₁ = δ₂ = δ₃ = 0.36/3.3201 =
    ///   0.1084 V` (Fig. 11b keeps the widths of 11a; §5.1 sets δ₁ = δ₂ = δ₃);
    /// - means: μ₀ = −1.40 V and rises 3.5 V (S1) and 4.9 V (S2) that give §5.3's 16 and
    ///   22 ISPP steps; S3 as far above S2 as S2 above S1 (equal programmed spacing);
    /// - references: where both neighbours' tails are equally many widths away (the
    ///   forward = backward assumption of Eq. 12–13).
    pub fn wang_standard() -> Self {
        let z = q_inv(WANG_RBER_LIMIT);
        let (s0, sp) = (WANG_DELTA0_V / z, WANG_DELTA1_V / z);
        let mu0 = NANDLAB_ERASED_MEAN_V;
        let (mu1, mu2) = (mu0 + NANDLAB_S1_RISE_V, mu0 + NANDLAB_S2_RISE_V);
        let means_v = [mu0, mu1, mu2, mu2 + (mu2 - mu1)];
        let sigmas_v = [s0, sp, sp, sp];
        let read_refs_v = std::array::from_fn(|k| {
            (means_v[k] * sigmas_v[k + 1] + means_v[k + 1] * sigmas_v[k]) / (sigmas_v[k] + sigmas_v[k + 1])
        });
        VthLayout {
            means_v,
            sigmas_v,
            read_refs_v,
        }
    }

    /// The retention-free layout of Fig. 11b: erased mean `μ'₀` and widths kept, every
    /// other mean and reference placed by the distances `deltas`.
    pub fn reduced(mu0_v: f64, sigmas_v: [f64; 4], deltas: &TvrDeltas) -> Result<Self> {
        let d = deltas.0;
        let v0 = mu0_v + d[0];
        let mu1 = v0 + d[1];
        let v1 = mu1 + d[2];
        let mu2 = v1 + d[3];
        let v2 = mu2 + d[4];
        let mu3 = v2 + d[5];
        VthLayout::new([mu0_v, mu1, mu2, mu3], sigmas_v, [v0, v1, v2])
    }

    /// TVR applied to this layout: its widths and erased mean, distances solved for an
    /// RBER limit on both pages (§5.2).
    pub fn retention_free(&self, rber_limit: f64) -> Result<Self> {
        let deltas = solve_deltas(self.sigmas_v, rber_limit, rber_limit)?;
        VthLayout::reduced(self.means_v[0], self.sigmas_v, &deltas)
    }

    /// The distances Δ₀…Δ₅ of this layout.
    pub fn deltas(&self) -> TvrDeltas {
        let (m, v) = (self.means_v, self.read_refs_v);
        TvrDeltas([
            v[0] - m[0],
            m[1] - v[0],
            v[1] - m[1],
            m[2] - v[1],
            v[2] - m[2],
            m[3] - v[2],
        ])
    }

    /// Page RBER from the tails of adjacent states, random data (Eq. 10 for the MSB
    /// page, Eq. 11 for the LSB page). Misreads into non-adjacent states are left out,
    /// as in 002 (§5.2, after [7, 16]).
    pub fn page_rber(&self, page: WangPage) -> f64 {
        let d = self.deltas().0;
        let s = self.sigmas_v;
        match page {
            WangPage::Msb => 0.25 * (q(d[2] / s[1]) + q(d[3] / s[2])),
            WangPage::Lsb => 0.25 * (q(d[0] / s[0]) + q(d[1] / s[1]) + q(d[4] / s[2]) + q(d[5] / s[3])),
        }
    }

    /// Largest Vth rise when programming `page` (§5.3): `μ₂ − μ₀` for MSB, `μ₁ − μ₀` for LSB.
    pub fn page_rise_v(&self, page: WangPage) -> f64 {
        let i = match page {
            WangPage::Msb => 2,
            WangPage::Lsb => 1,
        };
        self.means_v[i] - self.means_v[0]
    }

    /// Mean Vth of a cell holding random data, each state with share 1/4 (§5.4).
    pub fn mean_vth_v(&self) -> f64 {
        self.means_v.iter().sum::<f64>() / 4.0
    }

    /// Worst-case Vth difference between neighbours, `μ₃ − μ₀` (`ΔV_th^max` of Eq. 4).
    pub fn max_vth_swing_v(&self) -> f64 {
        self.means_v[3] - self.means_v[0]
    }

    /// The layout as parameters of the simulator's [`VthModel`](super::VthModel):
    /// Gaussian levels in Gray order, fixed references, no drift, RTN or retention.
    pub fn to_vth_params(&self) -> VthParams {
        VthParams {
            bits_per_cell: 2,
            level_patterns: vec![0b11, 0b10, 0b00, 0b01],
            levels: (0..4)
                .map(|s| LevelDist::gaussian(self.means_v[s], self.sigmas_v[s]))
                .collect(),
            rtn: None,
            retention: None,
            read_refs_v: Some(self.read_refs_v.to_vec()),
            coupling: None,
            read_disturb: None,
        }
    }
}

/// Solves Eq. 10–13 for Δ₀…Δ₅, given the state widths and the RBER each page may reach.
/// With Eq. 13 the four LSB terms of Eq. 11 are equal, so each is `Q(z_L) = rber_lsb`;
/// with Eq. 12 the two MSB terms of Eq. 10 are equal, `Q(z_M) = 2·rber_msb`; then
/// `Δ₀ = z_L·δ₀, Δ₁ = z_L·δ₁, Δ₄ = z_L·δ₂, Δ₅ = z_L·δ₃, Δ₂ = z_M·δ₁, Δ₃ = z_M·δ₂`. `Q` is
/// strictly decreasing, so each equation has one root, taken from `Q⁻¹` in closed form.
pub fn solve_deltas(sigmas_v: [f64; 4], rber_msb: f64, rber_lsb: f64) -> Result<TvrDeltas> {
    if sigmas_v.iter().any(|s| !(*s > 0.0 && s.is_finite())) {
        return Err(NandError::config(
            "tvr.sigmas_v",
            "every width must be a finite number > 0",
        ));
    }
    // Δ > 0 needs each tail term below 1/2: Eq. 11 sums four halves/4, Eq. 10 two.
    if !(rber_lsb > 0.0 && rber_lsb < 0.5) {
        return Err(NandError::config("tvr.rber_limit", "LSB-page RBER must be in (0, 0.5)"));
    }
    if !(rber_msb > 0.0 && rber_msb < 0.25) {
        return Err(NandError::config(
            "tvr.rber_limit",
            "MSB-page RBER must be in (0, 0.25)",
        ));
    }
    let (z_l, z_m) = (q_inv(rber_lsb), q_inv(2.0 * rber_msb));
    let s = sigmas_v;
    Ok(TvrDeltas([
        z_l * s[0],
        z_l * s[1],
        z_m * s[1],
        z_m * s[2],
        z_l * s[2],
        z_l * s[3],
    ]))
}

#[cfg(test)]
mod tests {
    use super::super::vth::VthModel;
    use super::*;

    /// Published values of the normal tail (Abramowitz & Stegun, Table 26.1):
    /// Q(2) = 0.022750, Q(3) = 0.0013499.
    const Q2: f64 = 0.022_750_13;
    const Q3: f64 = 0.001_349_898;

    /// A hand-worked layout: δ₀ = 0.5, δ₁..₃ = 0.1; Δ₀ = 1.5 (3 δ₀), Δ₁ = Δ₄ = Δ₅ = 0.3
    /// (3 δ), Δ₂ = Δ₃ = 0.2 (2 δ). Eq. 10: MSB = ¼Q(2) + ¼Q(2) = Q(2)/2 = 0.011375;
    /// Eq. 11: LSB = 4 · ¼Q(3) = Q(3) = 0.0013499.
    fn hand_layout() -> VthLayout {
        VthLayout::reduced(0.0, [0.5, 0.1, 0.1, 0.1], &TvrDeltas([1.5, 0.3, 0.2, 0.2, 0.3, 0.3])).unwrap()
    }

    #[test]
    fn q_function_rber_of_a_hand_worked_layout() {
        let l = hand_layout();
        assert_eq!(l.means_v, [0.0, 1.8, 2.2, 2.8]);
        let msb = l.page_rber(WangPage::Msb);
        let lsb = l.page_rber(WangPage::Lsb);
        assert!((msb / (Q2 / 2.0) - 1.0).abs() < 1e-6, "{msb}");
        assert!((lsb / Q3 - 1.0).abs() < 1e-6, "{lsb}");
    }

    /// The simulator's VthModel, given this layout, reads the same pages: its RBER also
    /// counts non-adjacent misreads, which here change only the erased state: read above
    /// V₁ on the MSB page, + ¼Q((1.5+0.3+0.2)/0.5) = ¼Q(4) = ¼·3.1671e-5, and read above
    /// V₂ (as S3, whose LSB bit is right again) on the LSB page, − ¼Q(2.5/0.5) = ¼Q(5)
    /// = ¼·2.8665e-7 (published values, same table).
    #[test]
    fn vth_model_reads_the_layout_the_same_way() {
        let l = hand_layout();
        let m = VthModel::new(l.to_vth_params()).unwrap();
        let msb = m.page_rber(WangPage::Msb.pattern_bit(), None, 0.0, 0.0);
        let lsb = m.page_rber(WangPage::Lsb.pattern_bit(), None, 0.0, 0.0);
        assert!((msb / (Q2 / 2.0 + 0.25 * 3.167_124e-5) - 1.0).abs() < 1e-5, "{msb}");
        assert!((lsb / (Q3 - 0.25 * 2.866_516e-7) - 1.0).abs() < 1e-5, "{lsb}");
    }

    /// Build a layout from known distances that satisfy Eq. 12–13 (each a multiple of
    /// its state's width), compute its page RBERs from the tails, and solve back.
    #[test]
    fn solver_recovers_the_deltas_of_a_known_layout() {
        let sig = [0.45, 0.09, 0.11, 0.13];
        let (z_l, z_m) = (3.7, 3.4);
        let known = TvrDeltas([
            z_l * sig[0],
            z_l * sig[1],
            z_m * sig[1],
            z_m * sig[2],
            z_l * sig[2],
            z_l * sig[3],
        ]);
        let l = VthLayout::reduced(-2.0, sig, &known).unwrap();
        let got = solve_deltas(sig, l.page_rber(WangPage::Msb), l.page_rber(WangPage::Lsb)).unwrap();
        for (g, k) in got.0.iter().zip(known.0) {
            assert!((g - k).abs() < 1e-9, "{got:?} vs {known:?}");
        }
    }

    /// 002 §5.2: at 4.5e-4 the solver gives Δ₀ ≈ 1.40, Δ₁ = Δ₄ = Δ₅ ≈ 0.36,
    /// Δ₂ = Δ₃ ≈ 0.34 from the reconstructed widths. Q⁻¹(4.5e-4) = 3.3201 and
    /// Q⁻¹(9e-4) = 3.1214, so Δ₂/Δ₁ = 3.1214/3.3201 = 0.9401 whatever the widths:
    /// Δ₂ = 0.36 · 0.9401 = 0.3384.
    #[test]
    fn standard_layout_gives_the_papers_deltas() {
        let std = VthLayout::wang_standard();
        let d = solve_deltas(std.sigmas_v, WANG_RBER_LIMIT, WANG_RBER_LIMIT).unwrap().0;
        assert!((d[0] - 1.40).abs() < 1e-9 && (d[1] - 0.36).abs() < 1e-9, "{d:?}");
        assert_eq!((d[1], d[1]), (d[4], d[5]));
        assert!((d[2] - 0.3384).abs() < 1e-4 && d[2] == d[3], "{d:?}");
        // Both pages of the reduced layout sit at the limit.
        let tvr = std.retention_free(WANG_RBER_LIMIT).unwrap();
        for p in [WangPage::Msb, WangPage::Lsb] {
            assert!((tvr.page_rber(p) / WANG_RBER_LIMIT - 1.0).abs() < 1e-9);
        }
        // The standard layout's wide margins keep its RBER far below the limit.
        assert!(std.page_rber(WangPage::Msb) < 1e-9 && std.page_rber(WangPage::Lsb) < 1e-9);
    }

    /// §5.3 through the layouts: 16 and 22 steps before TVR, 8 and 11 after.
    #[test]
    fn layouts_give_the_papers_step_counts() {
        use super::super::ispp::Ispp;
        let m = Ispp::wang();
        let std = VthLayout::wang_standard();
        let tvr = std.retention_free(WANG_RBER_LIMIT).unwrap();
        let steps = |l: &VthLayout, p| m.steps(l.page_rise_v(p)).unwrap();
        assert_eq!((steps(&std, WangPage::Msb), steps(&std, WangPage::Lsb)), (22, 16));
        assert_eq!((steps(&tvr, WangPage::Msb), steps(&tvr, WangPage::Lsb)), (11, 8));
        assert!((tvr.deltas().msb_rise_v() - tvr.page_rise_v(WangPage::Msb)).abs() < 1e-12);
    }

    #[test]
    fn bad_inputs_name_the_key() {
        let e = solve_deltas([0.4, 0.1, 0.0, 0.1], 1e-4, 1e-4).unwrap_err().to_string();
        assert!(e.contains("tvr.sigmas_v"), "{e}");
        let e = solve_deltas([0.4, 0.1, 0.1, 0.1], 0.3, 1e-4).unwrap_err().to_string();
        assert!(e.contains("tvr.rber_limit"), "{e}");
        let e = VthLayout::new([0.0, 1.0, 2.0, 3.0], [0.1; 4], [0.5, 2.5, 2.6]).unwrap_err();
        assert!(e.to_string().contains("tvr.means_v"), "{e}");
    }
}
