//! The `[aging]` section: the state the device starts in (fill, wear, data age), set up
//! without simulating the writes that would have produced it.

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// A scalar or a distribution of per-block values (e.g. initial P/E cycles).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Distribution {
    /// The same value everywhere.
    Constant(f64),
    /// A named distribution.
    Dist(DistSpec),
    /// One value per block, in block order (the wear a previous run left: `nandlab
    /// endurance` carries it from epoch to epoch). Its length must be the device's blocks.
    PerBlock(Vec<f64>),
}

/// A named distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "dist", rename_all = "lowercase", deny_unknown_fields)]
pub enum DistSpec {
    /// U(low, high), as the initial P/E settings U1–U6 of seed 003 Table I.
    Uniform {
        /// Lower bound.
        low: f64,
        /// Upper bound.
        high: f64,
    },
    /// Normal(mean, sd), clamped at 0.
    Normal {
        /// Mean.
        mean: f64,
        /// Standard deviation.
        sd: f64,
    },
}

impl Distribution {
    /// Checks the parameters; `key` names the config key in errors.
    pub fn validate(&self, key: &str) -> Result<()> {
        let ok = match self {
            Distribution::Constant(v) => v.is_finite() && *v >= 0.0,
            Distribution::Dist(DistSpec::Uniform { low, high }) => {
                low.is_finite() && high.is_finite() && *low >= 0.0 && low <= high
            }
            Distribution::Dist(DistSpec::Normal { mean, sd }) => mean.is_finite() && sd.is_finite() && *sd >= 0.0,
            Distribution::PerBlock(v) => !v.is_empty() && v.iter().all(|x| x.is_finite() && *x >= 0.0),
        };
        if ok {
            Ok(())
        } else {
            Err(NandError::config(
                key,
                "needs finite, non-negative parameters (and low <= high)",
            ))
        }
    }

    /// The value at quantile `u` in [0, 1) (inverse CDF), so values can be drawn lazily
    /// from a hash instead of being stored for every block (per-block values: their
    /// largest, whatever `u`; preconditioning reads them by block).
    pub fn quantile(&self, u: f64) -> f64 {
        match self {
            Distribution::Constant(v) => *v,
            Distribution::PerBlock(v) => v.iter().copied().fold(0.0, f64::max),
            Distribution::Dist(DistSpec::Uniform { low, high }) => low + (high - low) * u,
            Distribution::Dist(DistSpec::Normal { mean, sd }) => {
                use statrs::distribution::ContinuousCDF;
                let z = statrs::distribution::Normal::standard().inverse_cdf(u.clamp(1e-12, 1.0 - 1e-12));
                (mean + sd * z).max(0.0)
            }
        }
    }
}

/// The `[aging]` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AgingConfig {
    /// Fraction of the logical space written before the workload starts (0 … 1; default 1:
    /// a used drive in steady state, so reads of data the trace never wrote find it on
    /// flash, as MQSim's preconditioning does).
    pub fill_fraction: f64,
    /// P/E cycles every block has already seen.
    pub initial_pe: Distribution,
    /// Age of the preconditioned data when the workload starts, in days.
    pub retention_days: f64,
    /// Idle (e.g. powered-off) time added to the age of every page when it is read, in
    /// days: data written during the run ages by it too.
    pub idle_days: f64,
    /// Temperature the data is stored at, °C.
    pub storage_temperature_c: f64,
    /// Temperature the error model's retention terms were fitted at, °C. Ages are scaled
    /// by the Arrhenius factor between the two (E_A = 1.1 eV, seed 001 Eq. 6), so 30 days
    /// at 55 °C read like ≈ 2.3 years at 25 °C.
    pub model_temperature_c: f64,
}

impl Default for AgingConfig {
    fn default() -> Self {
        AgingConfig {
            fill_fraction: 1.0,
            initial_pe: Distribution::Constant(0.0),
            retention_days: 0.0,
            idle_days: 0.0,
            storage_temperature_c: 25.0,
            model_temperature_c: 25.0,
        }
    }
}

/// Longest retention or idle time accepted, days.
pub const MAX_DAYS: f64 = 36_500.0;

/// The most initial P/E cycles accepted: ten times the largest wear in the seed papers
/// (seed 002 §5.4: its chip's end of life, 1.2469×10⁶ cycles, which the TVR reproduction
/// starts blocks at) and a hundred times SLC's rated 100,000. 1e308 used to saturate every
/// block's counter at u32::MAX.
pub const MAX_PE_CYCLES: f64 = 1e7;

impl AgingConfig {
    /// Checks every field.
    pub fn validate(&self) -> Result<()> {
        if !(0.0..=1.0).contains(&self.fill_fraction) {
            return Err(NandError::config("aging.fill_fraction", "must be between 0 and 1"));
        }
        // A century: past any retention an error model was fitted on, and far enough from
        // f64's range that the Arrhenius and Vth arithmetic stays finite (1e308 days made
        // the page RBER NaN).
        for (key, days) in [
            ("aging.retention_days", self.retention_days),
            ("aging.idle_days", self.idle_days),
        ] {
            if !(0.0..=MAX_DAYS).contains(&days) {
                return Err(NandError::config(key, format!("must be between 0 and {MAX_DAYS} days")));
            }
        }
        for (key, t) in [
            ("aging.storage_temperature_c", self.storage_temperature_c),
            ("aging.model_temperature_c", self.model_temperature_c),
        ] {
            // −55 … 150 °C: JEDEC's storage range for NAND parts and the top of the bake
            // temperatures Arrhenius acceleration is used with (seed 001 Eq. 5–6).
            if !(-55.0..=150.0).contains(&t) {
                return Err(NandError::config(key, "must be between -55 and 150 °C"));
            }
        }
        self.initial_pe.validate("aging.initial_pe")?;
        // The largest value the distribution draws (a normal's at its 1 - 1e-12 quantile).
        let top = self.initial_pe.quantile(1.0);
        if !(0.0..=MAX_PE_CYCLES).contains(&top) {
            return Err(NandError::config(
                "aging.initial_pe",
                format!("draws up to {top:?} P/E cycles; the bound is {MAX_PE_CYCLES}"),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_parse_from_toml() {
        #[derive(Deserialize)]
        struct W {
            a: Distribution,
            b: Distribution,
        }
        let w: W = toml::from_str("a = 3000\nb = { dist = \"uniform\", low = 0, high = 1000 }").unwrap();
        assert_eq!(w.a.quantile(0.3), 3000.0);
        assert_eq!(w.b.quantile(0.25), 250.0);
        let n = Distribution::Dist(DistSpec::Normal { mean: 100.0, sd: 10.0 });
        assert!((n.quantile(0.5) - 100.0).abs() < 1e-9);
        // Φ^-1(0.975) = 1.959964
        assert!((n.quantile(0.975) - 119.59964).abs() < 1e-3);
        let w: W = toml::from_str("a = [1, 5.5, 2]\nb = 0").unwrap();
        assert_eq!(w.a, Distribution::PerBlock(vec![1.0, 5.5, 2.0]));
        assert_eq!(w.a.quantile(0.0), 5.5);
    }
}
