//! ISPP program-time model of seed 002 (Wang, Xie, Zhou, ICS'14), Eq. 1 and 14: a cell
//! climbs `β·ΔV_pp` per program step, so raising it by `ΔV_th` takes
//! `N_s = ⌈ΔV_th / (β·ΔV_pp)⌉` steps, and a page takes as many steps as its slowest cell
//! (§5.3, after Suh et al. [25]): `t_prog = N_s · t_step`.

use crate::error::{NandError, Result};

/// `β` of Eq. 1, fitted by 002 §5.3 to Jung et al. [14] at `ΔV_pp = 0.2 V`.
pub const WANG_BETA: f64 = 1.14;
/// ISPP step `ΔV_pp` in volts (002 §5.3, "see Figure 11a").
pub const WANG_DELTA_V_PP_V: f64 = 0.2;

/// Slack for the ceiling: a ratio within this of an integer counts as that integer, so
/// that e.g. `2.28 V / 0.228 V` is 10 steps and not 11 from rounding in the division.
const STEP_TOLERANCE: f64 = 1e-9;

/// Incremental step pulse programming with verify (002 Eq. 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ispp {
    /// Material coefficient `β` (dimensionless).
    pub beta: f64,
    /// Program-voltage step `ΔV_pp` in volts.
    pub delta_v_pp_v: f64,
}

impl Ispp {
    /// 002 §5.3: `β = 1.14`, `ΔV_pp = 0.2 V`.
    pub fn wang() -> Self {
        Ispp {
            beta: WANG_BETA,
            delta_v_pp_v: WANG_DELTA_V_PP_V,
        }
    }

    /// Checks `β > 0` and `ΔV_pp > 0`, naming the parameter.
    pub fn new(beta: f64, delta_v_pp_v: f64) -> Result<Self> {
        if !(beta > 0.0 && beta.is_finite()) {
            return Err(NandError::config("ispp.beta", "must be a finite number > 0"));
        }
        if !(delta_v_pp_v > 0.0 && delta_v_pp_v.is_finite()) {
            return Err(NandError::config("ispp.delta_v_pp_v", "must be a finite number > 0"));
        }
        Ok(Ispp { beta, delta_v_pp_v })
    }

    /// Threshold-voltage gain per step, `β·ΔV_pp` (volts).
    pub fn volts_per_step(&self) -> f64 {
        self.beta * self.delta_v_pp_v
    }

    /// Eq. 1: `V_th = V_start + β·ΔV_pp·N_s`.
    pub fn vth_after_steps_v(&self, v_start_v: f64, steps: u32) -> f64 {
        v_start_v + self.volts_per_step() * f64::from(steps)
    }

    /// Eq. 14: steps needed to raise a cell by `delta_vth_v` volts (0 for no rise). The
    /// paper writes "the smallest integer bigger than N_s"; the ceiling is taken, so an
    /// exact multiple of `β·ΔV_pp` needs exactly that many steps.
    pub fn steps(&self, delta_vth_v: f64) -> Result<u32> {
        if !(delta_vth_v >= 0.0 && delta_vth_v.is_finite()) {
            return Err(NandError::config("ispp.delta_vth_v", "must be a finite number >= 0"));
        }
        Ok((delta_vth_v / self.volts_per_step() - STEP_TOLERANCE).ceil().max(0.0) as u32)
    }

    /// Program latency of a page whose slowest cell rises by `delta_vth_v`:
    /// `steps × t_step` (§5.3), in ns.
    pub fn program_latency_ns(&self, delta_vth_v: f64, t_step_ns: u64) -> Result<u64> {
        Ok(u64::from(self.steps(delta_vth_v)?) * t_step_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 002 §5.3 after TVR: the largest rise of an MSB page is Δ₀+Δ₁+Δ₂+Δ₃ =
    /// 1.40+0.36+0.34+0.34 = 2.44 V (erased S0 to S2; each Δ is a mean-to-reference
    /// distance of Fig. 11b, so the sum is μ'₂ − μ'₀), of an LSB page Δ₀+Δ₁ = 1.76 V
    /// (μ'₁ − μ'₀). With β·ΔV_pp = 0.228 V: 2.44/0.228 = 10.70 → 11 and
    /// 1.76/0.228 = 7.72 → 8 steps; the paper's 22 and 16 before TVR need rises in
    /// (21, 22]·0.228 = (4.788, 5.016] V and (15, 16]·0.228 = (3.420, 3.648] V.
    #[test]
    fn tvr_step_counts_from_delta_sums() {
        let m = Ispp::wang();
        assert_eq!(m.steps(1.40 + 0.36 + 0.34 + 0.34).unwrap(), 11);
        assert_eq!(m.steps(1.40 + 0.36).unwrap(), 8);
        assert_eq!(m.steps(4.789).unwrap(), 22);
        assert_eq!(m.steps(5.016).unwrap(), 22);
        assert_eq!(m.steps(3.421).unwrap(), 16);
        assert_eq!(m.steps(3.648).unwrap(), 16);
        assert_eq!(m.steps(3.649).unwrap(), 17);
        // Average 19 → 9.5 steps: programming twice as fast (§5.3, "50 %").
        let before = f64::from(m.steps(4.9).unwrap() + m.steps(3.5).unwrap()) / 2.0;
        let after = f64::from(m.steps(2.44).unwrap() + m.steps(1.76).unwrap()) / 2.0;
        assert_eq!((before, after), (19.0, 9.5));
    }

    #[test]
    fn exact_multiples_and_latency() {
        let m = Ispp::wang();
        assert_eq!(m.steps(0.0).unwrap(), 0);
        assert_eq!(m.steps(10.0 * 0.228).unwrap(), 10);
        assert_eq!(m.program_latency_ns(2.44, 40_000).unwrap(), 11 * 40_000);
        // Eq. 1 and Eq. 14 are inverses at whole steps.
        let v = m.vth_after_steps_v(-1.4, 7);
        assert!((v - (-1.4 + 7.0 * 0.228)).abs() < 1e-12);
        assert_eq!(m.steps(v + 1.4).unwrap(), 7);
    }

    #[test]
    fn bad_parameters_name_the_key() {
        assert!(Ispp::new(0.0, 0.2).unwrap_err().to_string().contains("ispp.beta"));
        assert!(Ispp::new(1.14, -0.2)
            .unwrap_err()
            .to_string()
            .contains("ispp.delta_v_pp_v"));
        let e = Ispp::wang().steps(f64::NAN).unwrap_err().to_string();
        assert!(e.contains("ispp.delta_vth_v"), "{e}");
    }
}
