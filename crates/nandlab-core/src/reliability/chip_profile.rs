//! A measured chip profile (seed 001 §4.1, Fig. 9): a few characterised chips, each with
//! its own mean RBER and block-to-block spread, repeated over the device's chips (device
//! chip `g` behaves like profile chip `g mod n`). Replaces the log-normal chip draw of
//! [`super::Variation`] when the chips are known rather than random.

use serde::{Deserialize, Serialize};

use crate::error::{NandError, Result};

/// `[reliability.chip_profile]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChipProfile {
    /// Mean RBER of each profile chip relative to the model's RBER.
    pub rber_factor: Vec<f64>,
    /// σ of ln(RBER) across the blocks of each profile chip (same length).
    pub block_sigma: Vec<f64>,
}

/// Points of the midpoint rule over z ∈ [−8, 8] used by [`ChipProfile::chip_mean`]
/// (the normal tail beyond 8σ is < 1e-15).
const Z_POINTS: usize = 4001;

impl ChipProfile {
    /// Checks the lists (`key`: the section's name for messages).
    pub fn validate(&self, key: &str) -> Result<()> {
        let n = self.rber_factor.len();
        if n == 0 || self.rber_factor.iter().any(|f| !(f.is_finite() && *f > 0.0)) {
            return Err(NandError::config(
                format!("{key}.rber_factor"),
                "needs at least one positive value",
            ));
        }
        if self.block_sigma.len() != n || self.block_sigma.iter().any(|s| !(s.is_finite() && *s >= 0.0)) {
            return Err(NandError::config(
                format!("{key}.block_sigma"),
                format!("needs {n} values >= 0, one per rber_factor"),
            ));
        }
        Ok(())
    }

    /// Profile chip of device chip `chip`.
    pub fn profile_chip(&self, chip: u64) -> usize {
        (chip % self.rber_factor.len() as u64) as usize
    }

    /// RBER factor of device chip `chip`.
    pub fn chip_factor(&self, chip: u64) -> f64 {
        self.rber_factor[self.profile_chip(chip)]
    }

    /// Block σ of device chip `chip`.
    pub fn block_sigma(&self, chip: u64) -> f64 {
        self.block_sigma[self.profile_chip(chip)]
    }

    /// Mean of `f(RBER)` over the blocks of profile chip `i` when the model's RBER is
    /// `rber`: block RBERs are `rber · factor · exp(σ z − σ²/2)`, z standard normal.
    pub fn chip_mean(&self, i: usize, rber: f64, f: impl Fn(f64) -> f64) -> f64 {
        let (m, s) = (rber * self.rber_factor[i], self.block_sigma[i]);
        if s == 0.0 {
            return f(m);
        }
        let h = 16.0 / Z_POINTS as f64;
        let (mut acc, mut wsum) = (0.0, 0.0);
        for k in 0..Z_POINTS {
            let z = -8.0 + (k as f64 + 0.5) * h;
            let w = (-0.5 * z * z).exp();
            acc += w * f(m * (s * z - 0.5 * s * s).exp());
            wsum += w;
        }
        acc / wsum
    }

    /// Mean of `f(RBER)` over the device when each profile chip covers an equal share of
    /// its chips (the device's chip count is a multiple of the profile's).
    pub fn device_mean(&self, rber: f64, f: impl Fn(f64) -> f64) -> f64 {
        let n = self.rber_factor.len();
        (0..n).map(|i| self.chip_mean(i, rber, &f)).sum::<f64>() / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile() -> ChipProfile {
        ChipProfile {
            rber_factor: vec![0.5, 1.5],
            block_sigma: vec![0.0, 0.3],
        }
    }

    #[test]
    fn maps_chips_round_robin_and_integrates_lognormal_moments() {
        let p = profile();
        assert_eq!(p.profile_chip(0), 0);
        assert_eq!(p.profile_chip(5), 1);
        assert_eq!(p.chip_factor(6), 0.5);
        assert_eq!(p.block_sigma(7), 0.3);
        // E[X] of the log-normal with mean m is m; E[X²] = m² e^{σ²}.
        assert!((p.chip_mean(1, 2e-3, |x| x) - 3e-3).abs() < 1e-12);
        let m2 = p.chip_mean(1, 2e-3, |x| x * x);
        assert!((m2 / (9e-6 * (0.09f64).exp()) - 1.0).abs() < 1e-9, "{m2}");
        // σ = 0: the chip's single value; the device mean averages the two chips.
        assert_eq!(p.chip_mean(0, 2e-3, |x| x), 1e-3);
        assert!((p.device_mean(2e-3, |x| x) - 2e-3).abs() < 1e-12);
    }

    #[test]
    fn bad_lists_name_the_key() {
        let mut p = profile();
        p.block_sigma.pop();
        let e = p.validate("reliability.chip_profile").unwrap_err().to_string();
        assert!(e.contains("reliability.chip_profile.block_sigma"), "{e}");
        let p = ChipProfile {
            rber_factor: vec![],
            block_sigma: vec![],
        };
        let e = p.validate("reliability.chip_profile").unwrap_err().to_string();
        assert!(e.contains("reliability.chip_profile.rber_factor"), "{e}");
    }
}
