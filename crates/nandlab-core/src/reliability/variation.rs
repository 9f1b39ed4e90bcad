//! Chip-to-chip and block-to-block RBER variation (seed 001 §4.1, Fig. 9: blocks of four
//! 25 nm chips at 10k P/E show clearly different BER; the figure's values are not in the
//! text, so the spread is a setting): a log-normal multiplicative factor with mean 1,
//! drawn deterministically from the seed and the chip / block id; or, with a measured
//! [`ChipProfile`], each chip's factor and block spread as characterised.

use statrs::distribution::{ContinuousCDF, Normal};

use super::chip_profile::ChipProfile;
use crate::engine::rng::{hash_unit, mix64};

/// Log-normal variation `exp(σ_c z_c − σ_c²/2) · exp(σ_b z_b − σ_b²/2)`; with a profile,
/// `rber_factor_c · exp(σ_{b,c} z_b − σ_{b,c}²/2)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Variation {
    /// σ of ln(factor) across chips.
    pub chip_sigma: f64,
    /// σ of ln(factor) across blocks (within a chip).
    pub block_sigma: f64,
    /// Seed of the draws.
    pub seed: u64,
    /// Measured chips, replacing `chip_sigma` and `block_sigma`.
    pub profile: Option<ChipProfile>,
}

impl Variation {
    fn lognormal(sigma: f64, seed: u64, key: u64) -> f64 {
        if sigma <= 0.0 {
            return 1.0;
        }
        let u = hash_unit(seed, key).clamp(1e-12, 1.0 - 1e-12);
        let z = Normal::standard().inverse_cdf(u);
        (sigma * z - 0.5 * sigma * sigma).exp()
    }

    /// Factor of chip `chip` (global chip index).
    pub fn chip_factor(&self, chip: u64) -> f64 {
        match &self.profile {
            Some(p) => p.chip_factor(chip),
            None => Self::lognormal(self.chip_sigma, mix64(self.seed ^ 0xC41F), chip),
        }
    }

    /// σ of ln(factor) across the blocks of chip `chip`.
    pub fn block_sigma(&self, chip: u64) -> f64 {
        self.profile.as_ref().map_or(self.block_sigma, |p| p.block_sigma(chip))
    }

    /// Factor of block `block` (global block index) on chip `chip`, without the chip part.
    pub fn block_factor(&self, chip: u64, block: u64) -> f64 {
        Self::lognormal(self.block_sigma(chip), mix64(self.seed ^ 0xB10C), block)
    }

    /// Combined factor for a block on a chip.
    pub fn factor(&self, chip: u64, block: u64) -> f64 {
        self.chip_factor(chip) * self.block_factor(chip, block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_mean_one() {
        let v = Variation {
            chip_sigma: 0.3,
            block_sigma: 0.1,
            seed: 9,
            profile: None,
        };
        assert_eq!(v.factor(3, 77), v.factor(3, 77));
        assert_ne!(v.chip_factor(1), v.chip_factor(2));
        let n = 20_000;
        let mean = (0..n).map(|b| v.block_factor(0, b)).sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
        let off = Variation {
            chip_sigma: 0.0,
            block_sigma: 0.0,
            seed: 1,
            profile: None,
        };
        assert_eq!(off.factor(5, 5), 1.0);
    }

    #[test]
    fn a_profile_replaces_the_draws() {
        let v = Variation {
            chip_sigma: 0.0,
            block_sigma: 0.0,
            seed: 9,
            profile: Some(ChipProfile {
                rber_factor: vec![0.8, 1.2],
                block_sigma: vec![0.0, 0.1],
            }),
        };
        assert_eq!(v.factor(2, 17), 0.8);
        assert_eq!(v.chip_factor(3), 1.2);
        // Chip 3's blocks spread with σ = 0.1 around mean 1: the same draw as a uniform
        // block_sigma of 0.1.
        let plain = Variation {
            block_sigma: 0.1,
            profile: None,
            ..v.clone()
        };
        assert_eq!(v.block_factor(3, 17), plain.block_factor(0, 17));
        assert_ne!(v.block_factor(3, 17), 1.0);
    }
}
