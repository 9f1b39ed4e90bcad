//! Chip-to-chip and block-to-block RBER variation (seed 001 §4.1, Fig. 9: blocks of four
//! 25 nm chips at 10k P/E show clearly different BER; the figure's values are not in the
//! text, so the spread is a setting): a log-normal multiplicative factor with mean 1,
//! drawn deterministically from the seed and the chip / block id.

use statrs::distribution::{ContinuousCDF, Normal};

use crate::engine::rng::{hash_unit, mix64};

/// Log-normal variation `exp(σ_c z_c − σ_c²/2) · exp(σ_b z_b − σ_b²/2)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Variation {
    /// σ of ln(factor) across chips.
    pub chip_sigma: f64,
    /// σ of ln(factor) across blocks (within a chip).
    pub block_sigma: f64,
    /// Seed of the draws.
    pub seed: u64,
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
        Self::lognormal(self.chip_sigma, mix64(self.seed ^ 0xC41F), chip)
    }

    /// Factor of block `block` (global block index), without the chip part.
    pub fn block_factor(&self, block: u64) -> f64 {
        Self::lognormal(self.block_sigma, mix64(self.seed ^ 0xB10C), block)
    }

    /// Combined factor for a block on a chip.
    pub fn factor(&self, chip: u64, block: u64) -> f64 {
        self.chip_factor(chip) * self.block_factor(block)
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
        };
        assert_eq!(v.factor(3, 77), v.factor(3, 77));
        assert_ne!(v.chip_factor(1), v.chip_factor(2));
        let n = 20_000;
        let mean = (0..n).map(|b| v.block_factor(b)).sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
        let off = Variation {
            chip_sigma: 0.0,
            block_sigma: 0.0,
            seed: 1,
        };
        assert_eq!(off.factor(5, 5), 1.0);
    }
}
